import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ledrCandidateRows, ledrCandidates, lexiconEnhancedDense, lexiconEnhancedDenseHits, lexiconEnhancedDenseRows } from '../../../src/lib/fusion/ledr.ts';
import { hitsOf } from '../../../src/lib/hits/row-ranking.ts';
import type { Hit } from '../../../src/lib/types.ts';
import { rankingArbitrary } from './rankings.ts';

const bm25: Hit[] = [
  { docId: 'a', score: 10 },
  { docId: 'b', score: 8 },
  { docId: 'c', score: 6 },
];
const dense = new Map([
  ['a', 0.1],
  ['b', 0.5],
  ['c', 0.9],
  ['far', 0.99],
]);

describe('lexiconEnhancedDense (LaPraDoR LEDR)', () => {
  it('multiplies dense similarity by the BM25 score (hand-checked)', () => {
    const fused = lexiconEnhancedDense(bm25, dense);
    expect(fused.map((h) => [h.docId, h.score])).toEqual([
      ['c', 0.9 * 6],
      ['b', 0.5 * 8],
      ['a', 0.1 * 10],
    ]);
    expect(fused[0]!.parts).toEqual({ bm25: 6, bm25Rank: 3, dense: 0.9 });
  });

  it('only scores the BM25 top K: documents beyond it have BM25 0', () => {
    const fused = lexiconEnhancedDense(bm25, dense, { k: 2 });
    expect(fused.map((h) => h.docId)).toEqual(['b', 'a']);
    // 'far' has the best dense score but no BM25 score: it is never a candidate.
    expect(lexiconEnhancedDense(bm25, dense).map((h) => h.docId)).not.toContain('far');
  });

  it('accepts a dense scoring function and cuts to limit', () => {
    const fused = lexiconEnhancedDense(bm25, (docId) => (docId === 'a' ? 1 : 0.5), { limit: 1 });
    expect(fused).toEqual([{ docId: 'a', score: 10, parts: { bm25: 10, bm25Rank: 1, dense: 1 } }]);
  });

  it('fails loudly when a candidate has no dense score', () => {
    expect(() => lexiconEnhancedDense(bm25, new Map([['a', 0.3]]))).toThrow(/"b"/);
    expect(() => lexiconEnhancedDense(bm25, new Float64Array([0.3]))).toThrow(/"b"/);
    expect(() => lexiconEnhancedDense(bm25, [0.3, Number.NaN, 0.1])).toThrow(/"b"/);
  });

  it('takes the similarities of the BM25 hits in their order, as the map of the same values', () => {
    expect(lexiconEnhancedDense(bm25, new Float64Array([0.1, 0.5, 0.9]))).toEqual(lexiconEnhancedDense(bm25, dense));
    expect(lexiconEnhancedDense(bm25, [0.1, 0.5, 0.9], { k: 2, limit: 1 })).toEqual(lexiconEnhancedDense(bm25, dense, { k: 2, limit: 1 }));
  });

  it('keeps the BM25 order when every dense score is the same positive number', () => {
    fc.assert(
      fc.property(rankingArbitrary({ distinctScores: true }), fc.double({ min: 0.01, max: 1, noNaN: true }), (hits, cosine) => {
        const fused = lexiconEnhancedDense(hits, () => cosine);
        expect(fused.map((h) => h.docId)).toEqual(hits.map((h) => h.docId));
        for (const hit of fused) expect(hit.score).toBe(hit.parts.dense * hit.parts.bm25);
      }),
    );
  });

  it('without parts (lexiconEnhancedDenseHits): the same documents, scores and order, ties included', () => {
    // Similarities from a few values, so fused scores tie and the id order decides.
    const similarities = fc.array(fc.constantFrom(0, 0.25, 0.5, 1, -0.5), { minLength: 12, maxLength: 12 });
    const k = fc.option(fc.integer({ min: 0, max: 14 }), { nil: undefined });
    fc.assert(
      fc.property(rankingArbitrary(), similarities, k, k, (hits, values, depth, limit) => {
        const options = { ...(depth === undefined ? {} : { k: depth }), ...(limit === undefined ? {} : { limit }) };
        const plain = lexiconEnhancedDense(hits, values, options).map(({ docId, score }) => ({ docId, score }));
        expect(lexiconEnhancedDenseHits(hits, values, options)).toEqual(plain);
      }),
    );
    expect(() => lexiconEnhancedDenseHits(bm25, [0.3])).toThrow(/"b"/);
    expect(() => lexiconEnhancedDenseHits([...bm25, bm25[0]!], [1, 1, 1, 1])).toThrow(/twice/);
  });

  it('ledrCandidateRows takes the top K of a ranking of rows as ledrCandidates does of its hits, and refuses what it refuses', () => {
    const hits = [
      { docId: 'a', score: 3 },
      { docId: 'b', score: 2 },
    ];
    const rows = { table: ['b', 'a'], rows: Uint32Array.of(1, 0), scores: Float64Array.of(3, 2) };
    for (const k of [0, 1, 2, 5, Infinity]) expect(hitsOf(ledrCandidateRows(rows, { k }))).toEqual([...ledrCandidates(hits, { k })]);
    for (const k of [2.5, -1]) {
      expect(() => ledrCandidates(hits, { k })).toThrow(/non-negative integer/);
      expect(() => ledrCandidateRows(rows, { k })).toThrow(/non-negative integer/);
    }
    expect(() => ledrCandidateRows({ ...rows, rows: Uint32Array.of(1, 1) }, {})).toThrow(/"a" twice/);
  });

  it('on rows of a table (lexiconEnhancedDenseRows, fused in a dense worker): the hits of lexiconEnhancedDenseHits', () => {
    const similarities = fc.array(fc.constantFrom(0, 0.25, 0.5, 1, -0.5), { minLength: 12, maxLength: 12 });
    const k = fc.option(fc.integer({ min: 0, max: 14 }), { nil: undefined });
    fc.assert(
      fc.property(rankingArbitrary(), similarities, k, k, (hits, values, depth, limit) => {
        // A table holding the documents in another order than the ranking, with others between them.
        const table = [...hits.map((hit) => hit.docId)].reverse().flatMap((docId) => [docId, `other-${docId}`]);
        const candidates = ledrCandidates(hits, depth === undefined ? {} : { k: depth });
        const rows = Int32Array.from(candidates, (hit) => table.indexOf(hit.docId));
        const bm25 = Float64Array.from(candidates, (hit) => hit.score);
        const fused = lexiconEnhancedDenseRows(rows, bm25, values.slice(0, candidates.length), table, limit);
        const expected = lexiconEnhancedDenseHits(hits, values, { ...(depth === undefined ? {} : { k: depth }), ...(limit === undefined ? {} : { limit }) });
        expect([...fused.rows].map((row) => table[row])).toEqual(expected.map((hit) => hit.docId));
        expect([...fused.scores]).toEqual(expected.map((hit) => hit.score));
      }),
    );
    expect(() => lexiconEnhancedDenseRows([2, 0], [8, 10], [0.5, Number.NaN], ['a', 'x', 'b'])).toThrow(/"a"/);
  });
});
