import type { Qrels, Run } from '../types.ts';
import { evaluate } from './evaluate.ts';
import { MEASURE_DEFINITIONS } from './measure-spec.ts';

/**
 * The dashboard's "more measures": every other trec_eval 9.0.8 measure of a run, on demand, with the
 * dashboard's semantics (`trec_eval -c -m <measure>`: every judged query, 0 for one the run lacks).
 * Measures that need other judgments (judgment groups), print text (relstring, runid) or count queries
 * are left out.
 */
export const MORE_MEASURES: readonly string[] = MEASURE_DEFINITIONS.filter(
  (d) => (d.input ?? 'qrels') === 'qrels' && d.value !== 'text' && d.summary !== 'count',
).map((d) => d.name);

/** One printed value of a measure over all queries, e.g. `P_5` = 0.4267. */
export interface MeasureValue {
  name: string;
  value: number;
  /** A count (num_ret, …): shown as an integer. */
  integer: boolean;
}

/** The "all" values of one trec_eval measure (all its cutoffs) for a run, as `trec_eval -c -m measure`. */
export function evaluateMoreMeasure(qrels: Qrels, run: Run, measure: string): MeasureValue[] {
  const result = evaluate(qrels, run, { measures: [measure], complete: true });
  return result.columns.filter((c) => c.summary).map((c) => ({ name: c.name, value: result.all[c.name]!, integer: c.integer }));
}
