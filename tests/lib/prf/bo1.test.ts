/**
 * Bo1 (src/lib/prf/bo1.ts) against numbers worked out by hand (log2 values to 7 decimals), on a fake index
 * with hand-set statistics: N = 10 documents, 100 tokens (avgdl 10).
 *
 *   d1: a×2, x×1, y×3      d2: a×1, x×2      d3: x×1, z×4        (first pass: d1, d2, d3)
 *   collection frequencies F: a 10, x 5, y 30, z 2
 */
import { describe, expect, it } from 'vitest';
import { englishAnalyzer } from '../../../src/lib/analysis/english-analyzer.ts';
import { indexCorpus } from '../../../src/lib/bm25/bm25-corpus.ts';
import { bagOfTerms } from '../../../src/lib/bm25/bm25-query.ts';
import { bo1ParameterFreeNormaliser, bo1Score, searchBo1 } from '../../../src/lib/prf/bo1.ts';
import { bm25FeedbackIndex } from '../../../src/lib/prf/feedback-index.ts';
import { fakeFeedbackIndex, tf } from './fake-feedback-index.ts';

function corpus() {
  return fakeFeedbackIndex({
    numDocs: 10,
    numTokens: 100,
    ranking: [
      { docId: 'd1', score: 3 },
      { docId: 'd2', score: 2 },
      { docId: 'd3', score: 1 },
      { docId: 'd4', score: 0.5 },
    ],
    vectors: {
      d1: [tf('a', 2), tf('x', 1), tf('y', 3)],
      d2: [tf('a', 1), tf('x', 2)],
      d3: [tf('x', 1), tf('z', 4)],
      d4: [tf('far', 1)],
    },
    collectionFreqs: { a: 10, x: 5, y: 30, z: 2 },
  });
}

const weights = (terms: { term: string; weight: number }[]) => Object.fromEntries(terms.map(({ term, weight }) => [term, weight]));

describe('Bo1 as Terrier computes it', () => {
  it('scores with f = F / N and log base 2, and normalises parameter-free', () => {
    // a: tfx 3, F 10 → f 1: 3·log2(2) + log2(2) = 4.
    expect(bo1Score(3, 10, 10)).toBeCloseTo(4, 12);
    // x: tfx 4, F 5 → f 0.5: 4·log2(3) + log2(1.5) = 4·1.5849625 + 0.5849625 = 6.9248125.
    expect(bo1Score(4, 5, 10)).toBeCloseTo(6.9248125, 6);
    // Normaliser for tfx_max 4, N = 100 / (100 / 10) = 10: f' = 0.4, 4·log2(3.5) + log2(1.4)
    // = 4·1.8073549 + 0.4854268 = 7.7148465.
    expect(bo1ParameterFreeNormaliser(4, 100, 10)).toBeCloseTo(7.7148465, 6);
  });

  it('defaults (10 terms, 3 documents): y and z occur in one feedback document only and weigh 0', () => {
    // Bag of d1..d3: a tfx 3 in 2 docs, x tfx 4 in 3 docs, y tfx 3 in 1 doc, z tfx 4 in 1 doc.
    // y, z: fewer than 2 feedback documents and not query terms → 0. a = 4, x = 6.9248125 (the heaviest,
    // tfx 4) → normaliser 7.7148465: a 0.5184808, x 0.8975956.
    // max(10, 1 query term) = 10 terms chosen: x, a, then y and z at 0 (new terms of weight 0 are not added).
    // Query a (weight 1) → a 1 + 0.5184808 = 1.5184808; x enters with 0.8975956.
    const index = corpus();
    const result = searchBo1(index, bagOfTerms(['a']));
    expect(result.feedbackDocIds).toEqual(['d1', 'd2', 'd3']);
    expect(result.expanded.map((t) => t.term)).toEqual(['a', 'x']);
    const w = weights(result.expanded);
    expect(w.a).toBeCloseTo(1.5184808, 6);
    expect(w.x).toBeCloseTo(0.8975956, 6);
    expect(index.queries[0]).toEqual([{ term: 'a', weight: 1 }]);
    expect(index.queries[1]).toEqual(result.expanded);
  });

  it('fbTerms 1 chooses the heaviest term only; a query term not chosen keeps its weight', () => {
    const w = weights(searchBo1(corpus(), bagOfTerms(['a', 'a']), { fbTerms: 1 }).expanded);
    // max(1, 1 distinct query term) = 1: x only. a keeps its count, 2.
    expect(w).toEqual({ a: 2, x: Math.fround(0.8975956280895825) });
  });

  it('with one feedback document the 2-document rule is off', () => {
    // d1 alone: a tfx 2 → 2·1 + 1 = 3; x tfx 1 → log2(3) + log2(1.5) = 2.1699250; y tfx 3, F 30 → f 3:
    // 3·log2(4/3) + log2(4) = 3·0.4150375 + 2 = 3.2451125 (the heaviest, tfx 3).
    // Normaliser: f' = 3/10: 3·log2(1.3/0.3) + log2(1.3) = 6.7249433.
    // a 1 + 3/6.7249433 = 1.4461004, y 0.4825487, x 0.3226681.
    const result = searchBo1(corpus(), bagOfTerms(['a']), { fbDocs: 1 });
    expect(result.expanded.map((t) => t.term)).toEqual(['a', 'y', 'x']);
    const w = weights(result.expanded);
    expect(w.a).toBeCloseTo(1.4461004, 6);
    expect(w.y).toBeCloseTo(0.4825487, 6);
    expect(w.x).toBeCloseTo(0.3226681, 6);
  });

  it('fbTerms 0 re-weights the query terms only (Terrier conservative expansion)', () => {
    const w = weights(searchBo1(corpus(), bagOfTerms(['a', 'nowhere']), { fbTerms: 0 }).expanded);
    // a 1 + 0.5184808; nowhere is in no feedback document: + 0.
    expect(Object.keys(w).sort()).toEqual(['a', 'nowhere']);
    expect(w.a).toBeCloseTo(1.5184808, 6);
    expect(w.nowhere).toBe(1);
  });

  it('runs on a real 5-document index and ranks with the expanded query', () => {
    const docs = [
      { id: 'd1', title: '', text: 'solar panel energy panel' },
      { id: 'd2', title: '', text: 'solar energy storage' },
      { id: 'd3', title: '', text: 'wind energy turbine' },
      { id: 'd4', title: '', text: 'battery storage cells' },
      { id: 'd5', title: '', text: 'garden flowers' },
    ];
    const index = indexCorpus(docs, englishAnalyzer());
    const result = searchBo1(bm25FeedbackIndex(index), bagOfTerms(['solar']), { fbDocs: 2 });
    // Feedback d1, d2 (the only documents with "solar"). Bag: solar 2 (2 docs), panel 2 (1 doc: 0),
    // energi 2 (2 docs), storag 1 (1 doc: 0). N 5, F: solar 2, energi 3. solar: f 0.4, 2·log2(3.5) +
    // log2(1.4) = 3.6147098 + 0.4854268 = 4.1001366; energi: f 0.6, 2·log2(8/3) + log2(1.6) = 3.5081469. Normaliser (tfx 2,
    // N = 13 / (13 / 5) = 5): 4.1001366. solar 1 + 1 = 2, energi 3.5081469 / 4.1001366 = 0.8556171.
    expect(result.expanded.map((t) => t.term)).toEqual(['solar', 'energi']);
    expect(result.expanded[0]!.weight).toBe(2);
    expect(result.expanded[1]!.weight).toBeCloseTo(0.8556171, 6);
    // d1 and d2 both hold solar and energi; d2 is shorter, so it leads. The expansion brings in d3 (energy)
    // but not d4 (storage weighed 0) or d5.
    expect(result.hits.map((h) => h.docId)).toEqual(['d2', 'd1', 'd3']);
  });
});
