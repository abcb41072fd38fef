import { describe, expect, it } from 'vitest';
import { overlapMatrix, pairOf } from '../../../src/lib/run-analysis/overlap-matrix.ts';
import { runOf } from '../eval/fixtures.ts';

describe('overlapMatrix', () => {
  // Three runs over two queries (hand-computed below, depth 3, p = 0.9).
  const x = runOf({ q1: [['a', 3], ['b', 2], ['c', 1]], q2: [['d', 3], ['e', 2], ['f', 1]] });
  const y = runOf({ q1: [['a', 3], ['c', 2], ['b', 1]], q2: [['g', 3], ['h', 2], ['i', 1]] });
  const z = runOf({ q1: [['a', 3], ['b', 2], ['c', 1]] });

  const matrix = overlapMatrix([x, y, z], { depth: 3 });

  it('holds each unordered pair once, in order', () => {
    expect(matrix.size).toBe(3);
    expect(matrix.pairs.map((p) => [p.a, p.b])).toEqual([[0, 1], [0, 2], [1, 2]]);
    expect(pairOf(matrix, 2, 0)).toBe(matrix.pairs[1]);
    expect(pairOf(matrix, 1, 1)).toBeUndefined();
  });

  it('x vs y: q1 same set in another order, q2 disjoint', () => {
    // q1: Jaccard 3/3 = 1; RBO of a b c vs a c b = 0.955 (overlap.test.ts works it out). q2: 0 and 0.
    const { overlap } = pairOf(matrix, 0, 1)!;
    expect(overlap.perQuery.map((q) => q.qid)).toEqual(['q1', 'q2']);
    expect(overlap.perQuery[0]!.jaccard).toBe(1);
    expect(overlap.perQuery[0]!.rbo).toBeCloseTo(0.955, 12);
    expect(overlap.perQuery[1]).toEqual({ qid: 'q2', jaccard: 0, rbo: 0 });
    expect(overlap.meanJaccard).toBe(0.5);
    expect(overlap.meanRbo).toBeCloseTo(0.4775, 12);
  });

  it('x vs z: identical on q1; z lacks q2, which counts as an empty ranking (0)', () => {
    const { overlap } = pairOf(matrix, 0, 2)!;
    expect(overlap.perQuery.map((q) => [q.qid, q.jaccard])).toEqual([['q1', 1], ['q2', 0]]);
    expect(overlap.perQuery[0]!.rbo).toBeCloseTo(1, 12);
    expect(overlap.meanJaccard).toBe(0.5);
  });

  it('compares only the queries given (e.g. the judged ones)', () => {
    const onlyQ1 = overlapMatrix([x, y, z], { depth: 3, queryIds: ['q1'] });
    expect(onlyQ1.pairs.every((p) => p.overlap.perQuery.length === 1)).toBe(true);
    expect(pairOf(onlyQ1, 1, 2)!.overlap.meanJaccard).toBe(1);
  });

  it('depth cuts the rankings: at depth 1 x and y agree on q1 and not on q2', () => {
    const shallow = overlapMatrix([x, y], { depth: 1 });
    expect(shallow.pairs[0]!.overlap.perQuery.map((q) => [q.jaccard, q.rbo])).toEqual([[1, 1], [0, 0]]);
  });
});
