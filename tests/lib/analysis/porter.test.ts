import { describe, expect, it } from 'vitest';
import { stemmer } from 'stemmer';
import { porterStem } from '../../../src/lib/analysis/porter.ts';

describe('porterStem (Lucene PorterStemmer)', () => {
  // Examples from Porter (1980), section 3 (step by step).
  it.each([
    ['caresses', 'caress'],
    ['ponies', 'poni'],
    ['caress', 'caress'],
    ['cats', 'cat'],
    ['feed', 'feed'],
    ['agreed', 'agre'],
    ['plastered', 'plaster'],
    ['bled', 'bled'],
    ['motoring', 'motor'],
    ['sing', 'sing'],
    ['hopping', 'hop'],
    ['falling', 'fall'],
    ['filing', 'file'],
    ['happy', 'happi'],
    ['sky', 'sky'],
    ['relational', 'relat'],
    ['conditional', 'condit'],
    ['generalization', 'gener'],
    ['triplicate', 'triplic'],
    ['hopeful', 'hope'],
    ['goodness', 'good'],
    ['adoption', 'adopt'],
    ['controlling', 'control'],
    ['probate', 'probat'],
    ['rate', 'rate'],
  ])('%s → %s', (word, stem) => {
    expect(porterStem(word)).toBe(stem);
  });

  it('keeps "eed" as Lucene does (the npm stemmer package gives "e")', () => {
    expect(porterStem('eed')).toBe('eed');
    expect(stemmer('eed')).toBe('e');
  });

  it('maps "ies" to "i" as Lucene does (the npm stemmer package gives "ie")', () => {
    expect(porterStem('ies')).toBe('i');
    expect(stemmer('ies')).toBe('ie');
  });

  it('uses the -bli and -logi rules of Porter’s reference implementation', () => {
    expect(porterStem('possibli')).toBe('possibl');
    expect(porterStem('archaeologi')).toBe('archaeolog');
  });

  it('leaves words shorter than three characters alone', () => {
    expect(porterStem('is')).toBe('is');
    expect(porterStem('as')).toBe('as');
    expect(porterStem('')).toBe('');
  });

  it('treats digits and non-ASCII letters as consonants without failing', () => {
    expect(porterStem('covid19s')).toBe('covid19');
    expect(porterStem('naïveness')).toBe('naïv');
  });
});

describe('porterStem against the npm stemmer package (the same Porter algorithm)', () => {
  it('agrees on every distinct word of the SciFact corpus except the documented cases', async () => {
    const { createReadStream } = await import('node:fs');
    const { readLines } = await import('../../../src/lib/data/lines.ts');
    const { scanStandardTokens } = await import('../../../src/lib/analysis/standard-tokenizer.ts');
    const { stripPossessive } = await import('../../../src/lib/analysis/possessive.ts');
    const { javaLowerCase } = await import('../../../src/lib/analysis/lowercase.ts');
    const { shared } = await import('../../shared-dir.ts');
    const file = shared('beir', 'scifact', 'corpus.jsonl');
    const words = new Set<string>();
    for await (const line of readLines(createReadStream(file), { file })) {
      const doc = JSON.parse(line.text) as { title: string; text: string };
      const text = `${doc.title} ${doc.text}`;
      scanStandardTokens(text, (start, end) => words.add(javaLowerCase(stripPossessive(text.slice(start, end)))));
    }
    // Lucene's PorterStemmer keeps "eed" and maps "ies" to "i"; the npm package gives "e" and "ie".
    const documented = new Set(['eed', 'ies']);
    const differing = [...words].filter((word) => !documented.has(word) && porterStem(word) !== stemmer(word));
    expect(words.size).toBeGreaterThan(30_000);
    expect(differing).toEqual([]);
  });
});
