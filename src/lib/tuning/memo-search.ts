/**
 * A search that answers a request it answered lately from memory: a tuner's grid points over α or RRF's k
 * ask the same BM25 and dense lists again and again, and `rankBatch` only re-fuses them; a k1/b point asks a
 * new BM25 search. Answers are shared, never copied: the fusions and cuts of rank.ts build new lists and leave
 * their inputs as they were.
 */
import type { Candidates } from '../hits/packed-hits.ts';
import type { RowRanking } from '../hits/row-ranking.ts';
import type { PrfResult } from '../prf/prf-result.ts';
import type { Bm25Settings, DenseSettings } from '../retrievers/config.ts';
import type { RankSearch, RowSearch } from '../retrievers/rank.ts';
import { AnswerMemo } from '../retrievers/answer-memo.ts';
import type { RankQuery } from '../retrievers/ranking.ts';
import { settingsKey } from '../settings-key.ts';
import type { Hit } from '../types.ts';

/** What a list of queries asks: their ids, texts and weighted bags. */
function queriesKey(queries: readonly RankQuery[]): string {
  return settingsKey(queries.map((query) => [query.id ?? null, query.text, query.weighted ?? null]));
}

/**
 * Answers kept: the BM25 and dense lists of a fusion, with room for LEDR's or feedback's. Bounded: a k1 × b grid
 * asks a new BM25 search per point, and keeping 99 runs of 809 × 1,000 hits ran Node out of memory.
 */
export const MEMO_CAPACITY = 4;

/** `search` with its BM25, dense, feedback and row answers remembered by request; LEDR's candidate scores and the rest pass through. */
export class MemoSearch implements RankSearch {
  private readonly memo: AnswerMemo;
  readonly rows: RowSearch | undefined;

  constructor(
    private readonly search: RankSearch,
    capacity = MEMO_CAPACITY,
  ) {
    this.memo = new AnswerMemo(capacity);
    const rows = search.rows;
    this.rows =
      rows === undefined
        ? undefined
        : {
            bm25: (settings, queries, k) => this.remember<RowRanking[]>(['rows.bm25', settings, k, queriesKey(queries)], () => rows.bm25(settings, queries, k)),
            dense: (settings, texts, k) => this.remember<RowRanking[]>(['rows.dense', settings, k, texts], () => rows.dense(settings, texts, k)),
          };
    if (search.prf !== undefined) this.prf = (settings, request, queries, k) => this.remember<PrfResult[]>(['prf', settings, request, k, queriesKey(queries)], () => search.prf!(settings, request, queries, k));
    if (search.rerank !== undefined) this.rerank = search.rerank.bind(search);
    if (search.importedRun !== undefined) this.importedRun = search.importedRun.bind(search);
  }

  prf?: RankSearch['prf'];
  rerank?: RankSearch['rerank'];
  importedRun?: RankSearch['importedRun'];

  /** How many requests were searched (not answered from memory). */
  get searches(): number {
    return this.memo.computed;
  }

  private remember<T>(request: readonly unknown[], ask: () => Promise<T>): Promise<T> {
    return this.memo.get(settingsKey(request), ask);
  }

  bm25(settings: Bm25Settings, queries: readonly RankQuery[], k: number): Promise<Hit[][]> {
    return this.remember(['bm25', settings, k, queriesKey(queries)], () => this.search.bm25(settings, queries, k));
  }

  dense(settings: DenseSettings, texts: readonly string[], k: number): Promise<Hit[][]> {
    return this.remember(['dense', settings, k, texts], () => this.search.dense(settings, texts, k));
  }

  denseScores(settings: DenseSettings, texts: readonly string[], candidates: Candidates): Promise<ArrayLike<number>[]> {
    return this.search.denseScores(settings, texts, candidates);
  }
}
