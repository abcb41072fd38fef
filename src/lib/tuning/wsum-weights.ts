/**
 * Fusion weights for N runs, as ranx's `optimize_fusion(method="wsum", step=0.1)` tries them: every
 * combination of the values 0, step, …, 1 (rounded to the step's decimals), first run outermost, whose
 * floating-point sum is exactly 1.0. Like ranx, that leaves out combinations such as 0.2, 0.7, 0.1 (their
 * sum is 0.9999999999999999), so the same trials are tried in the same order; ties go to the first.
 */
import type { Hit, Qrels } from '../types.ts';
import { prepareWsum, wsumHits, type PreparedWsum, type WsumOptions } from '../fusion/wsum.ts';
import { bestPoint, flatRegion, type TunedPoint } from './best.ts';
import { rangeValues } from './grid.ts';
import { metricValue, type TuneMetric } from './metric.ts';

/** ranx's `get_possible_weights`: 0 to 1 by `step`, rounded to the step's decimals. */
export function possibleWeights(step: number): number[] {
  const places = (String(step).split('.')[1] ?? '').length;
  return rangeValues(0, 1, step, places);
}

/** ranx's `get_trial_configs`: the weight combinations of `runs` runs whose sum is 1.0, in product order. */
export function wsumTrials(runs: number, step = 0.1): number[][] {
  const weights = possibleWeights(step);
  let trials: number[][] = [[]];
  for (let i = 0; i < runs; i++) trials = trials.flatMap((trial) => weights.map((weight) => [...trial, weight]));
  return trials.filter((trial) => trial.reduce((sum, weight) => sum + weight, 0) === 1.0);
}

/** A point's parameters: `w1` … `wN`, the weight of each run in input order. */
export function weightParams(weights: readonly number[]): Record<string, number> {
  return Object.fromEntries(weights.map((weight, i) => [`w${i + 1}`, weight]));
}

/** Each query's rankings of the runs, normalized once for every weighting (a query no run ranks gets none). */
export function prepareRuns(runs: ReadonlyArray<ReadonlyMap<string, readonly Hit[]>>, options: WsumOptions = {}): Map<string, PreparedWsum> {
  const qids = new Set(runs.flatMap((run) => [...run.keys()]));
  return new Map([...qids].map((qid) => [qid, prepareWsum(runs.map((run) => run.get(qid) ?? []), options)]));
}

/** Each query's weighted sum of the prepared runs, cut to `limit`. */
export function fusePrepared(prepared: ReadonlyMap<string, PreparedWsum>, weights: readonly number[], limit?: number): Map<string, Hit[]> {
  return new Map([...prepared].map(([qid, lists]) => [qid, wsumHits(lists, weights, limit)]));
}

/** Each query's weighted sum of the runs' rankings. */
export function fuseRuns(runs: ReadonlyArray<ReadonlyMap<string, readonly Hit[]>>, weights: readonly number[], options: WsumOptions = {}): Map<string, Hit[]> {
  return fusePrepared(prepareRuns(runs, options), weights, options.limit);
}

export interface WsumTuneOptions extends WsumOptions {
  step?: number;
  onProgress?: (done: number, total: number, point: TunedPoint) => void;
  signal?: AbortSignal;
}

export interface WsumTuneResult {
  points: TunedPoint[];
  best: TunedPoint | undefined;
  flat: TunedPoint[];
}

/** Every trial's measure over the tuning split's judgments, the best (first of equals) and the flat region. */
export function tuneWsum(runs: ReadonlyArray<ReadonlyMap<string, readonly Hit[]>>, qrels: Qrels, metric: TuneMetric, options: WsumTuneOptions = {}): WsumTuneResult {
  const trials = wsumTrials(runs.length, options.step ?? 0.1);
  const prepared = prepareRuns(runs, options);
  const points = trials.map((weights, index): TunedPoint => {
    options.signal?.throwIfAborted();
    const point = { params: weightParams(weights), value: metricValue(qrels, fusePrepared(prepared, weights, options.limit), metric), index };
    options.onProgress?.(index + 1, trials.length, point);
    return point;
  });
  return { points, best: bestPoint(points), flat: flatRegion(points) };
}
