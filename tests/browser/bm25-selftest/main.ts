/**
 * Test-only page (built by tests/browser/bm25.test.ts, never part of the app): starts the real BM25 worker
 * the way the playground will — `new Worker(new URL(…), { type: 'module' })` + comlink — and exposes a few
 * calls on `window.rpBm25` for `page.evaluate`. Documents are written to IndexedDB from the page (as the
 * importer does); the worker reads, analyzes, indexes and stores them itself.
 */
import * as Comlink from 'comlink';
import type { IndexInfo, IndexProgress, SearchRequestOptions } from '../../../src/lib/services/bm25-service.ts';
import { database } from '../../../src/lib/storage/db.ts';
import { countDocuments, putDocuments } from '../../../src/lib/storage/documents.ts';
import type { Doc, Hit } from '../../../src/lib/types.ts';
import type { Bm25WorkerApi } from '../../../workers/bm25.worker.ts';

const worker = Comlink.wrap<Bm25WorkerApi>(new Worker(new URL('../../../workers/bm25.worker.ts', import.meta.url), { type: 'module' }));
const log = document.getElementById('log')!;
const say = (line: string) => (log.textContent += `${line}\n`);

/** The corpus seeded so far (seed comes in parts; the stored corpus is rewritten whole each time). */
let stored: Doc[] = [];

export interface OpenResult {
  info: IndexInfo;
  progress: IndexProgress[];
}

const api = {
  async seed(collectionId: string, docs: Doc[], first: number, total: number): Promise<number> {
    const db = database();
    if (first === 0) {
      await db.collections.put({
        id: collectionId,
        name: collectionId,
        status: 'ready',
        source: { kind: 'local', detail: 'browser test' },
        docCount: total,
        queryCount: 0,
        splits: [],
        createdAt: 1,
        bytes: 0,
      });
    }
    stored = first === 0 ? [...docs] : [...stored.slice(0, first), ...docs];
    await putDocuments(db, collectionId, stored);
    return countDocuments(db, collectionId);
  },

  async open(collectionId: string, analyzer: 'english' | 'standard' = 'english'): Promise<OpenResult> {
    const progress: IndexProgress[] = [];
    const info = await worker.openIndex({ collectionId, analyzer }, Comlink.proxy((p: IndexProgress) => void progress.push(p)));
    // A built index is stored after its answer (bm25.worker.ts): the tests read what is stored next.
    await worker.stored(collectionId);
    say(`${info.source} ${analyzer} index: ${info.numDocs} docs, ${info.numPostings} postings, ${info.storedBytes} bytes stored, ${info.openMs.toFixed(0)} ms`);
    return { info, progress };
  },

  /** Starts a build and cancels it at its first progress report; resolves with the error's name. */
  async openAndCancel(collectionId: string, analyzer: 'english' | 'standard'): Promise<{ error: string; docsDone: number }> {
    let docsDone = 0;
    try {
      await worker.openIndex(
        { collectionId, analyzer, rebuild: true },
        Comlink.proxy((p: IndexProgress) => {
          if (p.phase === 'indexing' && docsDone === 0) {
            docsDone = p.docsDone;
            void worker.cancel();
          }
        }),
      );
      return { error: 'none', docsDone };
    } catch (error) {
      say(`build cancelled after ${docsDone} documents`);
      return { error: error instanceof Error ? error.name : String(error), docsDone };
    }
  },

  search(collectionId: string, queries: { id: string; text: string }[], options: SearchRequestOptions): Promise<Hit[][]> {
    return Promise.all(queries.map((query) => worker.search(collectionId, query, options)));
  },

  async storedIndexes(): Promise<{ kind: string; version: number; bytes: number; settings: unknown }[]> {
    const rows = await database().indexes.toArray();
    return rows.map(({ kind, version, bytes, settings }) => ({ kind, version, bytes, settings }));
  },
};

export type Bm25SelfTestApi = typeof api;

declare global {
  interface Window {
    rpBm25: Bm25SelfTestApi;
  }
}

window.rpBm25 = api;
say('ready');
