/**
 * The engine's side of `RankSearch` (src/lib/retrievers/rank.ts): the BM25 and dense workers behind it, and
 * what it remembers so columns share work.
 * - `forQuery` (Explore, one query): BM25, dense and RM3/Bo1 rankings are memoized per query in a small LRU,
 *   at least a run's depth each, so a BM25 column and a LEDR column with the same BM25 settings search once.
 * - `forBatch` (evaluations): queries go to the workers in one call per chunk; BM25 rankings of the latest
 *   evaluations' queries are kept, so a LEDR column evaluated after (or beside) a BM25 column reuses its rankings.
 */
import type { ExpandedTerm, RankQuery } from '../../lib/retrievers/ranking.ts';
import { weightedKey } from './column-ranking.ts';
import type { PrfResult } from '../../lib/prf/prf-result.ts';
import { RUN_DEPTH, type Bm25Settings, type DenseSettings } from '../../lib/retrievers/config.ts';
import { AnswerMemo } from '../../lib/retrievers/answer-memo.ts';
import { settingsKey } from '../../lib/settings-key.ts';
import { cutHits } from '../../lib/hits/hit-rows.ts';
import { unpackRanking } from '../../lib/hits/packed-hits.ts';
import { cutRows, isRowRanking, type RankedList, type RowRanking } from '../../lib/hits/row-ranking.ts';
import type { RankSearch } from '../../lib/retrievers/rank.ts';
import type { Hit, Run } from '../../lib/types.ts';
import type { AugmentBackend, Bm25Backend, DenseBackend, RerankBackend, RerankScoreProgress, RunBackend } from './backends.ts';
import { bm25Part, densePart, requireRerank } from './engine-resources.ts';

/** Queries whose BM25 rankings an evaluation leaves for the next column (SciFact's test split is 300). */
const BATCH_MEMO_QUERIES = 1_000;

export interface MemoBackends {
  bm25: Bm25Backend;
  dense: DenseBackend;
  runs: RunBackend;
  rerank?: RerankBackend;
  /** Augmented BM25's query expansion (absent: such a column fails with a message). */
  augment?: AugmentBackend;
}

/** How a Re-rank column's scoring is watched and stopped. */
export interface ScoreHooks {
  signal?: AbortSignal;
  onScore?: (progress: RerankScoreProgress) => void;
}

export class RankingMemo {
  /** Explore's searches, one query each, remembered by request. */
  private readonly memo: AnswerMemo;
  /** BM25 rankings of the latest evaluations' queries (being computed, or done), by the same keys as `memo` (oldest first). */
  private readonly batchMemo = new Map<string, Promise<RankedList>>();

  constructor(
    private readonly backends: MemoBackends,
    /** The key prefix of a collection's content (EngineResources.scope). */
    private readonly scope: (collectionId: string) => string,
    size: number,
  ) {
    this.memo = new AnswerMemo(size);
  }

  private remember<T>(key: string, compute: () => Promise<T>): Promise<T> {
    return this.memo.get(key, compute);
  }

  private bm25Key(collectionId: string, settings: Bm25Settings, k: number, query: RankQuery): string {
    return `${this.scope(collectionId)}${bm25Part(settings)}|${settings.k1}|${settings.b}|${k}|${query.id ?? ''}|${query.text}|${weightedKey(query)}`;
  }

  loadRun(collectionId: string, runKey: string): Promise<Run | undefined> {
    return this.remember(`${this.scope(collectionId)}run|${runKey}`, () => this.backends.runs.load(collectionId, runKey));
  }

  /** Searches of one query at a time, each remembered (at least a run's depth is fetched, so depths share). */
  forQuery(collectionId: string, hooks: ScoreHooks = {}): RankSearch {
    const { bm25, dense } = this.backends;
    const scope = this.scope(collectionId);
    return {
      bm25: (settings, queries, depth) => {
        const k = Math.max(depth, RUN_DEPTH);
        return Promise.all(
          queries.map(async (query) => {
            const hits = await this.remember(this.bm25Key(collectionId, settings, k, query), async () => {
              const [result] = await bm25.search(collectionId, settings.analyzer, [query], { k, k1: settings.k1, b: settings.b });
              return result ?? [];
            });
            return cutHits(hits, depth);
          }),
        );
      },
      dense: (settings, texts, depth) => {
        // One more than a run's depth: ranking drops a stored query's own id and still keeps RUN_DEPTH hits.
        const k = Math.max(depth, RUN_DEPTH + 1);
        const ef = settings.search === 'hnsw' ? settings.hnsw.efSearch : '';
        return Promise.all(
          texts.map(async (text) => {
            const hits = await this.remember(`${scope}${densePart(settings)}|${ef}|${k}|${text}`, async () => {
              const [result] = await dense.search(collectionId, settings, [text], k);
              return result ?? [];
            });
            return cutHits(hits, depth);
          }),
        );
      },
      denseScores: (settings, texts, candidates) => dense.score(collectionId, settings, texts, candidates),
      prf: (settings, request, queries, depth) => {
        const k = Math.max(depth, RUN_DEPTH);
        return Promise.all(
          queries.map((query) =>
            this.remember(`${scope}${bm25Part(settings)}|prf|${settingsKey(request)}|${settings.k1}|${settings.b}|${k}|${query.id ?? ''}|${query.text}|${weightedKey(query)}`, async (): Promise<PrfResult> => {
              const [result] = await bm25.searchPrf(collectionId, settings.analyzer, [query], request, { k, k1: settings.k1, b: settings.b });
              if (result === undefined) throw new Error('the BM25 worker returned no feedback result');
              return result;
            }),
          ),
        );
      },
      rerank: (settings, query, docIds) =>
        requireRerank(this.backends.rerank).score(collectionId, settings, query.text, docIds, { signal: hooks.signal, onProgress: hooks.onScore }),
      importedRun: (runKey) => this.loadRun(collectionId, runKey),
      ...(this.backends.augment !== undefined && {
        augment: (augmenter, settings, queries) => {
          const augment = this.backends.augment!;
          // A bag depends on the model, the analyzer and the text only: no collection scope.
          return Promise.all(
            queries.map((query) =>
              this.remember(`augment|${augmenter.key}|${settings.analyzer}|${query.text}`, async (): Promise<ExpandedTerm[]> => {
                const [bag] = await augment.expand(augmenter, settings.analyzer, [query.text]);
                return bag ?? [];
              }),
            ),
          );
        },
      }),
    };
  }

  /** Searches of a chunk of queries in one worker call each (evaluations). */
  forBatch(collectionId: string, signal?: AbortSignal, onExpanded?: (bags: readonly ExpandedTerm[][]) => void): RankSearch {
    const { bm25, dense } = this.backends;
    return {
      bm25: (settings, queries, depth) => this.bm25Batch(collectionId, settings, queries, depth),
      dense: (settings: DenseSettings, texts, k) => dense.search(collectionId, settings, texts, k),
      denseScores: (settings, texts, candidates) => dense.score(collectionId, settings, texts, candidates),
      prf: (settings, request, queries, k) => bm25.searchPrf(collectionId, settings.analyzer, queries, request, { k, k1: settings.k1, b: settings.b }),
      rerank: (settings, query, docIds) => requireRerank(this.backends.rerank).score(collectionId, settings, query.text, docIds, { signal }),
      importedRun: (runKey) => this.loadRun(collectionId, runKey),
      ...(this.backends.augment !== undefined && {
        augment: async (augmenter, settings, queries) => {
          const bags = await this.backends.augment!.expand(augmenter, settings.analyzer, queries.map((query) => query.text));
          onExpanded?.(bags);
          return bags;
        },
      }),
      // Rankings stay rows where the workers answer so: an evaluation measures them without hit objects.
      ...(bm25.searchRows !== undefined &&
        dense.searchRows !== undefined && {
          rows: {
            bm25: async (settings, queries, depth) => (await this.bm25Lists(collectionId, settings, queries, depth)).map(asRows),
            dense: (settings, texts, k) => dense.searchRows!(collectionId, settings, texts, k),
          },
        }),
    };
  }

  /**
   * BM25 top `depth` of many queries, in one call for those not ranked by a recent evaluation (a LEDR column
   * evaluated after a BM25 column with the same settings reuses its rankings instead of searching again).
   */
  private async bm25Batch(collectionId: string, settings: Bm25Settings, queries: readonly RankQuery[], depth: number): Promise<Hit[][]> {
    const lists = await this.bm25Lists(collectionId, settings, queries, depth);
    return lists.map((list) => (isRowRanking(list) ? unpackRanking(list) : (list as Hit[])));
  }

  /**
   * `bm25Batch` as the backend answers: rows when it can (searchRows), else hits. A ranking asked for while
   * another evaluation's call still computes it (a LEDR column ranked beside a BM25 column) waits for that call.
   */
  private async bm25Lists(collectionId: string, settings: Bm25Settings, queries: readonly RankQuery[], depth: number): Promise<RankedList[]> {
    const { bm25 } = this.backends;
    const k = Math.max(depth, RUN_DEPTH);
    const keys = queries.map((query) => this.bm25Key(collectionId, settings, k, query));
    const lists = keys.map((key) => this.batchMemo.get(key));
    const todo = queries.filter((_, i) => lists[i] === undefined);
    if (todo.length > 0) {
      const params = { k, k1: settings.k1, b: settings.b };
      const found: Promise<readonly RankedList[]> = bm25.searchRows !== undefined ? bm25.searchRows(collectionId, settings.analyzer, todo, params) : bm25.search(collectionId, settings.analyzer, todo, params);
      let next = 0;
      lists.forEach((list, i) => {
        if (list !== undefined) return;
        const at = next++;
        const key = keys[i]!;
        const hits = found.then((rankings) => rankings[at] ?? []);
        lists[i] = hits;
        this.batchMemo.set(key, hits);
        // A failed call is not remembered: the next evaluation asks again (the failure reaches this caller below).
        hits.catch(() => {
          if (this.batchMemo.get(key) === hits) this.batchMemo.delete(key);
        });
      });
      while (this.batchMemo.size > BATCH_MEMO_QUERIES) this.batchMemo.delete(this.batchMemo.keys().next().value!);
    }
    const ranked = await Promise.all(lists);
    return ranked.map((list) => (isRowRanking(list!) ? cutRows(list, depth) : cutHits(list as Hit[], depth)));
  }

  /** Forgets what belongs to a collection (after it was deleted or re-imported). */
  forget(collectionId: string): void {
    const prefix = `${collectionId}@`;
    this.memo.forgetPrefix(prefix);
    for (const key of [...this.batchMemo.keys()]) if (key.startsWith(prefix)) this.batchMemo.delete(key);
  }
}

/** A ranking the rows search made (a backend with searchRows answers every query as rows). */
function asRows(list: RankedList): RowRanking {
  if (!isRowRanking(list)) throw new Error('a BM25 ranking came back as hits from a search that answers as rows');
  return list;
}
