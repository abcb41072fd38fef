import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  binLabels,
  binOf,
  lengthBins,
  lengthHistogram,
  nearestRank,
  niceCeil,
  retrievedLengths,
  shareBelow,
  summarizeLengths,
  wordCount,
} from '../../../src/lib/run-analysis/document-lengths.ts';
import { runOf } from '../eval/fixtures.ts';

describe('wordCount', () => {
  it('counts runs of non-whitespace in title and text', () => {
    expect(wordCount('Deep  learning', 'is, in fact,\nshallow.')).toBe(2 + 4);
    expect(wordCount('', '')).toBe(0);
    expect(wordCount('  ', '\t\n')).toBe(0);
    // Punctuation standing alone is a word; a no-break space separates like any Unicode space.
    expect(wordCount('a - b', 'c\u00a0d')).toBe(3 + 2);
  });

  it('counts what /\\S+/gu matches, for every whitespace character and astral letters', () => {
    const spaces = [...Array(0x10000).keys()].filter((unit) => /\s/u.test(String.fromCharCode(unit))).map((unit) => String.fromCharCode(unit));
    const piece = fc.oneof(fc.constantFrom(...spaces), fc.constantFrom('a', 'é', '😀', '-', '\ud800', '\u200b', '\u180e'), fc.string());
    fc.assert(
      fc.property(fc.array(piece), fc.array(piece), (a, b) => {
        const [title, text] = [a.join(''), b.join('')];
        const matches = (part: string) => part.match(/\S+/gu)?.length ?? 0;
        expect(wordCount(title, text)).toBe(matches(title) + matches(text));
      }),
      { numRuns: 500 },
    );
  });
});

describe('retrievedLengths', () => {
  const lengths = new Map([['d1', 10], ['d2', 20], ['d3', 30], ['d4', 40]]);
  const run = runOf({
    q1: [['d1', 3], ['d2', 2], ['d3', 1]],
    q2: [['d3', 9], ['dX', 8], ['d4', 7]],
  });

  it('takes the top `depth` of each query, repeats included, unknown documents counted apart', () => {
    expect(retrievedLengths(run, (id) => lengths.get(id), { depth: 2 })).toEqual({ lengths: [10, 20, 30], unknown: 1 });
    expect(retrievedLengths(run, (id) => lengths.get(id), { depth: 3 })).toEqual({ lengths: [10, 20, 30, 30, 40], unknown: 1 });
  });

  it('reads only the queries asked for; a query the run lacks adds nothing', () => {
    expect(retrievedLengths(run, (id) => lengths.get(id), { queryIds: ['q2', 'q9'] })).toEqual({ lengths: [30, 40], unknown: 1 });
  });

  it('refuses a depth that is not a positive integer', () => {
    expect(() => retrievedLengths(run, () => 1, { depth: 0 })).toThrow(RangeError);
  });
});

describe('summarizeLengths', () => {
  it('mean and nearest-rank quartiles of 8 lengths (hand-computed)', () => {
    // sorted: 1 2 3 4 5 6 7 100; n = 8 → q1 = 2nd (⌈2⌉), median = 4th, q3 = 6th; mean = 128 / 8 = 16
    expect(summarizeLengths([7, 3, 100, 1, 5, 2, 6, 4])).toEqual({ count: 8, mean: 16, q1: 2, median: 4, q3: 6, min: 1, max: 100 });
  });

  it('one length, and none', () => {
    expect(summarizeLengths([5])).toEqual({ count: 1, mean: 5, q1: 5, median: 5, q3: 5, min: 5, max: 5 });
    expect(summarizeLengths([]).count).toBe(0);
    expect(summarizeLengths([]).median).toBeNaN();
    expect(nearestRank([1, 2, 3], 0)).toBe(1);
  });
});

describe('length bins and histograms', () => {
  it('niceCeil gives 1, 2 or 5 × 10^n', () => {
    expect([0.3, 1, 1.2, 3, 7, 10, 11, 42, 500, 501].map(niceCeil)).toEqual([0.5, 1, 2, 5, 10, 10, 20, 50, 500, 1000]);
  });

  it('bins from the corpus p2 and p98: 100 documents of lengths 1…100, 4 bins (hand-computed)', () => {
    // p2 = the 2nd smallest = 2, p98 = the 98th = 98; (98 − 2) / 4 = 24 → nice width 50; start ⌊2 / 50⌋·50 = 0
    const corpus = Array.from({ length: 100 }, (_, i) => i + 1);
    const bins = lengthBins(corpus, 4);
    expect(bins).toEqual({ start: 0, width: 50, count: 4 });
    expect(binLabels(bins)).toEqual(['0–49', '50–99', '100–149', '150+']);
    expect([0, 49, 50, 99, 100, 149, 150, 10_000].map((x) => binOf(x, bins))).toEqual([0, 0, 1, 1, 2, 2, 3, 3]);
    // 1…49 → bin 0 (49), 50…99 → bin 1 (50), 100 → bin 2 (1)
    expect(lengthHistogram(corpus, bins)).toEqual([0.49, 0.5, 0.01, 0]);
  });

  it('bins start near the shortest documents: lengths 61…160, 5 bins (hand-computed)', () => {
    // p2 = 62, p98 = 158; (158 − 62) / 5 = 19.2 → width 20; start ⌊62 / 20⌋·20 = 60
    const corpus = Array.from({ length: 100 }, (_, i) => i + 61);
    const bins = lengthBins(corpus, 5);
    expect(bins).toEqual({ start: 60, width: 20, count: 5 });
    expect(binLabels(bins)).toEqual(['< 80', '80–99', '100–119', '120–139', '140+']);
    // The first bin is open below, the last above.
    expect([3, 79, 80, 139, 140, 900].map((x) => binOf(x, bins))).toEqual([0, 0, 1, 3, 4, 4]);
    expect(lengthHistogram(corpus, bins)).toEqual([0.19, 0.2, 0.2, 0.2, 0.21]);
  });

  it('the last bin is open: long outliers land in it', () => {
    // p2 of [10, 20, 30, 40, 1000] = 1st = 10, p98 = 5th = 1000 → 990 / 5 = 198 → width 200, start 0
    const bins = lengthBins([10, 20, 30, 40, 1000], 5);
    expect(bins).toEqual({ start: 0, width: 200, count: 5 });
    expect(lengthHistogram([10, 20, 30, 40, 1000, 5000], bins)).toEqual([4 / 6, 0, 0, 0, 2 / 6]);
  });

  it('a corpus of equal lengths gets bins 1 wide', () => {
    expect(lengthBins([7, 7, 7], 3)).toEqual({ start: 7, width: 1, count: 3 });
  });

  it('shareBelow counts lengths strictly below the threshold', () => {
    expect(shareBelow([1, 2, 3, 4], 3)).toBe(0.5);
    expect(shareBelow([], 3)).toBeNaN();
  });

  it('an empty set of lengths has an all-zero histogram; shares otherwise sum to 1', () => {
    const bins = { start: 0, width: 10, count: 3 };
    expect(lengthHistogram([], bins)).toEqual([0, 0, 0]);
    const shares = lengthHistogram([1, 11, 12, 25, 99], bins);
    expect(shares).toEqual([0.2, 0.4, 0.4]);
    expect(shares.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
  });

  it('refuses a bin count that is not a positive integer', () => {
    expect(() => lengthBins([1, 2], 0)).toThrow(RangeError);
  });
});
