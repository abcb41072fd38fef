import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareRuns, jaccardAt, rankBiasedOverlap } from '../../../src/lib/eval/overlap.ts';
import { runOf } from './fixtures.ts';

/** Equation (32) of Webber et al. 2010 written out literally with sets, as an independent oracle. */
function rboExtLiteral(a: readonly string[], b: readonly string[], p: number): number {
  const [S, L] = a.length <= b.length ? [a, b] : [b, a];
  const s = S.length;
  const l = L.length;
  const X = (d: number) => {
    const top = new Set(S.slice(0, Math.min(d, s)));
    return L.slice(0, d).filter((x) => top.has(x)).length;
  };
  let first = 0;
  for (let d = 1; d <= l; d++) first += (X(d) / d) * p ** d;
  let second = 0;
  for (let d = s + 1; d <= l; d++) second += ((X(s) * (d - s)) / (s * d)) * p ** d;
  return ((1 - p) / p) * (first + second) + ((X(l) - X(s)) / l + X(s) / s) * p ** l;
}

describe('rankBiasedOverlap (RBO_ext, eq. 32)', () => {
  it('is 1 for identical lists and 0 for disjoint ones', () => {
    expect(rankBiasedOverlap(['a', 'b', 'c'], ['a', 'b', 'c'])).toBeCloseTo(1, 12);
    expect(rankBiasedOverlap(['a'], ['a'], 0.5)).toBeCloseTo(1, 12);
    expect(rankBiasedOverlap(['a', 'b', 'c'], ['d', 'e', 'f'])).toBe(0);
    expect(rankBiasedOverlap(['a', 'b'], ['c', 'd', 'e', 'f'])).toBe(0);
  });

  it('a b c against a c b, p = 0.9: 0.955 (hand-computed)', () => {
    // X1 = |{a} ∩ {a}| = 1, X2 = |{a,b} ∩ {a,c}| = 1, X3 = 3.
    // Σ X_d/d p^d = 1·0.9 + ½·0.81 + 1·0.729 = 2.034; (1−p)/p · 2.034 = 2.034 / 9 = 0.226
    // extrapolation X3/3 · p³ = 0.729 → RBO_ext = 0.955
    expect(rankBiasedOverlap(['a', 'b', 'c'], ['a', 'c', 'b'])).toBeCloseTo(0.955, 12);
  });

  it('a b against a c b (uneven lengths), p = 0.9: 0.82 (hand-computed)', () => {
    // s = 2, l = 3. X1 = 1, X2 = |{a,b} ∩ {a,c}| = 1 = X_s, X3 = |{a,b} ∩ {a,c,b}| = 2 = X_l.
    // first sum: 1·0.9 + ½·0.81 + ⅔·0.729 = 0.9 + 0.405 + 0.486 = 1.791
    // second sum (d = 3): X_s·(3−2)/(2·3)·0.729 = 0.1215
    // (1−p)/p · (1.791 + 0.1215) = 1.9125 / 9 = 0.2125
    // extrapolation: ((X_l − X_s)/l + X_s/s)·p³ = (1/3 + 1/2)·0.729 = 0.6075 → 0.82
    expect(rankBiasedOverlap(['a', 'b'], ['a', 'c', 'b'])).toBeCloseTo(0.82, 12);
    expect(rankBiasedOverlap(['a', 'c', 'b'], ['a', 'b'])).toBeCloseTo(0.82, 12);
  });

  it('1 2 3 4 5 against 2 3 4 1 5, p = 0.9: 0.828 (the rankmeasures README gives 0.828)', () => {
    // X = 0, 1, 2, 4, 5; Σ X_d/d p^d = ½·0.81 + ⅔·0.729 + 0.6561 + 0.59049 = 2.13759 → /9 = 0.237510
    // + X5/5 · p^5 = 0.59049 → 0.828
    expect(rankBiasedOverlap(['1', '2', '3', '4', '5'], ['2', '3', '4', '1', '5'])).toBeCloseTo(0.828, 3);
    expect(rankBiasedOverlap(['1', '2', '3', '4', '5'], ['2', '3', '4', '1', '5'])).toBeCloseTo(2.13759 / 9 + 0.59049, 12);
  });

  it('weighs the top more than the bottom', () => {
    const swapTop = rankBiasedOverlap(['a', 'b', 'c', 'd'], ['b', 'a', 'c', 'd']);
    const swapBottom = rankBiasedOverlap(['a', 'b', 'c', 'd'], ['a', 'b', 'd', 'c']);
    expect(swapTop).toBeLessThan(swapBottom);
  });

  it('handles empty lists and refuses repeats and a p outside (0, 1)', () => {
    expect(rankBiasedOverlap([], [])).toBe(1);
    expect(rankBiasedOverlap([], ['a'])).toBe(0);
    expect(() => rankBiasedOverlap(['a', 'a'], ['a'])).toThrow(/document a twice/);
    expect(() => rankBiasedOverlap(['a'], ['a'], 1)).toThrow(RangeError);
    expect(() => rankBiasedOverlap(['a'], ['a'], 0)).toThrow(RangeError);
  });

  it('equals the literal formula on random lists, symmetric and within [0, 1]', () => {
    const ranking = fc.uniqueArray(fc.constantFrom(...'abcdefghijkl'), { maxLength: 12 });
    fc.assert(
      fc.property(ranking, ranking, fc.double({ min: 0.05, max: 0.95, noNaN: true }), (a, b, p) => {
        fc.pre(a.length > 0 && b.length > 0);
        const value = rankBiasedOverlap(a, b, p);
        expect(value).toBeCloseTo(rboExtLiteral(a, b, p), 10);
        expect(rankBiasedOverlap(b, a, p)).toBeCloseTo(value, 12);
        expect(value).toBeGreaterThanOrEqual(-1e-12);
        expect(value).toBeLessThanOrEqual(1 + 1e-12);
      }),
      { numRuns: 500 },
    );
  });
});

describe('jaccardAt', () => {
  it('compares the top k as sets', () => {
    // top 3: {a,b,c} vs {c,a,d}: 2 shared of 4 → 0.5
    expect(jaccardAt(['a', 'b', 'c', 'x'], ['c', 'a', 'd', 'x'], 3)).toBe(0.5);
    // top 4 adds x to both: 3 of 5
    expect(jaccardAt(['a', 'b', 'c', 'x'], ['c', 'a', 'd', 'x'], 4)).toBe(0.6);
    expect(jaccardAt(['a', 'b'], ['b', 'a'])).toBe(1);
    expect(jaccardAt(['a'], ['b'])).toBe(0);
    expect(jaccardAt([], [])).toBe(1);
    expect(jaccardAt([], ['a'])).toBe(0);
  });
});

describe('compareRuns', () => {
  const bm25 = runOf({ q1: [['a', 3], ['b', 2], ['c', 1]], q2: [['x', 1]], q3: [['m', 2]] });
  const dense = runOf({ q1: [['a', 0.9], ['c', 0.8], ['b', 0.7]], q2: [['y', 1]] });

  it('gives Jaccard and RBO per query and their means', () => {
    const overlap = compareRuns(bm25, dense);
    expect(overlap.perQuery.map((q) => q.qid)).toEqual(['q1', 'q2', 'q3']);
    // q1: same set (1) and RBO 0.955 as above; q2: disjoint (0, 0); q3 only in bm25: (0, 0).
    expect(overlap.perQuery[0]!.jaccard).toBe(1);
    expect(overlap.perQuery[0]!.rbo).toBeCloseTo(0.955, 12);
    expect(overlap.perQuery.slice(1).map((q) => [q.jaccard, q.rbo])).toEqual([
      [0, 0],
      [0, 0],
    ]);
    expect(overlap.meanJaccard).toBeCloseTo(1 / 3, 12);
    expect(overlap.meanRbo).toBeCloseTo(0.955 / 3, 12);
  });

  it('cuts both runs at the depth and restricts to the queries asked for', () => {
    // top 1 of q1: a vs a → 1 and 1
    const overlap = compareRuns(bm25, dense, { depth: 1, queryIds: ['q1', 'q9'] });
    expect(overlap.perQuery).toEqual([
      { qid: 'q1', jaccard: 1, rbo: expect.closeTo(1, 12) as number },
      { qid: 'q9', jaccard: 1, rbo: 1 },
    ]);
    expect(() => compareRuns(bm25, dense, { depth: 0 })).toThrow(RangeError);
  });

  it('is 0 for no queries', () => {
    expect(compareRuns(new Map(), new Map())).toEqual({ perQuery: [], meanJaccard: 0, meanRbo: 0 });
  });
});
