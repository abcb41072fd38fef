/** Documents by id for the hits on screen (Explore's columns and detail, the judging panel). */
import { SvelteMap } from 'svelte/reactivity';
import { getDocuments } from '../../lib/storage/collections.ts';
import { database } from '../../lib/storage/db.ts';
import type { Doc } from '../../lib/types.ts';
import { notices } from '../shell/notices.svelte.ts';

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
      const docs = await getDocuments(database(), collectionId, ids);
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
