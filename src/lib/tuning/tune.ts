/**
 * A Tune: a retriever's grid searched on a tuning split for the point of highest measure, through the one
 * ranking and the project's trec_eval. The CLI's `tune` and the page's Tune panel both run this.
 */
import type { RetrieverConfig } from '../retrievers/config.ts';
import type { TunedPoint } from './best.ts';
import { flatRegion } from './best.ts';
import { checkDistinctAxes, type GridAxis } from './grid.ts';
import { rankingObjective, type RankingObjectiveOptions } from './objective.ts';
import { checkAxes, paramValue, type TuneParam } from './params.ts';
import { checkTuningSplit } from './split-guard.ts';
import { searchGrid, type SearchResult, type StrategyOptions } from './strategy.ts';

export interface TuneRequest extends RankingObjectiveOptions {
  axes: readonly GridAxis[];
  /** The split whose judgments tune, and the split that will be reported: they must differ. */
  split: { tuning: string; evaluated: string };
  strategy?: StrategyOptions;
}

export interface TuneResult extends SearchResult {
  /** The points within 0.005 of the best, in grid order. */
  flat: TunedPoint[];
  /** Distinct searches made (fusion-only grids search once). */
  searches: number;
  ms: number;
}

/** Refuses what cannot be tuned before anything is ranked: the evaluated split, unknown axes, bad values. */
export function checkTuneRequest(kind: RetrieverConfig['kind'], axes: readonly GridAxis[], split: TuneRequest['split']): void {
  checkTuningSplit(split.tuning, split.evaluated);
  checkDistinctAxes(axes);
  checkAxes(kind, axes);
}

export async function tune(request: TuneRequest): Promise<TuneResult> {
  checkTuneRequest(request.base.kind, request.axes, request.split);
  const started = performance.now();
  const { objective, searches } = rankingObjective(request);
  // A coordinate search starts at the configuration's own settings (the defaults, usually).
  const start = Object.fromEntries(request.axes.map((axis) => [axis.name, paramValue(request.base, axis.name as TuneParam)]));
  const result = await searchGrid(request.axes, objective, { start, ...(request.signal === undefined ? {} : { signal: request.signal }), ...request.strategy });
  return { ...result, flat: flatRegion(result.points), searches: searches(), ms: performance.now() - started };
}
