import { qrelsAsPrefs } from '../data/trec-prefs.ts';
import type { Qrels } from '../types.ts';
import type { RankedRun } from '../hits/row-ranking.ts';
import { evaluate } from './evaluate.ts';
import { MEASURE_DEFINITIONS, measureDefinition } from './measure-spec.ts';

/**
 * The dashboard's "more measures": every other trec_eval 9.0.8 measure of a run, on demand, with the
 * dashboard's semantics (`trec_eval -c -m <measure>`: every judged query, 0 for one the run lacks). The
 * preference measures read the qrels as preferences (`trec_eval -c -R qrels_prefs`: within a query every
 * document is preferred to those with a lower grade). Measures that need judgment groups, print text
 * (relstring, runid) or count queries are left out.
 */

/** Measures of the selector in groups, in trec_eval's order within each. */
export interface MoreMeasureGroup {
  label: string;
  measures: readonly string[];
}

/** Not trec_eval's: BEIR's R_cap and Hole, Pyserini's judged. */
const OTHER_TOOLS = new Set(['R_cap', 'Hole', 'judged']);

const offered = MEASURE_DEFINITIONS.filter((d) => d.input !== 'qrels_jg' && d.input !== 'any' && d.value !== 'text' && d.summary !== 'count');

export const MORE_MEASURE_GROUPS: readonly MoreMeasureGroup[] = [
  { label: 'trec_eval', measures: offered.filter((d) => d.input !== 'prefs' && !OTHER_TOOLS.has(d.name)).map((d) => d.name) },
  { label: 'trec_eval preferences (qrels read as preferences)', measures: offered.filter((d) => d.input === 'prefs').map((d) => d.name) },
  { label: 'BEIR and Pyserini', measures: offered.filter((d) => OTHER_TOOLS.has(d.name)).map((d) => d.name) },
];

/** One printed value of a measure over all queries, e.g. `P_5` = 0.4267. */
export interface MeasureValue {
  name: string;
  value: number;
  /** A count (num_ret, …): shown as an integer. */
  integer: boolean;
}

/** The command line whose `all` rows {@link evaluateMoreMeasure} gives (trec_eval's, or the CLI's `trec-eval`). */
export function moreMeasureCommand(measure: string): string {
  return measureDefinition(measure).input === 'prefs' ? `trec_eval -c -R qrels_prefs -m ${measure}` : `trec_eval -c -m ${measure}`;
}

/** The "all" values of one measure (all its cutoffs) for a run, as {@link moreMeasureCommand} prints them. */
export function evaluateMoreMeasure(qrels: Qrels, run: RankedRun, measure: string): MeasureValue[] {
  const prefs = measureDefinition(measure).input === 'prefs' ? { prefs: qrelsAsPrefs(qrels) } : {};
  const result = evaluate(qrels, run, { measures: [measure], complete: true, ...prefs });
  return result.columns.filter((c) => c.summary).map((c) => ({ name: c.name, value: result.all[c.name]!, integer: c.integer }));
}
