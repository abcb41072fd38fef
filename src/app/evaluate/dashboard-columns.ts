/**
 * The dashboard's view of the Explore columns: each with its position, label and result, and the
 * comparisons every panel shares (best values, tests against the baseline). Pure: the view derives it from
 * the columns and the stored results.
 */
import { compareWithBaseline, type Comparison, type Correction } from '../../lib/eval/baseline-comparison.ts';
import type { JudgedCoverage } from '../../lib/eval/judged.ts';
import { bestColumns, type ReportMeasure, type RunReport } from '../../lib/eval/run-report.ts';
import { retrieverLabel, type ColumnConfig } from '../../lib/retrievers/config.ts';
import { settingsKey } from '../../lib/settings-key.ts';
import type { ColumnEvaluation, ColumnResult } from './evaluations.svelte.ts';

/**
 * Which metrics the dashboard shows: of the runs as they are (unjudged documents count as non-relevant,
 * trec_eval's default) or of their condensed lists (unjudged documents removed before scoring).
 */
export type ReportMode = 'all' | 'judged-only';

/** A result's metrics in a mode (undefined without judgments). */
export function reportIn(evaluation: ColumnEvaluation, mode: ReportMode): RunReport | undefined {
  return mode === 'judged-only' ? evaluation.condensedReport : evaluation.report;
}

export interface DashboardColumn {
  column: ColumnConfig;
  index: number;
  /** `Dense: glove-100d-sif` */
  name: string;
  /** `2 · Dense: glove-100d-sif` */
  label: string;
  result: ColumnResult;
  /** The metrics of the column's current settings (fresh result with judgments) in the mode shown, else undefined. */
  report: RunReport | undefined;
  /** The metrics of its result in the mode shown, fresh or stale (the metrics table greys a stale one). */
  shown: RunReport | undefined;
  /** judged@10 of its result (fresh or stale; of the full ranking in either mode). */
  judged: JudgedCoverage | undefined;
}

export function dashboardColumns(
  columns: readonly ColumnConfig[],
  resultOf: (column: ColumnConfig) => ColumnResult,
  mode: ReportMode = 'all',
): DashboardColumn[] {
  return columns.map((column, index) => {
    const result = resultOf(column);
    const tuned = column.tuned === undefined || column.tuned.settings !== settingsKey(column.retriever) ? '' : ` · tuned on ${column.tuned.split} (${column.tuned.metric})`;
    const name = `${retrieverLabel(column.retriever)}${tuned}`;
    return {
      column,
      index,
      name,
      label: `${index + 1} · ${name}`,
      result,
      report: result.status === 'fresh' ? reportIn(result.evaluation, mode) : undefined,
      shown: result.status === 'none' ? undefined : reportIn(result.evaluation, mode),
      judged: result.status === 'none' ? undefined : result.evaluation.judged,
    };
  });
}

/** Whether two reports are of the same queries (in the same order, as every -c report on one split is). */
export function sameQueries(a: RunReport, b: RunReport): boolean {
  return a.qids.length === b.qids.length && a.qids.every((qid, i) => qid === b.qids[i]);
}

/** Indexes of the best columns per measure (fresh results only). */
export function bestOf(columns: readonly DashboardColumn[]): Record<ReportMeasure, number[]> {
  // A held-out share's figures are of other queries: not ranked against the whole split's.
  return bestColumns(columns.map((c) => (c.result.status === 'fresh' && c.result.evaluation.heldOut !== undefined ? undefined : c.report)));
}

/**
 * Each column with a fresh report compared with the baseline's (when it has one), the Bonferroni m being
 * the number of such columns.
 */
export function comparisonsWith(
  columns: readonly DashboardColumn[],
  baseline: number,
  correction: Correction,
  alpha = 0.05,
): Map<number, Comparison> {
  const comparisons = new Map<number, Comparison>();
  const base = columns[baseline]?.report;
  if (base === undefined) return comparisons;
  // A run of a held-out share of the split (Augmented BM25) ranked other queries: no paired test with it.
  const others = columns.filter((c) => c.index !== baseline && c.report !== undefined && sameQueries(c.report, base));
  for (const column of others) {
    comparisons.set(column.index, compareWithBaseline(base, column.report!, { alpha, correction, comparisons: others.length }));
  }
  return comparisons;
}
