// Expected terms are the examples of shared/reference/polish/README.md, recorded from Lucene 8.7's
// PolishAnalyzer (Debian liblucene8-java); the full parity runs in polish-analyzer.parity.test.ts.
import { beforeAll, describe, expect, it } from 'vitest';
import { analyzerReady, prepareAnalyzer } from '../../../src/lib/analysis/analyzers.ts';
import { polishAnalyzer, polishTerm, polishStopWords } from '../../../src/lib/analysis/polish-analyzer.ts';
import { stempelFilter, stempelStem } from '../../../src/lib/analysis/stempel.ts';

beforeAll(async () => {
  await prepareAnalyzer('polish');
});

describe('polishAnalyzer (Lucene 8.7 PolishAnalyzer)', () => {
  it('stems inflected forms to a base form, sometimes to a non-word, sometimes not at all', () => {
    const stems = (words: string[]) => words.map((w) => polishTerm(w));
    expect(stems(['katalogów', 'wypisuje', 'dyskusyjna', 'pocztą', 'pocztę', 'poczty'])).toEqual(
      ['katalog', 'wypisywać', 'dyskusyjny', 'poczta', 'poczta', 'poczta'],
    );
    expect(stems(['uwzględnione', 'uruchamia', 'linuksa'])).toEqual(['uwzględnion', 'uruchamia', 'linuksa']);
  });

  it('removes stop words before stemming, so a stem may be a stop word', () => {
    expect(polishStopWords().size).toBe(182);
    expect(polishTerm('się')).toBeNull();
    expect(polishTerm('czego')).toBe('czy');
  });

  it('rewrites non-Polish tokens too, and may lengthen them', () => {
    expect(['mail', 'http', 'help', 'debiana', 'authentication', 'jaźń'].map((w) => polishTerm(w))).toEqual(
      ['mcić', 'httpić', 'heć', 'debiać', 'authenticatiun', 'jaźnić'],
    );
  });

  it('lower-cases first and keeps diacritics', () => {
    expect(polishTerm('ZAŻÓŁĆ')).toBe('zażółcić');
    expect(polishTerm('żółw')).toBe('żółw');
    expect(polishTerm('zolw')).toBe('zolwa');
  });

  it('leaves terms of 3 characters or fewer unstemmed (StempelFilter minimum length)', () => {
    expect(stempelStem('ulu')).toBe('ul');
    expect(stempelFilter('ulu')).toBe('ulu');
    expect(polishTerm('ulu')).toBe('ulu');
  });

  it('splits on hyphens, keeps dotted and underscored tokens whole, with offsets', () => {
    expect(polishAnalyzer().analyze('e-mail MS-DOS-em --all sendmail.sendmail console_codes sha256sum ext4')).toEqual(
      ['e', 'mcić', 'ms', 'dos', 'em', 'all', 'sendmail.sendmcić', 'console_codesa', 'sha256suy', 'ext4'],
    );
    expect(polishAnalyzer().analyzeWithOffsets('Wypisuje zawartość katalogu')).toEqual([
      { term: 'wypisywać', start: 0, end: 8 },
      { term: polishTerm('zawartość'), start: 9, end: 18 },
      { term: polishTerm('katalogu'), start: 19, end: 27 },
    ]);
  });
});

describe('the Stempel table loads on demand', () => {
  it('prepareAnalyzer loads it once (the app keeps it out of the page and BM25 worker bundles)', async () => {
    expect(analyzerReady('polish')).toBe(true);
    expect(analyzerReady('english')).toBe(true);
    await prepareAnalyzer('polish');
    expect(polishAnalyzer().analyze('katalogów')).toEqual(['katalog']);
  });
});
