import { assertSameQueries, REPORT_MEASURE_KEYS, type ReportMeasure, type RunReport } from './run-report.ts';
import { fisherRandomizationTest, pairedTTest } from './significance.ts';

/**
 * A column against the baseline column, measure by measure, with the two paired tests ranx offers
 * (src/lib/eval/significance.ts): Student's paired t-test and Fisher's randomization test. The inputs are
 * the per-query values of RunReport — every judged query, a query a run does not rank counting 0 (trec_eval
 * -c) — so both vectors hold the same queries in the same order, and the tests see what the averages see.
 *
 * Significance level: α (default 0.05); with the Bonferroni correction each test is held to α / m, m being
 * the number of columns compared with the baseline (Dunn 1961), which keeps the chance of any false
 * positive among the m comparisons of one measure at most α.
 */

export type Correction = 'none' | 'bonferroni';

export interface ComparisonOptions {
  /** Family-wise significance level. Default 0.05. */
  alpha?: number;
  correction?: Correction;
  /** Comparisons made with the baseline (m of Bonferroni). Default 1. */
  comparisons?: number;
  /** Fisher randomization: permutations (default 1000, ranx) and seed (default 42, ranx). */
  permutations?: number;
  seed?: number;
}

export type Direction = 'better' | 'worse' | 'equal';

export interface MeasureComparison {
  measure: ReportMeasure;
  baseline: number;
  treatment: number;
  /** treatment − baseline (means). */
  delta: number;
  direction: Direction;
  tTest: { statistic: number; pValue: number; significant: boolean };
  fisher: { pValue: number; significant: boolean };
}

export interface Comparison {
  /** The p-value at or below which a difference is significant: α, or α / m with Bonferroni. */
  threshold: number;
  alpha: number;
  correction: Correction;
  comparisons: number;
  permutations: number;
  seed: number;
  queries: number;
  measures: MeasureComparison[];
}

/** The level each test is held to. */
export function significanceThreshold(alpha: number, correction: Correction, comparisons: number): number {
  if (!(alpha > 0 && alpha < 1)) throw new RangeError(`alpha must be in (0, 1) (got ${alpha})`);
  if (!Number.isInteger(comparisons) || comparisons < 1) throw new RangeError(`comparisons must be a positive integer (got ${comparisons})`);
  return correction === 'bonferroni' ? alpha / comparisons : alpha;
}

/** Compares `treatment` with `baseline` on every dashboard measure. */
export function compareWithBaseline(baseline: RunReport, treatment: RunReport, options: ComparisonOptions = {}): Comparison {
  assertSameQueries(baseline, treatment);
  const alpha = options.alpha ?? 0.05;
  const correction = options.correction ?? 'none';
  const comparisons = options.comparisons ?? 1;
  const permutations = options.permutations ?? 1000;
  const seed = options.seed ?? 42;
  const threshold = significanceThreshold(alpha, correction, comparisons);
  const queries = baseline.qids.length;
  const measures = REPORT_MEASURE_KEYS.map((measure): MeasureComparison => {
    const control = baseline.perQuery[measure];
    const other = treatment.perQuery[measure];
    const delta = treatment.aggregate[measure] - baseline.aggregate[measure];
    const identical = control.every((value, i) => value === other[i]);
    // Fewer than two queries: no variance, no test.
    const t = queries >= 2 ? pairedTTest(control, other) : { statistic: Number.NaN, pValue: Number.NaN };
    const fisherP = queries >= 1 ? fisherRandomizationTest(control, other, { permutations, seed }).pValue : Number.NaN;
    return {
      measure,
      baseline: baseline.aggregate[measure],
      treatment: treatment.aggregate[measure],
      delta,
      direction: identical || delta === 0 ? 'equal' : delta > 0 ? 'better' : 'worse',
      tTest: { statistic: t.statistic, pValue: t.pValue, significant: !identical && t.pValue <= threshold },
      fisher: { pValue: fisherP, significant: !identical && fisherP <= threshold },
    };
  });
  return { threshold, alpha, correction, comparisons, permutations, seed, queries, measures };
}
