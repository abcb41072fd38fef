/**
 * A grid point's measure: the configuration with the point's values, ranked by `rankBatch` (the ranking
 * `eval` and the dashboard use) over a search that remembers its answers, then measured by the
 * project's trec_eval. Nothing here ranks or measures on its own, so a tuned value is `eval`'s value.
 */
import type { RankedList, RankedRun } from '../hits/row-ranking.ts';
import type { PrfRequest } from '../prf/prf-request.ts';
import { RUN_DEPTH, type RetrieverConfig } from '../retrievers/config.ts';
import { rankBatch, type RankSearch } from '../retrievers/rank.ts';
import type { RankQuery } from '../retrievers/ranking.ts';
import type { Qrels } from '../types.ts';
import type { GridParams } from './grid.ts';
import { MemoSearch } from './memo-search.ts';
import { metricValue, type TuneMetric } from './metric.ts';
import { withParams } from './params.ts';
import type { Objective } from './strategy.ts';

export interface RankingObjectiveOptions {
  search: RankSearch;
  /** The configuration the grid's values are put into. */
  base: RetrieverConfig;
  /** The tuning split's judged queries (with ids). */
  queries: readonly RankQuery[];
  /** The tuning split's judgments. */
  qrels: Qrels;
  metric: TuneMetric;
  /** Hits per query (default RUN_DEPTH, as `eval` and the dashboard). */
  depth?: number;
  keepIdenticalIds?: boolean;
  /** LEDR's candidates from RM3 or Bo1 (the CLI's --lexical). */
  ledrLexical?: PrfRequest;
  signal?: AbortSignal;
}

export interface RankingObjective {
  objective: Objective;
  /** The searches made so far (each distinct BM25, dense or feedback request once). */
  searches: () => number;
}

/** Each query's ranking keyed by its id, as `evaluate` reads a run. */
function asRun(queries: readonly RankQuery[], rankings: ReadonlyArray<RankedList | undefined>): RankedRun {
  return new Map(queries.map((query, i) => [query.id!, rankings[i] ?? []]));
}

/** The measure of each grid point over `options.search`. */
export function rankingObjective(options: RankingObjectiveOptions): RankingObjective {
  const search = new MemoSearch(options.search);
  const objective: Objective = async (params: GridParams) => {
    const config = withParams(options.base, params);
    const rankings = await rankBatch(search, config, options.queries, {
      form: 'lists',
      depth: options.depth ?? RUN_DEPTH,
      keepIdenticalIds: options.keepIdenticalIds ?? false,
      ...(options.ledrLexical === undefined ? {} : { ledrLexical: options.ledrLexical }),
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
    return metricValue(options.qrels, asRun(options.queries, rankings), options.metric);
  };
  return { objective, searches: () => search.searches };
}
