/**
 * The measure a Tune maximizes: one trec_eval measure value, named as trec_eval prints it (`ndcg_cut_10`,
 * `P_10`, `map`) or as `-m` takes it (`ndcg_cut.10`), computed by the project's evaluator with `-c`, as
 * `eval` computes it.
 */
import { evaluate } from '../eval/evaluate.ts';
import { MEASURE_FAMILIES, MeasureError, measureDefinition, measureNames, parseMeasure } from '../eval/measure-spec.ts';
import type { RankedRun } from '../hits/row-ranking.ts';
import type { Qrels } from '../types.ts';

export interface TuneMetric {
  /** What `evaluate` is asked (`ndcg_cut.10`). */
  measure: string;
  /** The value's printed name (`ndcg_cut_10`). */
  name: string;
}

export const DEFAULT_TUNE_METRIC = 'ndcg_cut_10';

/** `family_N` (a printed cutoff name) as `family.N`; other text as it is. */
function asMeasureArgument(text: string): string {
  const match = /^(.+)_(\d+)$/.exec(text);
  if (match !== null && !text.includes('.') && MEASURE_FAMILIES.includes(match[1]!) && measureDefinition(match[1]!).params === 'cutoffs') return `${match[1]}.${match[2]}`;
  return text;
}

/** A measure of one summary value, or a MeasureError saying why not. */
export function parseTuneMetric(text: string): TuneMetric {
  const measure = asMeasureArgument(text.trim());
  const names = measureNames(parseMeasure(measure));
  if (names.length !== 1) throw new MeasureError(`measure '${text}': give one value to maximize (e.g. ndcg_cut_10), not ${names.length}`);
  return { measure, name: names[0]! };
}

/** The run's value of `metric` over the judged queries, absent ones counting 0 (trec_eval -c, as `eval`). */
export function metricValue(qrels: Qrels, run: RankedRun, metric: TuneMetric): number {
  const value = evaluate(qrels, run, { measures: [metric.measure], complete: true }).all[metric.name];
  if (value === undefined) throw new MeasureError(`measure '${metric.measure}' has no summary value`);
  return value;
}
