/**
 * RM3 (src/lib/prf/rm3.ts) against numbers worked out by hand, on a fake index with hand-set statistics
 * (100 documents, so the 10 % document-frequency cut-off can be placed), and on a real 4-document index.
 */
import { describe, expect, it } from 'vitest';
import { englishAnalyzer } from '../../../src/lib/analysis/english-analyzer.ts';
import { indexCorpus } from '../../../src/lib/bm25/bm25-corpus.ts';
import { bagOfTerms } from '../../../src/lib/bm25/bm25-query.ts';
import { searchBm25 } from '../../../src/lib/bm25/bm25-search.ts';
import { bm25FeedbackIndex } from '../../../src/lib/prf/feedback-index.ts';
import { rm3FeedbackTerms, searchRm3 } from '../../../src/lib/prf/rm3.ts';
import { fakeFeedbackIndex, tf } from './fake-feedback-index.ts';

/**
 * Query "aa bb" → query vector aa 0.5, bb 0.5. First pass: d1 (score 2), d2 (score 1).
 *   d1: aa×3, xx×2, edge×2, yy×1, Z1×5 (not [a-z0-9]), q×4 (1 character), common×6 (df 11 of 100 > 10 %);
 *       edge has df 10 of 100: (float) 0.1 is not > 0.1f, so it stays.
 *   d2: bb×1, xx×1, ww×2.
 */
function corpus() {
  return fakeFeedbackIndex({
    numDocs: 100,
    numTokens: 1000,
    ranking: [
      { docId: 'd1', score: 2 },
      { docId: 'd2', score: 1 },
      { docId: 'd3', score: 0.5 },
    ],
    vectors: {
      d1: [tf('Z1', 5), tf('aa', 3), tf('common', 6), tf('edge', 2), tf('q', 4), tf('xx', 2), tf('yy', 1)],
      d2: [tf('bb', 1), tf('ww', 2), tf('xx', 1)],
      d3: [tf('never', 9)],
    },
    docFreqs: { common: 11, edge: 10 },
  });
}

const weights = (terms: { term: string; weight: number }[]) => Object.fromEntries(terms.map(({ term, weight }) => [term, weight]));

describe('RM3 as Anserini computes it', () => {
  it('fbTerms 2: prunes each document vector and the model to 2 terms, ties in Java hash order', () => {
    // d1 keeps aa 3, edge 2, xx 2, yy 1 → top 2: aa 3, then edge/xx tie at 2: fastutil's map (32 slots)
    // iterates yy, edge, aa, xx, so edge comes first. L1 norm 5.
    // d2 keeps bb 1, ww 2, xx 1 → top 2: ww 2, then the bb/xx tie → bb (iteration order bb, ww, xx). L1 norm 3.
    // Model: aa = 3/5·2 = 1.2, edge = 2/5·2 = 0.8, ww = 2/3·1 = 0.667, bb = 1/3·1 = 0.333 → top 2: aa, edge;
    // L1 2.0 → aa 0.6, edge 0.4.
    // Interpolation (0.5): aa = 0.5·0.5 + 0.5·0.6 = 0.55, bb = 0.5·0.5 = 0.25, edge = 0.5·0.4 = 0.2.
    const index = corpus();
    const result = searchRm3(index, bagOfTerms(['aa', 'bb']), { fbDocs: 2, fbTerms: 2 });
    expect(result.feedbackDocIds).toEqual(['d1', 'd2']);
    expect(result.expanded.map((t) => t.term)).toEqual(['aa', 'bb', 'edge']);
    const w = weights(result.expanded);
    expect(w.aa).toBeCloseTo(0.55, 6);
    expect(w.bb).toBeCloseTo(0.25, 6);
    expect(w.edge).toBeCloseTo(0.2, 6);
    for (const { weight } of result.expanded) expect(Math.fround(weight)).toBe(weight);
    // First pass with the plain query at depth fbDocs, second pass with the expanded query.
    expect(index.queries).toHaveLength(2);
    expect(index.queries[0]).toEqual([{ term: 'aa', weight: 1 }, { term: 'bb', weight: 1 }]);
    expect(index.queries[1]).toEqual(result.expanded);
    expect(result.hits.map((h) => h.docId)).toEqual(['d1', 'd2', 'd3']);
  });

  it('defaults (fbTerms 10, fbDocs 10, weight 0.5): the whole feedback vocabulary', () => {
    // d1: aa 3, xx 2, edge 2, yy 1 (norm 8); d2: bb 1, ww 2, xx 1 (norm 4); d3: never 9 (norm 9, score 0.5).
    // Model: aa = 3/8·2 = 0.75, xx = 2/8·2 + 1/4·1 = 0.75, edge = 0.5, ww = 0.5, yy = 0.25, bb = 0.25,
    // never = 1·0.5 = 0.5; sum 3.5 → aa, xx 0.2142857; edge, ww, never 0.1428571; yy, bb 0.0714286.
    // Only 7 terms, so fbTerms 10 keeps all. Interpolation: aa = 0.25 + 0.5·0.2142857 = 0.3571429,
    // bb = 0.25 + 0.0357143 = 0.2857143, xx = 0.1071429, edge = ww = never = 0.0714286, yy = 0.0357143.
    const result = searchRm3(corpus(), bagOfTerms(['aa', 'bb']));
    expect(result.feedbackDocIds).toEqual(['d1', 'd2', 'd3']);
    const w = weights(result.expanded);
    expect(Object.keys(w).sort()).toEqual(['aa', 'bb', 'edge', 'never', 'ww', 'xx', 'yy']);
    expect(w.aa).toBeCloseTo(0.3571429, 6);
    expect(w.bb).toBeCloseTo(0.2857143, 6);
    expect(w.xx).toBeCloseTo(0.1071429, 6);
    expect(w.edge).toBeCloseTo(0.0714286, 6);
    expect(w.ww).toBeCloseTo(0.0714286, 6);
    expect(w.never).toBeCloseTo(0.0714286, 6);
    expect(w.yy).toBeCloseTo(0.0357143, 6);
    expect(result.expanded.reduce((sum, t) => sum + t.weight, 0)).toBeCloseTo(1, 6);
  });

  it('the English filter drops short, long and non-[a-z0-9] terms only when filterTerms is on', () => {
    const index = corpus();
    const d1 = index.termVector('d1')!;
    const kept = (terms: typeof d1, filterTerms: boolean) => rm3FeedbackTerms(index, terms, filterTerms).map(({ term }) => term).sort();
    expect(kept(d1, true)).toEqual(['aa', 'edge', 'xx', 'yy']);
    // Without the filter, Z1 and q come in; common stays out (df cut-off).
    expect(kept(d1, false)).toEqual(['Z1', 'aa', 'edge', 'q', 'xx', 'yy']);
    expect(kept([tf('a'.repeat(20), 1), tf('b'.repeat(21), 1)], true)).toEqual(['a'.repeat(20)]);
  });

  it('originalQueryWeight 1 keeps the query, 0 gives the model alone', () => {
    const one = weights(searchRm3(corpus(), bagOfTerms(['aa', 'bb', 'bb']), { fbDocs: 2, fbTerms: 2, originalQueryWeight: 1 }).expanded);
    // Query vector aa 1/3, bb 2/3; model terms stay as clauses of weight 0 (Lucene scores them 0).
    expect(one.aa).toBeCloseTo(1 / 3, 6);
    expect(one.bb).toBeCloseTo(2 / 3, 6);
    expect(one.edge).toBe(0);
    const zero = weights(searchRm3(corpus(), bagOfTerms(['aa', 'bb']), { fbDocs: 2, fbTerms: 2, originalQueryWeight: 0 }).expanded);
    expect(zero.aa).toBeCloseTo(0.6, 6);
    expect(zero.edge).toBeCloseTo(0.4, 6);
    expect(zero.bb).toBe(0);
  });

  it('rejects bad parameters', () => {
    expect(() => searchRm3(corpus(), bagOfTerms(['aa']), { originalQueryWeight: 1.5 })).toThrow(RangeError);
    expect(() => searchRm3(corpus(), bagOfTerms(['aa']), { fbDocs: -1 })).toThrow(RangeError);
    expect(searchRm3(corpus(), [])).toEqual({ expanded: [], hits: [], feedbackDocIds: [] });
  });

  it('on a real 4-document index every term is in > 10 % of the documents, so the query stays as it was', () => {
    const analyzer = englishAnalyzer();
    const docs = [
      { id: 'd1', title: '', text: 'alpha beta' },
      { id: 'd2', title: '', text: 'alpha gamma gamma' },
      { id: 'd3', title: '', text: 'alpha beta delta delta' },
      { id: 'd4', title: '', text: 'epsilon' },
    ];
    const index = indexCorpus(docs, analyzer);
    const result = searchRm3(bm25FeedbackIndex(index), bagOfTerms(['beta', 'gamma']));
    // Query vector beta 0.5, gamma 0.5; empty model; the interpolation halves both: 0.25 each.
    expect(result.expanded).toEqual([{ term: 'beta', weight: 0.25 }, { term: 'gamma', weight: 0.25 }]);
    // Weights of 1/4 (a power of two) scale every score exactly, so the order is the plain query's.
    const plain = searchBm25(index, { terms: ['beta', 'gamma'] });
    expect(result.hits.map((h) => h.docId)).toEqual(plain.map((h) => h.docId));
    result.hits.forEach((hit, i) => expect(hit.score).toBe(plain[i]!.score / 4));
  });
});
