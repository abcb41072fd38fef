/**
 * Documents by id for the hits on screen (Explore's columns and detail, the judging panel), read in the
 * documents worker: the stored chunks they come from are decoded there, not on the page's thread.
 */
import { SvelteMap } from 'svelte/reactivity';
import type { Doc } from '../../lib/types.ts';
import { notices } from '../shell/notices.svelte.ts';
import { WorkerHost } from '../workers/worker-host.ts';
import { createDocumentsWorker } from '../workers/worker-scripts.ts';
import type { DocumentsWorkerApi } from '../../../workers/documents.worker.ts';

const documentsWorker = new WorkerHost<DocumentsWorkerApi>({
  label: 'The documents worker',
  create: createDocumentsWorker,
  ping: (api) => api.ping(),
});

/** Documents by id for the hits on screen, fetched in batches and kept per collection. */
class DocStore {
  #collectionId: string | null = null;
  /** null: the collection has no such document. */
  docs = new SvelteMap<string, Doc | null>();
  #pending = new Set<string>();
  #queued = new Set<string>();
  #scheduled = false;

  get(docId: string): Doc | null | undefined {
    return this.docs.get(docId);
  }

  /** Asks for documents; they appear in `docs` when read. */
  want(collectionId: string, docIds: Iterable<string>): void {
    if (collectionId !== this.#collectionId) {
      this.#collectionId = collectionId;
      this.docs.clear();
      this.#pending.clear();
      this.#queued.clear();
    }
    for (const docId of docIds) if (!this.docs.has(docId) && !this.#pending.has(docId)) this.#queued.add(docId);
    if (this.#queued.size === 0 || this.#scheduled) return;
    this.#scheduled = true;
    queueMicrotask(() => void this.#flush(collectionId));
  }

  async #flush(collectionId: string): Promise<void> {
    this.#scheduled = false;
    const ids = [...this.#queued];
    this.#queued.clear();
    for (const id of ids) this.#pending.add(id);
    try {
      const docs = await documentsWorker.call((api) => api.getDocuments(collectionId, ids));
      if (collectionId !== this.#collectionId) return;
      ids.forEach((id, i) => this.docs.set(id, docs[i] ?? null));
    } catch (error) {
      notices.error(error);
    } finally {
      for (const id of ids) this.#pending.delete(id);
    }
  }
}

export const docStore = new DocStore();
