// Expected terms were recorded from Lucene 8.7's EnglishAnalyzer (Debian liblucene8-java), except where a
// comment says the figure is a property.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { englishAnalyzer, englishTerm } from '../../../src/lib/analysis/english-analyzer.ts';
import { ENGLISH_STOP_WORDS } from '../../../src/lib/analysis/english-stopwords.ts';
import { javaLowerCase, lowerCaseCodePoint } from '../../../src/lib/analysis/lowercase.ts';

describe('englishAnalyzer (Lucene 8.7 EnglishAnalyzer)', () => {
  const analyzer = englishAnalyzer();

  it('removes possessives, lower-cases, drops stop words and stems, with token offsets', () => {
    const text = "John's dogs are running to the park; JOHN’S CATS’ toys. The feed eed agreed.";
    expect(analyzer.analyzeWithOffsets(text)).toEqual([
      { term: 'john', start: 0, end: 6 },
      { term: 'dog', start: 7, end: 11 },
      { term: 'run', start: 16, end: 23 },
      { term: 'park', start: 31, end: 35 },
      { term: 'john', start: 37, end: 43 },
      { term: 'cat', start: 44, end: 48 },
      { term: 'toi', start: 50, end: 54 },
      { term: 'feed', start: 60, end: 64 },
      { term: 'eed', start: 65, end: 68 },
      { term: 'agre', start: 69, end: 75 },
    ]);
    expect(analyzer.analyze(text)).toEqual(['john', 'dog', 'run', 'park', 'john', 'cat', 'toi', 'feed', 'eed', 'agre']);
  });

  it("strips 's, ’s and ＇s in either case, but nothing else", () => {
    expect(analyzer.analyze("CELLS cells’ cell＇s don't")).toEqual(['cell', 'cell', 'cell', "don't"]);
  });

  it('keeps "eed", where the npm stemmer package differs from Lucene', () => {
    expect(analyzer.analyze('eed')).toEqual(['eed']);
  });

  it('drops exactly the 33 stop words of EnglishAnalyzer.ENGLISH_STOP_WORDS_SET', () => {
    expect(ENGLISH_STOP_WORDS.size).toBe(33);
    expect(analyzer.analyze([...ENGLISH_STOP_WORDS].join(' ').toUpperCase())).toEqual([]);
    // Not stop words in Lucene's set, although common: kept (and stemmed).
    expect(analyzer.analyze('we were from have')).toEqual(['we', 'were', 'from', 'have']);
  });

  it('stems like Lucene', () => {
    expect(analyzer.analyze('generalizations hopping hoped happy sky relational controlling')).toEqual([
      'gener',
      'hop',
      'hope',
      'happi',
      'sky',
      'relat',
      'control',
    ]);
  });

  it("lower-cases with Java's simple case mapping, not String.prototype.toLowerCase", () => {
    // JS would give final sigma "οδος" and "i̇" (with a combining dot) here.
    expect(analyzer.analyze('ΟΔΟΣ İ 𐐀𐐁')).toEqual(['οδοσ', 'i', '𐐨𐐩']);
    expect(javaLowerCase('ΟΔΟΣİ𐐀Ǆǅ')).toBe('οδοσi𐐨ǆǆ');
  });

  it('javaLowerCase on ASCII (the native path) equals the reference JVM table code point by code point (property)', () => {
    const byTable = (text: string) => [...text].map((c) => String.fromCodePoint(lowerCaseCodePoint(c.codePointAt(0)!))).join('');
    const ascii = fc.string({ unit: fc.integer({ min: 0, max: 0x7f }).map((unit) => String.fromCharCode(unit)) });
    fc.assert(fc.property(ascii, (text) => javaLowerCase(text) === byTable(text)), { numRuns: 1000 });
    for (let unit = 0; unit < 0x80; unit++) expect(javaLowerCase(String.fromCharCode(unit))).toBe(byTable(String.fromCharCode(unit)));
  });

  it('englishTerm is the per-token filter chain (null for stop words)', () => {
    expect(englishTerm("The")).toBeNull();
    expect(englishTerm("Hospitals'")).toBe("hospitals'");
    expect(englishTerm("Hospital's")).toBe('hospit');
  });

  it('gives the same terms on a second pass (memoized) as on the first', () => {
    const fresh = englishAnalyzer();
    const text = 'Running runners ran; the runner’s runs were running.';
    const first = fresh.analyze(text);
    expect(fresh.analyze(text)).toEqual(first);
    expect(englishAnalyzer().analyzeWithOffsets(text).map((t) => t.term)).toEqual(first);
  });

  // Properties (not Lucene figures): robustness on arbitrary input.
  it('never throws on arbitrary strings; offsets are in bounds and ordered; terms are lower case', () => {
    const anyText = fc.oneof(
      fc.string({ unit: 'grapheme', maxLength: 80 }),
      fc.string({ unit: 'binary', maxLength: 80 }),
      fc.string({ unit: fc.constantFrom('a', 'B', '1', '.', ',', "'", 's', ' ', '😀', '\u200d', '中', '\ud800', '\udc00', '_'), maxLength: 600 }),
    );
    fc.assert(
      fc.property(anyText, (text) => {
        const tokens = analyzer.analyzeWithOffsets(text);
        let previousEnd = 0;
        for (const token of tokens) {
          expect(token.start).toBeGreaterThanOrEqual(previousEnd);
          expect(token.end).toBeGreaterThan(token.start);
          expect(token.end).toBeLessThanOrEqual(text.length);
          expect(javaLowerCase(token.term)).toBe(token.term);
          expect(token.term).toBe(englishTerm(text.slice(token.start, token.end)));
          previousEnd = token.end;
        }
        expect(analyzer.analyze(text)).toEqual(tokens.map((t) => t.term));
      }),
      { numRuns: 500 },
    );
  });
});
