import { assertSameQueries, type ReportMeasure, type RunReport } from './run-report.ts';

/**
 * Per-query differences of one measure between two runs, B − A, for the dashboard's sorted bar plot
 * (a "per-topic difference" plot, as in TREC overview papers): every judged query, a query a run does not
 * rank counting 0 (trec_eval -c), so the differences average to the difference of the means.
 */

export interface QueryDifference {
  qid: string;
  a: number;
  b: number;
  /** b − a */
  difference: number;
}

export interface DifferenceSeries {
  measure: ReportMeasure;
  /** Largest gain of B first; equal differences by query id (strcmp order). */
  points: QueryDifference[];
  /** Queries where B scores higher / the same / lower than A. */
  wins: number;
  ties: number;
  losses: number;
  /** Mean of the differences: mean B − mean A, up to the tie tolerance. */
  meanDifference: number;
}

/**
 * Differences smaller than this are ties: values computed from different rankings can differ in the last
 * bits when they are equal in exact arithmetic (e.g. 1/3 + 1/6 against 1/2).
 */
const TIE_TOLERANCE = 1e-9;

export function differenceSeries(a: RunReport, b: RunReport, measure: ReportMeasure): DifferenceSeries {
  assertSameQueries(a, b);
  const valuesA = a.perQuery[measure];
  const valuesB = b.perQuery[measure];
  let wins = 0;
  let ties = 0;
  let losses = 0;
  let sum = 0;
  const points = a.qids.map((qid, i): QueryDifference => {
    const x = valuesA[i]!;
    const y = valuesB[i]!;
    let difference = y - x;
    if (Math.abs(difference) <= TIE_TOLERANCE) difference = 0;
    if (difference > 0) wins++;
    else if (difference < 0) losses++;
    else ties++;
    sum += difference;
    return { qid, a: x, b: y, difference };
  });
  points.sort((p, q) => q.difference - p.difference || (p.qid < q.qid ? -1 : p.qid > q.qid ? 1 : 0));
  return { measure, points, wins, ties, losses, meanDifference: points.length === 0 ? 0 : sum / points.length };
}
