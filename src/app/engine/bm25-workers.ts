/**
 * The BM25 backend of the page: one BM25 worker (workers/bm25.worker.ts) per analyzer. A worker keeps one
 * open index per collection, so two analyzers of the same collection need two workers; each reads the
 * documents from IndexedDB itself and stores the index it builds.
 */
import * as Comlink from 'comlink';
import type { Bm25WorkerApi } from '../../../workers/bm25.worker.ts';
import type { AnalyzerName } from '../../lib/analysis/analyzers.ts';
import type { IndexInfo, IndexProgress } from '../../lib/bm25-wasm/bm25-service.ts';
import type { Bm25Explanation } from '../../lib/bm25/bm25-explain.ts';
import type { Bm25Params } from '../../lib/bm25/bm25-similarity.ts';
import type { Hit } from '../../lib/types.ts';
import type { Bm25Backend, Bm25SearchParams } from './backends.ts';
import type { QueryInput } from './column-ranking.ts';

interface Bm25Worker {
  worker: Worker;
  api: Comlink.Remote<Bm25WorkerApi>;
}

export class Bm25Workers implements Bm25Backend {
  private readonly workers = new Map<AnalyzerName, Bm25Worker>();

  private worker(analyzer: AnalyzerName): Comlink.Remote<Bm25WorkerApi> {
    let entry = this.workers.get(analyzer);
    if (entry === undefined) {
      const worker = new Worker(new URL('../../../workers/bm25.worker.ts', import.meta.url), { type: 'module', name: `bm25-${analyzer}` });
      entry = { worker, api: Comlink.wrap<Bm25WorkerApi>(worker) };
      this.workers.set(analyzer, entry);
    }
    return entry.api;
  }

  async open(collectionId: string, analyzer: AnalyzerName, onProgress: (progress: IndexProgress) => void, signal: AbortSignal): Promise<IndexInfo> {
    signal.throwIfAborted();
    const api = this.worker(analyzer);
    const cancel = () => void api.cancel();
    signal.addEventListener('abort', cancel);
    try {
      return await api.openIndex({ collectionId, analyzer }, Comlink.proxy(onProgress));
    } finally {
      signal.removeEventListener('abort', cancel);
    }
  }

  async search(collectionId: string, analyzer: AnalyzerName, queries: readonly QueryInput[], params: Bm25SearchParams): Promise<Hit[][]> {
    const api = this.worker(analyzer);
    const options = { k: params.k, k1: params.k1, b: params.b };
    const withIds = queries.filter((query): query is QueryInput & { id: string } => query.id !== undefined);
    if (queries.length > 1 && withIds.length === queries.length) {
      const run = await api.searchMany(collectionId, withIds.map(({ id, text }) => ({ id, text })), options);
      return withIds.map((query) => run.get(query.id) ?? []);
    }
    return Promise.all(queries.map((query) => api.search(collectionId, query.id === undefined ? { text: query.text } : { id: query.id, text: query.text }, options)));
  }

  explain(collectionId: string, analyzer: AnalyzerName, queryText: string, docId: string, params: Bm25Params): Promise<Bm25Explanation> {
    return this.worker(analyzer).explain(collectionId, queryText, docId, { k1: params.k1, b: params.b });
  }

  /** Stops every worker (indexes stay stored in IndexedDB). */
  close(): void {
    for (const { worker, api } of this.workers.values()) {
      api[Comlink.releaseProxy]();
      worker.terminate();
    }
    this.workers.clear();
  }
}
