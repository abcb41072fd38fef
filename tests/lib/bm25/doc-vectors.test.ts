/**
 * Term vectors and collection frequencies read back from the inverted index (src/lib/bm25/doc-vectors.ts):
 * by hand on 3 documents, and on SciFact against the analyzed documents themselves.
 */
import { describe, expect, it } from 'vitest';
import { buildBm25Index, termOrdinal } from '../../../src/lib/bm25/bm25-index.ts';
import { collectionFreq, docTermVector } from '../../../src/lib/bm25/doc-vectors.ts';
import { analyzedSciFact } from '../bm25-wasm/fixtures.ts';

describe('document term vectors', () => {
  it('lists each document\'s terms with their frequencies, in term-ordinal order', () => {
    // Ordinals by first appearance: alpha 0, beta 1, gamma 2, delta 3.
    const index = buildBm25Index([
      { id: 'd1', terms: ['alpha', 'beta'] },
      { id: 'd2', terms: ['gamma', 'alpha', 'gamma'] },
      { id: 'd3', terms: [] },
      { id: 'd4', terms: ['delta', 'beta', 'delta', 'delta'] },
    ]);
    expect(docTermVector(index, 0)).toEqual([{ term: 'alpha', tf: 1 }, { term: 'beta', tf: 1 }]);
    expect(docTermVector(index, 1)).toEqual([{ term: 'alpha', tf: 1 }, { term: 'gamma', tf: 2 }]);
    expect(docTermVector(index, 2)).toEqual([]);
    expect(docTermVector(index, 3)).toEqual([{ term: 'beta', tf: 1 }, { term: 'delta', tf: 3 }]);
    expect(() => docTermVector(index, 4)).toThrow(RangeError);
    // alpha 1 + 1, gamma 2, delta 3; an unknown term 0.
    expect(collectionFreq(index, termOrdinal(index, 'alpha'))).toBe(2);
    expect(collectionFreq(index, termOrdinal(index, 'gamma'))).toBe(2);
    expect(collectionFreq(index, termOrdinal(index, 'delta'))).toBe(3);
    expect(collectionFreq(index, termOrdinal(index, 'nothing'))).toBe(0);
  });

  it('gives back every SciFact document\'s bag of terms', async () => {
    const { docs } = await analyzedSciFact();
    const index = buildBm25Index(docs);
    const totals = new Map<string, number>();
    docs.forEach((doc, i) => {
      const bag = new Map<string, number>();
      for (const term of doc.terms) bag.set(term, (bag.get(term) ?? 0) + 1);
      for (const term of doc.terms) totals.set(term, (totals.get(term) ?? 0) + 1);
      const vector = docTermVector(index, i);
      expect(new Map(vector.map(({ term, tf }) => [term, tf]))).toEqual(bag);
      expect(vector).toHaveLength(bag.size);
    });
    for (const [term, total] of totals) expect(collectionFreq(index, termOrdinal(index, term))).toBe(total);
  }, 120_000);
});
