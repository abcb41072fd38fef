/**
 * BM25 worker (comlink): opens a collection's index — loaded from IndexedDB, or analyzed and indexed here
 * with progress and cancellation, then stored — and answers searches with live k1, b and k. The work is
 * `Bm25Service` (src/lib/services/bm25-service.ts); this file only wires it to the worker's realm.
 *
 * Page side (src/app/engine/bm25-workers.ts, through a WorkerHost of src/app/workers):
 *   const bm25 = new WorkerHost<Bm25WorkerApi>({ label, create: () => createBm25Worker('english'), ping: (api) => api.ping() });
 *   await bm25.call((api) => api.openIndex({ collectionId, analyzer: 'english' }, Comlink.proxy((p) => show(p))));
 *   const hits = await bm25.call((api) => api.search(collectionId, { text: 'query' }, { k: 100, k1: 0.9, b: 0.4 }));
 */
import * as Comlink from 'comlink';
import { Bm25Service, type IndexProgress, type OpenIndexRequest } from '../src/lib/services/bm25-service.ts';
import { fetchBm25Kernel } from '../src/lib/bm25-wasm/kernel-url.ts';
import { packedBuffers } from '../src/lib/hits/packed-hits.ts';
import { database } from '../src/lib/storage/db.ts';
import { loadAnalyzerFile } from './app-files.ts';
import { withOrderedProgress } from './ordered-progress.ts';
import './policy-violations.ts';

// A built index answers first and is stored just after: the first ranking does not wait for the write.
const service = new Bm25Service({ db: database(), loadKernel: () => fetchBm25Kernel(), loadAnalyzerFile, store: 'after-answer' });

const api = {
  /** Answers as soon as the worker's event loop is free (the page's liveness check). */
  ping: () => true,
  /** Compiles the kernel and opens the database now, so the first index opens without waiting for them. */
  warm: () => service.warm(),
  async openIndex(request: OpenIndexRequest, onProgress?: (progress: IndexProgress) => void) {
    const info = await withOrderedProgress(onProgress, (report) => service.openIndex(request, report));
    // After the answer has gone out: searches come next (bm25-service.ts, warmSearch).
    setTimeout(() => void service.warmSearch(request.collectionId).catch(() => undefined), 0);
    if (info.source === 'built') service.stored(request.collectionId).catch((error: unknown) => console.warn(`the BM25 index of ${request.collectionId} was not stored (it is built again next time)`, error));
    return info;
  },
  cancel: () => service.cancel(),
  /** Settles when the index the last open of this collection built is stored (it is stored after the answer). */
  stored: (collectionId: string) => service.stored(collectionId),
  info: (collectionId: string) => service.info(collectionId),
  analyze: (collectionId: string, text: string) => service.analyze(collectionId, text),
  parseQuery: (collectionId: string, text: string) => service.parseQuery(collectionId, text),
  search: (...args: Parameters<Bm25Service['search']>) => service.search(...args),
  searchMany: (...args: Parameters<Bm25Service['searchMany']>) => service.searchMany(...args),
  docIds: (collectionId: string) => service.docIds(collectionId),
  searchManyPacked(...args: Parameters<Bm25Service['searchManyPacked']>) {
    const packed = service.searchManyPacked(...args);
    return Comlink.transfer(packed, packedBuffers(packed));
  },
  explain: (...args: Parameters<Bm25Service['explain']>) => service.explain(...args),
  /** RM3 or Bo1 of many queries: each one's expanded query, feedback documents and second-pass hits. */
  searchPrfMany: (...args: Parameters<Bm25Service['searchPrfMany']>) => service.searchPrfMany(...args),
  close: (collectionId: string) => service.close(collectionId),
};

export type Bm25WorkerApi = typeof api;

Comlink.expose(api);
