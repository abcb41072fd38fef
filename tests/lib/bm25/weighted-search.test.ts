/**
 * Weighted BM25 by hand: a 3-document index, the query `a^2 b` with the added line `+c^0.5`.
 *
 *   d1 = a b          (dl 2)      N = 3, sumTotalTermFreq = 9, avgdl = 3; k1 0.9, b 0.4
 *   d2 = a c c        (dl 3)      L(dl) = k1 · (1 − b + b · dl / avgdl): L(2) = 0.78, L(3) = 0.9, L(4) = 1.02
 *   d3 = a b d d      (dl 4)      (lengths below 24 are stored exactly in the norm byte)
 *
 *   idf(df) = ln(1 + (N − df + 0.5) / (df + 0.5))
 *     a: df 3 → ln(1 + 0.5/3.5) = ln(8/7)  = 0.1335314
 *     b: df 2 → ln(1 + 1.5/2.5) = ln(1.6)  = 0.4700036
 *     c: df 1 → ln(1 + 2.5/1.5) = ln(8/3)  = 0.9808293
 *
 *   weights: a 2, b 1, c 0.5; term score = weight · idf · tf / (tf + L)
 *     d1: a 2 · 0.1335314 · 1/1.78 = 0.1500353   b 0.4700036 · 1/1.78 = 0.2640470          sum 0.4140823
 *     d2: a 2 · 0.1335314 · 1/1.90 = 0.1405594   c 0.5 · 0.9808293 · 2/2.90 = 0.3382170    sum 0.4787763
 *     d3: a 2 · 0.1335314 · 1/2.02 = 0.1322093   b 0.4700036 · 1/2.02 = 0.2326751          sum 0.3648844
 *   ranking: d2, d1, d3.
 *   With all weights 1 (query `a b c`): d2 = 0.1335314/1.9 + 0.9808293 · 2/2.9 = 0.0702797 + 0.6764341 = 0.7467138.
 */
import { describe, expect, it } from 'vitest';
import { buildBm25Index } from '../../../src/lib/bm25/bm25-index.ts';
import { explainBm25 } from '../../../src/lib/bm25/bm25-explain.ts';
import { mergeQueryTermWeights } from '../../../src/lib/bm25/bm25-query.ts';
import { searchBm25 } from '../../../src/lib/bm25/bm25-search.ts';
import { parseWeightedQuery } from '../../../src/lib/bm25/query-syntax.ts';
import { partsFromBm25Index } from '../../../src/lib/bm25-wasm/index-parts.ts';
import { Bm25WasmIndex } from '../../../src/lib/bm25-wasm/wasm-index.ts';
import { kernelModule } from '../bm25-wasm/fixtures.ts';

const index = buildBm25Index([
  { id: 'd1', terms: ['a', 'b'] },
  { id: 'd2', terms: ['a', 'c', 'c'] },
  { id: 'd3', terms: ['a', 'b', 'd', 'd'] },
]);
/** Lower-cases and splits on non-letters: "a" stays a term (no stop words here). */
const letters = { analyze: (text: string) => text.toLowerCase().split(/[^a-z]+/).filter((t) => t !== '') };

const QUERY = 'a^2 b\n+c^0.5';
const HAND = { d1: 0.4140823, d2: 0.4787763, d3: 0.3648844 };

describe('weighted BM25 on a hand-computed 3-document index', () => {
  const weighted = parseWeightedQuery(QUERY, letters).terms;

  it('parses the query to a 2, b 1, c 0.5', () => {
    expect(weighted).toEqual([
      { term: 'a', weight: 2 },
      { term: 'b', weight: 1 },
      { term: 'c', weight: 0.5 },
    ]);
  });

  it('scores and ranks as computed by hand (TypeScript reference)', () => {
    const hits = searchBm25(index, { weighted });
    expect(hits.map((hit) => hit.docId)).toEqual(['d2', 'd1', 'd3']);
    for (const hit of hits) expect(hit.score).toBeCloseTo(HAND[hit.docId as keyof typeof HAND], 6);
  });

  it('explains each term with its weight and contribution', () => {
    const explanation = explainBm25(index, { weighted }, 'd2');
    expect(explanation.terms.map(({ term, boost, tf }) => ({ term, boost, tf }))).toEqual([
      { term: 'a', boost: 2, tf: 1 },
      { term: 'b', boost: 1, tf: 0 },
      { term: 'c', boost: 0.5, tf: 2 },
    ]);
    const [a, b, c] = explanation.terms;
    expect(a!.weight).toBeCloseTo(2 * 0.1335314, 6);
    expect(a!.contribution).toBeCloseTo(0.1405594, 6);
    expect(b!.contribution).toBe(0);
    expect(c!.weight).toBeCloseTo(0.5 * 0.9808293, 6);
    expect(c!.contribution).toBeCloseTo(0.338217, 6);
    expect(explanation.score).toBe(searchBm25(index, { weighted })[0]!.score);
  });

  it('with all weights 1 equals the plain query bit for bit, and a weight adds up over repeats', () => {
    const ones = searchBm25(index, { weighted: [{ term: 'a', weight: 1 }, { term: 'b', weight: 1 }, { term: 'c', weight: 1 }] });
    expect(ones).toEqual(searchBm25(index, { terms: ['a', 'b', 'c'] }));
    expect(ones[0]).toEqual({ docId: 'd2', score: expect.closeTo(0.7467138, 6) as number });
    // a + a^1 = a^2: the same clause as Anserini's count 2.
    expect(searchBm25(index, { weighted: [{ term: 'a', weight: 1 }, { term: 'a', weight: 1 }] })).toEqual(searchBm25(index, { terms: ['a', 'a'] }));
    expect(mergeQueryTermWeights([{ term: 'a', weight: 1.5 }, { term: 'b', weight: 0 }, { term: 'a', weight: 0.25 }])).toEqual([
      { term: 'a', weight: 1.75 },
      { term: 'b', weight: 0 },
    ]);
    expect(() => mergeQueryTermWeights([{ term: 'a', weight: -1 }])).toThrow(RangeError);
  });

  it('keeps documents that match only weight-0 terms, with score 0 (Lucene: ConstantScoreQuery boosted by 0)', () => {
    const hits = searchBm25(index, { weighted: [{ term: 'c', weight: 1 }, { term: 'd', weight: 0 }] });
    expect(hits).toEqual([
      { docId: 'd2', score: expect.closeTo(0.6764341, 6) as number },
      { docId: 'd3', score: 0 },
    ]);
  });

  it('gives the same hits and float scores in the WASM kernel', async () => {
    const wasm = Bm25WasmIndex.fromParts(await kernelModule(), partsFromBm25Index(index));
    for (const strategy of ['term-at-a-time', 'max-score'] as const) {
      expect(wasm.search({ weighted }, { strategy })).toEqual(searchBm25(index, { weighted }));
      expect(wasm.search({ weighted: [{ term: 'c', weight: 1 }, { term: 'd', weight: 0 }] }, { strategy })).toEqual(
        searchBm25(index, { weighted: [{ term: 'c', weight: 1 }, { term: 'd', weight: 0 }] }),
      );
    }
  });
});
