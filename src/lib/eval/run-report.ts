import type { Qrels } from '../types.ts';
import { evaluate } from './evaluate.ts';
import type { RankedRun } from '../hits/row-ranking.ts';

/**
 * The measures of the evaluation dashboard — BEIR's and Pyserini's table columns, as `npm run cli -- eval`
 * prints them — for one run: each value is what `trec_eval -c` prints (src/lib/eval/evaluate.ts, equal to
 * trec_eval 9.0.8), per query and over all queries.
 *
 * - nDCG@10 = `ndcg_cut.10`, R@100 = `recall.100`, MAP@100 = `map_cut.100`, P@10 = `P.10`;
 * - MRR@10 = `recip_rank` on the ranking cut to 10 documents (`trec_eval -M 10`), MS MARCO's MRR@10.
 *
 * Under `-c` every judged query is evaluated, in trec_eval's order (strcmp of the ids); a query the run has
 * no ranking for scores 0 and is averaged in. So every report on the same qrels has the same query list,
 * which is what the paired tests and per-query differences need.
 */

export type ReportMeasure = 'ndcg_cut_10' | 'recall_100' | 'map_cut_100' | 'mrr_10' | 'P_10';

export interface ReportMeasureSpec {
  key: ReportMeasure;
  /** Column heading. */
  label: string;
  /** The trec_eval measure (`-m`) it is computed with. */
  trecEval: string;
  /** The trec_eval output name of the value. */
  trecEvalName: string;
  /** `-M`: documents evaluated per query (default: the whole ranking). */
  maxDocs?: number;
  /** What it measures, for a tooltip. */
  title: string;
}

export const REPORT_MEASURES: readonly ReportMeasureSpec[] = [
  { key: 'ndcg_cut_10', label: 'nDCG@10', trecEval: 'ndcg_cut.10', trecEvalName: 'ndcg_cut_10', title: 'trec_eval ndcg_cut.10: graded gain of the top 10, normalized by the ideal ranking' },
  { key: 'recall_100', label: 'R@100', trecEval: 'recall.100', trecEvalName: 'recall_100', title: 'trec_eval recall.100: share of the relevant documents in the top 100' },
  { key: 'map_cut_100', label: 'MAP@100', trecEval: 'map_cut.100', trecEvalName: 'map_cut_100', title: 'trec_eval map_cut.100: average precision over the top 100, divided by all relevant documents' },
  { key: 'mrr_10', label: 'MRR@10', trecEval: 'recip_rank', trecEvalName: 'recip_rank', maxDocs: 10, title: 'trec_eval recip_rank with -M 10: 1 / rank of the first relevant document in the top 10, else 0' },
  { key: 'P_10', label: 'P@10', trecEval: 'P.10', trecEvalName: 'P_10', title: 'trec_eval P.10: share of relevant documents in the top 10' },
];

export const REPORT_MEASURE_KEYS: readonly ReportMeasure[] = REPORT_MEASURES.map((m) => m.key);

export function measureSpec(key: ReportMeasure): ReportMeasureSpec {
  return REPORT_MEASURES.find((m) => m.key === key)!;
}

export function isReportMeasure(value: string): value is ReportMeasure {
  return (REPORT_MEASURE_KEYS as readonly string[]).includes(value);
}

export interface RunReport {
  /** Every judged query, in trec_eval's order; the index of a query in every `perQuery` array. */
  qids: string[];
  /** Per-query values, aligned with `qids` (0 for a query the run does not rank, as under -c). */
  perQuery: Record<ReportMeasure, number[]>;
  /** trec_eval's `all` row: the mean over `qids`. */
  aggregate: Record<ReportMeasure, number>;
  /** Judged queries the run ranks at least one document for. */
  rankedQueries: number;
}

/** Evaluates a run on the dashboard's measures with `trec_eval -c` semantics. */
export function evaluateRunReport(qrels: Qrels, run: RankedRun): RunReport {
  const perQuery = {} as Record<ReportMeasure, number[]>;
  const aggregate = {} as Record<ReportMeasure, number>;
  let qids: string[] | undefined;
  let rankedQueries = 0;
  // One evaluate call per -M setting: measures sharing a cut are computed together.
  const groups = new Map<number | undefined, ReportMeasureSpec[]>();
  for (const spec of REPORT_MEASURES) groups.set(spec.maxDocs, [...(groups.get(spec.maxDocs) ?? []), spec]);
  for (const [maxDocs, specs] of groups) {
    const result = evaluate(qrels, run, {
      measures: specs.map((s) => s.trecEval),
      complete: true,
      ...(maxDocs === undefined ? {} : { maxDocs }),
    });
    qids ??= result.queries.map((q) => q.qid);
    rankedQueries = result.queries.filter((q) => q.inRun).length;
    for (const spec of specs) {
      perQuery[spec.key] = result.queries.map((q) => q.values[spec.trecEvalName]!);
      aggregate[spec.key] = result.all[spec.trecEvalName]!;
    }
  }
  return { qids: qids ?? [], perQuery, aggregate, rankedQueries };
}

/** Decimals the dashboard shows (trec_eval's). */
const SHOWN_DECIMALS = 4;

/**
 * For each measure, the indexes of the reports with the highest value as shown (rounded to 4 decimals, so
 * two columns that look equal are both best). Missing reports never win; nothing is best among fewer
 * than two reports.
 */
export function bestColumns(reports: ReadonlyArray<RunReport | undefined>): Record<ReportMeasure, number[]> {
  const best = {} as Record<ReportMeasure, number[]>;
  const present = reports.filter((r) => r !== undefined).length;
  for (const key of REPORT_MEASURE_KEYS) {
    best[key] = [];
    if (present < 2) continue;
    const shown = reports.map((r) => (r === undefined ? undefined : Number(r.aggregate[key].toFixed(SHOWN_DECIMALS))));
    const max = Math.max(...shown.filter((v): v is number => v !== undefined));
    shown.forEach((value, i) => {
      if (value === max) best[key].push(i);
    });
  }
  return best;
}

/**
 * The same qids in the same order in both reports (they were evaluated on the same qrels with -c), so
 * index i of one per-query array pairs with index i of the other. Throws when they were not.
 */
export function assertSameQueries(a: RunReport, b: RunReport): void {
  const same = a.qids.length === b.qids.length && a.qids.every((qid, i) => b.qids[i] === qid);
  if (!same) throw new RangeError(`the two reports evaluate different queries (${a.qids.length} vs ${b.qids.length}): were they evaluated on the same judgments?`);
}
