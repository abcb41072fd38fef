import { describe, expect, it } from 'vitest';
import { fnv1a, poolDocuments, poolProgress } from '../../../src/lib/judging/pool.ts';

const ids = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}${i + 1}`);
const sorted = (list: readonly string[]) => [...list].sort();

describe('poolDocuments (depth-k pooling)', () => {
  const bm25 = ['a', 'b', 'c', 'd', 'e'];
  const dense = ['c', 'f', 'a', 'g', 'h'];
  const options = { collection: 'scifact', queryId: 'q1' };

  it('is the union of the top k of every ranking, each document once', () => {
    // top 2: {a, b} ∪ {c, f}; top 3: {a, b, c} ∪ {c, f, a} = {a, b, c, f}
    expect(sorted(poolDocuments([bm25, dense], { ...options, depth: 2 }))).toEqual(['a', 'b', 'c', 'f']);
    expect(sorted(poolDocuments([bm25, dense], { ...options, depth: 3 }))).toEqual(['a', 'b', 'c', 'f']);
    expect(sorted(poolDocuments([bm25, dense], { ...options, depth: 4 }))).toEqual(['a', 'b', 'c', 'd', 'f', 'g']);
  });

  it('takes the top 10 by default and copes with rankings shorter than k or empty', () => {
    const long = ids('d', 25);
    expect(sorted(poolDocuments([long], options))).toEqual(sorted(long.slice(0, 10)));
    expect(sorted(poolDocuments([['x'], [], long.slice(0, 3)], options))).toEqual(['d1', 'd2', 'd3', 'x']);
    expect(poolDocuments([], options)).toEqual([]);
    expect(poolDocuments([long], { ...options, depth: 0 })).toEqual([]);
  });

  it('refuses a depth that is not a non-negative integer', () => {
    expect(() => poolDocuments([bm25], { ...options, depth: -1 })).toThrow(RangeError);
    expect(() => poolDocuments([bm25], { ...options, depth: 2.5 })).toThrow(RangeError);
  });

  it('gives the same order on every call and whatever the order of the rankings', () => {
    const first = poolDocuments([bm25, dense], options);
    expect(poolDocuments([bm25, dense], options)).toEqual(first);
    expect(poolDocuments([dense, bm25], options)).toEqual(first);
  });

  it('shuffles differently per query and per collection', () => {
    const ranking = ids('d', 20);
    const order = (collection: string, queryId: string) => poolDocuments([ranking], { collection, queryId, depth: 20 });
    expect(order('c', 'q1')).not.toEqual(order('c', 'q2'));
    expect(order('c', 'q1')).not.toEqual(order('other', 'q1'));
    expect(order('c', 'q1')).not.toEqual(ranking);
    expect(sorted(order('c', 'q1'))).toEqual(sorted(ranking));
  });

  it('keeps the relative order of pooled documents when the pool grows', () => {
    const small = poolDocuments([bm25], { ...options, depth: 3 });
    const grown = poolDocuments([bm25, dense], { ...options, depth: 5 });
    expect(grown.filter((docId) => small.includes(docId))).toEqual(small);
  });

  it('hides the rank: the document ranked first lands on every position about equally often', () => {
    // 2,000 queries, one ranking of 10 documents each: where does rank 1 end up? Each position expects
    // 200 (binomial sd ≈ 13.4); a bias towards the top would show as a heavy position 0.
    const counts = new Array<number>(10).fill(0);
    const ranking = ids('doc', 10);
    for (let q = 0; q < 2000; q++) {
      const pool = poolDocuments([ranking], { collection: 'c', queryId: `q${q}` });
      counts[pool.indexOf('doc1')]!++;
    }
    for (const count of counts) expect(count).toBeGreaterThan(130);
    for (const count of counts) expect(count).toBeLessThan(270);
  });
});

describe('fnv1a', () => {
  it('matches the FNV-1a 32-bit reference values', () => {
    // Reference values from the FNV test suite (isthe.com/chongo/tech/comp/fnv): "" and "a", "foobar".
    expect(fnv1a('')).toBe(0x811c9dc5);
    expect(fnv1a('a')).toBe(0xe40c292c);
    expect(fnv1a('foobar')).toBe(0xbf9cf968);
  });
});


describe('poolProgress', () => {
  it('counts judged pool documents, any grade', () => {
    expect(poolProgress(['a', 'b', 'c'], new Map([['a', 0], ['c', 3], ['z', 1]]))).toEqual({ judged: 2, total: 3 });
    expect(poolProgress(['a'], undefined)).toEqual({ judged: 0, total: 1 });
  });
});
