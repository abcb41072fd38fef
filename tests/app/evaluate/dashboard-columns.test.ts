import { describe, expect, it } from 'vitest';
import { bestOf, comparisonsWith, dashboardColumns } from '../../../src/app/evaluate/dashboard-columns.ts';
import type { ColumnEvaluation, ColumnResult } from '../../../src/app/evaluate/evaluations.svelte.ts';
import { summarizeLatency } from '../../../src/lib/eval/latency.ts';
import { evaluateRunReport } from '../../../src/lib/eval/run-report.ts';
import { defaultRetriever, type ColumnConfig } from '../../../src/lib/retrievers/config.ts';
import { qrelsOf, runOf } from '../../lib/eval/fixtures.ts';
import { settingsKey } from '../../../src/lib/settings-key.ts';

const qrels = qrelsOf({ q1: { d1: 1 }, q2: { d2: 1 }, q3: { d3: 1 } });
const strong = evaluateRunReport(qrels, runOf({ q1: [['d1', 1]], q2: [['d2', 1]], q3: [['d3', 1]] }));
const weak = evaluateRunReport(qrels, runOf({ q1: [['x', 2], ['d1', 1]], q2: [['d2', 1]] }));

function evaluation(report = strong): ColumnEvaluation {
  return {
    key: 'k',
    retriever: defaultRetriever('bm25'),
    tag: 'bm25',
    report,
    queries: 3,
    missing: [],
    efficiency: { rankMs: 1, prepareMs: 0, latency: summarizeLatency([1]), queriesPerCall: 1 },
    createdAt: 0,
    fromStorage: false,
  };
}

const columns: ColumnConfig[] = [
  { id: 'a', retriever: defaultRetriever('bm25') },
  { id: 'b', retriever: defaultRetriever('dense') },
  { id: 'c', retriever: defaultRetriever('ledr') },
  { id: 'd', retriever: defaultRetriever('rrf') },
];

describe('dashboard columns', () => {
  const results: Record<string, ColumnResult> = {
    a: { status: 'fresh', evaluation: evaluation(weak) },
    b: { status: 'fresh', evaluation: evaluation(strong) },
    // Stale: its numbers belong to earlier settings, so they neither win nor are tested.
    c: { status: 'stale', evaluation: evaluation(strong) },
    d: { status: 'none' },
  };
  const view = dashboardColumns(columns, (column) => results[column.id]!);

  it('labels columns by position and retriever, with a report only for fresh results', () => {
    expect(view.map((c) => c.label)).toEqual(['1 · BM25 (k1 0.9, b 0.4)', '2 · Dense: glove-100d-sif', '3 · LEDR (K 1000)', '4 · RRF (k 60)']);
    expect(view.map((c) => c.report !== undefined)).toEqual([true, true, false, false]);
  });

  it('marks the best of the fresh columns', () => {
    expect(bestOf(view).ndcg_cut_10).toEqual([1]);
  });

  it('compares each other fresh column with the baseline, Bonferroni m counting those columns', () => {
    const comparisons = comparisonsWith(view, 0, 'bonferroni');
    expect([...comparisons.keys()]).toEqual([1]);
    expect(comparisons.get(1)!.comparisons).toBe(1);
    expect(comparisons.get(1)!.threshold).toBe(0.05);
    const withThird = dashboardColumns(columns, (column) => (column.id === 'c' ? { status: 'fresh', evaluation: evaluation(weak) } : results[column.id]!));
    const three = comparisonsWith(withThird, 0, 'bonferroni');
    expect([...three.keys()]).toEqual([1, 2]);
    expect(three.get(2)!.threshold).toBeCloseTo(0.025, 15);
    // A baseline without a fresh result compares nothing.
    expect(comparisonsWith(view, 3, 'none').size).toBe(0);
  });
});

describe('judged-only mode', () => {
  it('shows the condensed report of a result (fresh or stale) and keeps judged@10 of the full run', () => {
    const withCondensed = (report: typeof strong, condensed: typeof strong): ColumnEvaluation => ({
      ...evaluation(report),
      condensedReport: condensed,
      judged: { k: 10, perQuery: [{ qid: 'q1', judged: 0.1 }], mean: 0.1 },
    });
    const results: Record<string, ColumnResult> = {
      a: { status: 'fresh', evaluation: withCondensed(weak, strong) },
      b: { status: 'stale', evaluation: withCondensed(weak, strong) },
      c: { status: 'none' },
      d: { status: 'none' },
    };
    const all = dashboardColumns(columns, (column) => results[column.id]!);
    const judgedOnly = dashboardColumns(columns, (column) => results[column.id]!, 'judged-only');
    expect(all[0]!.report).toBe(weak);
    expect(judgedOnly[0]!.report).toBe(strong);
    expect(judgedOnly[1]!.report).toBeUndefined();
    expect(judgedOnly[1]!.shown).toBe(strong);
    expect(all[1]!.shown).toBe(weak);
    expect(judgedOnly[0]!.judged?.mean).toBe(0.1);
    expect(judgedOnly[2]!.shown).toBeUndefined();
  });
});

describe('a tuned column', () => {
  const tunedRetriever = { ...defaultRetriever('bm25'), bm25: { ...defaultRetriever('bm25').bm25, k1: 1.1 } };
  const tuned = { split: 'train', metric: 'nDCG@10', settings: settingsKey(tunedRetriever) };

  it('names the split that tuned it while its settings are the tuned ones', () => {
    const [column] = dashboardColumns([{ id: 't', retriever: tunedRetriever, tuned }], () => ({ status: 'none' }));
    expect(column!.label).toBe('1 · BM25 (k1 1.1, b 0.4) · tuned on train (nDCG@10)');
  });

  it('is a plain column once its settings are edited', () => {
    const [column] = dashboardColumns([{ id: 't', retriever: { ...tunedRetriever, bm25: { ...tunedRetriever.bm25, b: 0.5 } }, tuned }], () => ({ status: 'none' }));
    expect(column!.label).toBe('1 · BM25 (k1 1.1, b 0.5)');
  });
});

describe('a held-out share of the split (Augmented BM25 trained on the rest)', () => {
  const part = qrelsOf({ q1: { d1: 1 }, q2: { d2: 1 } });
  const heldOut: ColumnEvaluation = {
    ...evaluation(evaluateRunReport(part, runOf({ q1: [['d1', 1]], q2: [['d2', 1]] }))),
    heldOut: { note: 'the 2 queries of test held out from training (share 0.3, seed 1)', splitQueriesKey: 'k' },
  };
  const view = dashboardColumns(columns.slice(0, 2), (column) => (column.id === 'a' ? { status: 'fresh', evaluation: evaluation(weak) } : { status: 'fresh', evaluation: heldOut }));

  it('is neither tested against the baseline nor ranked best: its figures are of other queries', () => {
    expect(view[1]!.report).toBeDefined();
    expect([...comparisonsWith(view, 0, 'none').keys()]).toEqual([]);
    expect(bestOf(view).ndcg_cut_10).not.toContain(1);
  });
});
