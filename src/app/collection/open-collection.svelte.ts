/**
 * The open collection's queries (file order) and the judgments of the current split, as the views read
 * them (Explore, its judging mode, Evaluate) — small. Documents are read only by id, for the hits on
 * screen (documents.svelte.ts); the corpus is never loaded into the page: the workers read it from
 * IndexedDB themselves. Edits made in the page (collection-edits.ts, judging) are applied here at once.
 */
import { loadQrels, loadQueries } from '../../lib/storage/collections.ts';
import { database } from '../../lib/storage/db.ts';
import type { JudgmentChange } from '../../lib/storage/judgments.ts';
import type { Qrels, Query } from '../../lib/types.ts';
import { notices } from '../shell/notices.svelte.ts';

class OpenCollection {
  /** The collection and split the lists below belong to. */
  collectionId = $state<string | null>(null);
  split = $state<string | null>(null);
  queries = $state.raw<Query[]>([]);
  byId = $state.raw<ReadonlyMap<string, Query>>(new Map());
  /** Judgments of the split; undefined when the collection has none for it. */
  qrels = $state.raw<Qrels | undefined>(undefined);
  loading = $state(false);
  /**
   * The query the address names, read on its own while the lists load: the columns rank it without waiting
   * for a large collection's queries and judgments (its metrics follow with the judgments).
   */
  early = $state.raw<{ collectionId: string; query: Query } | null>(null);
  #version = 0;

  /** Loads queries and judgments of a collection and split (no-op when they are loaded); `wanted` first. */
  async load(collectionId: string, split: string, wanted: string | null = null): Promise<void> {
    if (this.collectionId === collectionId && this.split === split) return;
    const version = ++this.#version;
    this.loading = true;
    try {
      const db = database();
      if (wanted !== null && this.collectionId !== collectionId) {
        void db.queries.get([collectionId, wanted]).then(
          (row) => {
            if (row !== undefined && version === this.#version && this.loading) this.early = { collectionId, query: { id: row.id, text: row.text } };
          },
          () => undefined,
        );
      }
      const [queries, qrels] = await Promise.all([
        this.collectionId === collectionId ? Promise.resolve(this.byId) : loadQueries(db, collectionId),
        loadQrels(db, collectionId, split),
      ]);
      if (version !== this.#version) return;
      this.byId = queries;
      this.queries = [...queries.values()];
      this.qrels = qrels;
      this.collectionId = collectionId;
      this.split = split;
    } catch (error) {
      if (version === this.#version) notices.error(error);
    } finally {
      if (version === this.#version) {
        this.loading = false;
        this.early = null;
      }
    }
  }

  /** Reads the queries and judgments again (after an import into the split, or a new judgment set). */
  async reload(collectionId: string, split: string): Promise<void> {
    this.collectionId = null;
    this.split = null;
    await this.load(collectionId, split);
  }

  /**
   * A judgment made or undone in the page, applied to the loaded judgments at once (the database has it
   * already); false when they are of another collection or split.
   */
  applyJudgment(collectionId: string, split: string, change: JudgmentChange): boolean {
    if (this.collectionId !== collectionId || this.split !== split) return false;
    const next: Qrels = new Map(this.qrels ?? []);
    const docs = new Map(next.get(change.queryId) ?? []);
    if (change.grade === null) docs.delete(change.docId);
    else docs.set(change.docId, change.grade);
    // As loadQrels reads them: a query without a judgment is not in the qrels.
    if (docs.size === 0) next.delete(change.queryId);
    else next.set(change.queryId, docs);
    this.qrels = next;
    return true;
  }

  /** A query added or changed in the page (added ones go last, as they are stored). */
  putQuery(collectionId: string, query: Query): void {
    if (this.collectionId !== collectionId) return;
    const byId = new Map(this.byId);
    byId.set(query.id, query);
    this.byId = byId;
    this.queries = [...byId.values()];
  }

  /** A query deleted in the page, with its judgments. */
  removeQuery(collectionId: string, queryId: string): void {
    if (this.collectionId !== collectionId) return;
    const byId = new Map(this.byId);
    byId.delete(queryId);
    this.byId = byId;
    this.queries = [...byId.values()];
    if (this.qrels?.has(queryId)) {
      const next = new Map(this.qrels);
      next.delete(queryId);
      this.qrels = next;
    }
  }

  judgmentsOf(queryId: string | null): ReadonlyMap<string, number> | undefined {
    return queryId === null ? undefined : this.qrels?.get(queryId);
  }

  /** Queries of the split's judgments, in file order. */
  get judgedQueries(): Query[] {
    const qrels = this.qrels;
    return qrels === undefined ? [] : this.queries.filter((query) => qrels.has(query.id));
  }
}

export const openCollection = new OpenCollection();
