/**
 * The BM25 backend of the page: one BM25 worker (workers/bm25.worker.ts) per analyzer. A worker keeps one
 * open index per collection, so two analyzers of the same collection need two workers; each reads the
 * documents from IndexedDB itself and stores the index it builds.
 *
 * Each worker is hosted (src/app/workers/worker-host.ts): when it crashes — an `error` event (it threw at top
 * level or later), a WebAssembly abort or out-of-memory error, or no answer to pings — its calls reject with
 * a message naming it, and `onLost` tells the engine; the next call starts a fresh worker, which loads the
 * stored index again (or builds it, if the crash interrupted the build).
 */
import * as Comlink from 'comlink';
import type { Bm25WorkerApi } from '../../../workers/bm25.worker.ts';
// Every BM25 analyzer, the loadable WordPiece one included (its worker fetches the vocabulary).
import type { Bm25AnalyzerName as AnalyzerName } from '../../lib/analysis/analyzers.ts';
import type { IndexInfo, IndexProgress } from '../../lib/services/bm25-service.ts';
import type { PrfRequest } from '../../lib/prf/prf-request.ts';
import type { Bm25Explanation } from '../../lib/bm25/bm25-explain.ts';
import type { QueryTermWeight } from '../../lib/bm25/bm25-query.ts';
import type { Bm25Params } from '../../lib/bm25/bm25-similarity.ts';
import type { PrfResult } from '../../lib/prf/prf-result.ts';
import { rowRankings, type RowRanking } from '../../lib/hits/row-ranking.ts';
import { unpackRanking } from '../../lib/hits/packed-hits.ts';
import type { Hit } from '../../lib/types.ts';
import { WorkerHost, type HostedWorker } from '../workers/worker-host.ts';
import { createBm25Worker } from '../workers/worker-scripts.ts';
import type { WorkerCrashedError } from '../workers/worker-watch.ts';
import type { Bm25Backend, Bm25SearchParams } from './backends.ts';
import type { RankQuery } from '../../lib/retrievers/ranking.ts';

interface Bm25Worker {
  host: WorkerHost<Bm25WorkerApi>;
  /** Each open index's document ids (the rows of packed hits), by collection; cleared when it is opened again or the worker dies. */
  docIds: Map<string, Promise<readonly string[]>>;
}

export interface Bm25WorkersOptions {
  /** A worker died: the indexes it held open are gone. */
  onLost?: (analyzer: AnalyzerName, error: WorkerCrashedError) => void;
  /** Creates the worker of an analyzer (default: workers/bm25.worker.ts). */
  createWorker?: (analyzer: AnalyzerName) => HostedWorker;
}

export class Bm25Workers implements Bm25Backend {
  private readonly workers = new Map<AnalyzerName, Bm25Worker>();

  constructor(private readonly options: Bm25WorkersOptions = {}) {}

  private worker(analyzer: AnalyzerName): Bm25Worker {
    let entry = this.workers.get(analyzer);
    if (entry === undefined) {
      const docIds = new Map<string, Promise<readonly string[]>>();
      const create = this.options.createWorker ?? createBm25Worker;
      entry = {
        docIds,
        host: new WorkerHost<Bm25WorkerApi>({
          label: `The BM25 worker (${analyzer} analyzer)`,
          create: () => create(analyzer),
          ping: (api) => api.ping(),
          onCrash: (error) => {
            docIds.clear();
            this.options.onLost?.(analyzer, error);
          },
        }),
      };
      this.workers.set(analyzer, entry);
    }
    return entry;
  }

  /** A call to the analyzer's worker, rejected with WorkerCrashedError if the worker dies meanwhile. */
  private call<T>(analyzer: AnalyzerName, call: (api: Comlink.Remote<Bm25WorkerApi>) => Promise<T>): Promise<T> {
    return this.worker(analyzer).host.call(call);
  }

  async open(collectionId: string, analyzer: AnalyzerName, onProgress: (progress: IndexProgress) => void, signal: AbortSignal): Promise<IndexInfo> {
    signal.throwIfAborted();
    const { host, docIds } = this.worker(analyzer);
    docIds.delete(collectionId);
    const cancel = () => void host.callIfRunning((api) => api.cancel())?.catch(() => undefined);
    signal.addEventListener('abort', cancel);
    try {
      return await this.call(analyzer, (remote) => remote.openIndex({ collectionId, analyzer }, Comlink.proxy(onProgress)));
    } finally {
      signal.removeEventListener('abort', cancel);
    }
  }

  warm(analyzer: AnalyzerName): void {
    void this.call(analyzer, (api) => api.warm()).catch(() => undefined);
  }

  async search(collectionId: string, analyzer: AnalyzerName, queries: readonly RankQuery[], params: Bm25SearchParams): Promise<Hit[][]> {
    return (await this.searchRows(collectionId, analyzer, queries, params)).map(unpackRanking);
  }

  /**
   * Every query in one worker call; the rankings come back as typed arrays (transferred, not cloned), rows
   * of the index's document ids, fetched once per opened index.
   */
  async searchRows(collectionId: string, analyzer: AnalyzerName, queries: readonly RankQuery[], params: Bm25SearchParams): Promise<RowRanking[]> {
    const options = { k: params.k, k1: params.k1, b: params.b };
    const request = workerQueries(queries);
    const [docIds, packed] = await Promise.all([
      this.docIds(collectionId, analyzer),
      this.call(analyzer, (api) => api.searchManyPacked(collectionId, request, options)),
    ]);
    return rowRankings(packed, docIds);
  }

  private docIds(collectionId: string, analyzer: AnalyzerName): Promise<readonly string[]> {
    const entry = this.worker(analyzer);
    let ids = entry.docIds.get(collectionId);
    if (ids === undefined) {
      const asked = this.call(analyzer, (api) => api.docIds(collectionId));
      entry.docIds.set(collectionId, asked);
      asked.catch(() => {
        if (entry.docIds.get(collectionId) === asked) entry.docIds.delete(collectionId);
      });
      ids = asked;
    }
    return ids;
  }

  explain(collectionId: string, analyzer: AnalyzerName, query: string | readonly QueryTermWeight[], docId: string, params: Bm25Params): Promise<Bm25Explanation> {
    return this.call(analyzer, (api) => api.explain(collectionId, query, docId, { k1: params.k1, b: params.b }));
  }

  /** Pseudo-relevance feedback of every query in one worker call (both passes run in the worker). */
  searchPrf(collectionId: string, analyzer: AnalyzerName, queries: readonly RankQuery[], prf: PrfRequest, params: Bm25SearchParams): Promise<PrfResult[]> {
    const request = workerQueries(queries);
    return this.call(analyzer, (api) => api.searchPrfMany(collectionId, request, prf, { k: params.k, k1: params.k1, b: params.b }));
  }

  /** Stops every worker (indexes stay stored in IndexedDB). */
  close(): void {
    for (const { host } of this.workers.values()) void host.close();
    this.workers.clear();
  }
}

/** Only the fields the worker reads cross the boundary: the weighted bag when there is one, else the text. */
function workerQueries(queries: readonly RankQuery[]): RankQuery[] {
  return queries.map(({ id, text, weighted }) => {
    const body = weighted === undefined ? { text } : { text: '', weighted };
    return id === undefined ? body : { id, ...body };
  });
}
