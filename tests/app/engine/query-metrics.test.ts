import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { evaluate } from '../../../src/lib/eval/evaluate.ts';
import type { Hit } from '../../../src/lib/types.ts';
import { judgedCoverage, missedRelevant, queryMetrics } from '../../../src/app/engine/query-metrics.ts';

// The Explore metrics are trec_eval's measures on a one-query run; each value must equal the per-query value
// trec_eval (src/lib/eval, equal to trec_eval 9.0.8) computes for that query inside a larger run.

const judgments = new Map([
  ['d1', 2],
  ['d2', 1],
  ['d3', 0],
  ['d9', 1],
]);

function hitsOf(ids: string[]): Hit[] {
  return ids.map((docId, i) => ({ docId, score: 100 - i }));
}

describe('queryMetrics', () => {
  it('MRR@10 is recip_rank with the ranking cut to 10: a first relevant document at 11 counts 0', () => {
    const eleventh = hitsOf([...Array.from({ length: 10 }, (_, i) => `x${i}`), 'd1']);
    const metrics = queryMetrics(judgments, eleventh);
    expect(metrics.mrr10).toBe(0);
    expect(metrics.ap).toBeCloseTo(1 / 11 / 3, 12);
    expect(queryMetrics(judgments, hitsOf(['x', 'd2'])).mrr10).toBe(0.5);
  });

  it('equals the per-query values of trec_eval on a larger run (fast-check)', () => {
    const doc = fc.constantFrom('d1', 'd2', 'd3', 'd9', 'x1', 'x2', 'x3', 'x4', 'x5', 'x6', 'x7', 'x8', 'x9', 'x10', 'x11', 'x12');
    fc.assert(
      fc.property(fc.uniqueArray(doc, { maxLength: 16 }), (ids) => {
        const hits = hitsOf(ids);
        const qrels = new Map([
          ['q', judgments],
          ['other', new Map([['d1', 1]])],
        ]);
        const run = new Map([
          ['q', hits],
          ['other', hitsOf(['d1'])],
        ]);
        const all = evaluate(qrels, run, { measures: ['ndcg_cut.10', 'recall.100', 'map'], complete: true }).queries.find((q) => q.qid === 'q');
        const cut = evaluate(qrels, run, { measures: ['recip_rank'], complete: true, maxDocs: 10 }).queries.find((q) => q.qid === 'q');
        const metrics = queryMetrics(judgments, hits);
        expect(metrics.ndcg10).toBe(all?.values['ndcg_cut_10'] ?? 0);
        expect(metrics.recall100).toBe(all?.values['recall_100'] ?? 0);
        expect(metrics.ap).toBe(all?.values['map'] ?? 0);
        expect(metrics.mrr10).toBe(cut?.values['recip_rank'] ?? 0);
      }),
    );
  });

  it('computes a ranking under the same judgments once (the baseline of every other column), and again under new ones', () => {
    const hits = hitsOf(['x', 'd2', 'd1']);
    const first = queryMetrics(judgments, hits);
    expect(queryMetrics(judgments, hits)).toBe(first);
    // A judgment made in the page replaces the map (collection/open-collection.svelte.ts, applyJudgment).
    const judged = new Map([...judgments, ['x', 2]]);
    const after = queryMetrics(judged, hits);
    expect(after).not.toBe(first);
    expect(after.mrr10).toBe(1);
    expect(first.mrr10).toBe(0.5);
    expect(queryMetrics(judgments, hitsOf(['x', 'd2', 'd1']))).toEqual(first);
  });

  it('lists relevant documents outside the top k with their rank, best grade first', () => {
    const hits = hitsOf([...Array.from({ length: 10 }, (_, i) => `x${i}`), 'd2', 'd1']);
    expect(missedRelevant(judgments, hits, 10)).toEqual([
      { docId: 'd1', grade: 2, rank: 12 },
      { docId: 'd2', grade: 1, rank: 11 },
      { docId: 'd9', grade: 1, rank: null },
    ]);
    expect(missedRelevant(judgments, hitsOf(['d1', 'd2', 'd9']), 10)).toEqual([]);
  });
});

describe('judgedCoverage', () => {
  it('judged@10 counts judged documents of any grade over 10, and lists the unjudged ones by shown rank', () => {
    // top 10: d1 (2) x1 d3 (0) x2 d2 (1) x3 x4 x5 x6 x7 → judged d1, d3, d2 = 3 → 0.3; d9 at 11 is not in the top 10
    const hits = hitsOf(['d1', 'x1', 'd3', 'x2', 'd2', 'x3', 'x4', 'x5', 'x6', 'x7', 'd9']);
    const coverage = judgedCoverage(judgments, hits);
    expect(coverage.judged).toBeCloseTo(0.3, 12);
    expect(coverage.unjudged).toEqual([
      { docId: 'x1', rank: 2 },
      { docId: 'x2', rank: 4 },
      { docId: 'x3', rank: 6 },
      { docId: 'x4', rank: 7 },
      { docId: 'x5', rank: 8 },
      { docId: 'x6', rank: 9 },
      { docId: 'x7', rank: 10 },
    ]);
  });

  it('divides by k even when fewer documents are ranked, and equals the dashboard measure (judged.10)', () => {
    const hits = hitsOf(['d1', 'd2', 'x1']);
    expect(judgedCoverage(judgments, hits).judged).toBeCloseTo(0.2, 12);
    const all = evaluate(new Map([['q', judgments]]), new Map([['q', hits]]), { measures: ['judged.10'], complete: true }).all;
    expect(judgedCoverage(judgments, hits).judged).toBe(all['judged_10']);
    expect(judgedCoverage(judgments, []).judged).toBe(0);
    expect(judgedCoverage(judgments, hits, 2)).toEqual({ k: 2, judged: 1, unjudged: [] });
  });
});
