/**
 * The Explore view's own state: the query and the hit whose detail is open (the columns are shared with
 * Evaluate: columns/columns.svelte.ts). The URL mirrors the query (url-sync.svelte.ts). Values are
 * replaced, never mutated, so every change is one assignment the URL and the column runs can follow.
 */
import { columnList } from '../columns/columns.svelte.ts';
import type { UrlQuery } from '../url-state.ts';

/**
 * The query: a stored query (`id`) as written (`text` null) or edited (`text` set — its judgments still
 * apply), or typed text (`id` null).
 */
export interface ExploreQuery {
  id: string | null;
  text: string | null;
}

class ExploreState {
  query = $state.raw<ExploreQuery>({ id: null, text: null });
  /** The hit whose detail is open: which column it was opened from, which document. */
  detail = $state.raw<{ columnId: string; docId: string } | null>(null);
  /** Next, previous and random go through judged queries only. */
  judgedOnly = $state(true);
  /** Hits shown per column. */
  shown = $state(10);

  /** The query changed: the columns' edited terms, made for the previous one, no longer apply. */
  #queryChanged(): void {
    columnList.clearTermEdits();
  }

  selectQuery(id: string): void {
    this.query = { id, text: null };
    this.detail = null;
    this.#queryChanged();
  }

  /** Text typed into the query box: edits the stored query (or clears the edit), or sets typed text. */
  typeText(text: string, storedText: string | undefined): void {
    const { id } = this.query;
    const next = id !== null && storedText !== undefined ? { id, text: text === storedText ? null : text } : { id: null, text };
    if (next.id !== this.query.id || next.text !== this.query.text) this.#queryChanged();
    this.query = next;
  }

  /** Back to the stored query's own text. */
  resetEdit(): void {
    if (this.query.id !== null && this.query.text !== null) {
      this.query = { id: this.query.id, text: null };
      this.#queryChanged();
    }
  }

  /** Typed text from now on (the box is emptied). */
  typeOwn(): void {
    this.query = { id: null, text: '' };
    this.detail = null;
    this.#queryChanged();
  }

  openDetail(columnId: string, docId: string): void {
    this.detail = { columnId, docId };
  }

  closeDetail(): void {
    this.detail = null;
  }

  /** The query as the URL holds it. */
  get urlQuery(): UrlQuery {
    const { id, text } = this.query;
    const query: UrlQuery = {};
    if (id !== null) query.id = id;
    if (text !== null) query.text = text;
    return query;
  }

  applyUrlQuery(query: UrlQuery): void {
    const next: ExploreQuery = { id: query.id ?? null, text: query.text ?? null };
    if (next.id !== this.query.id || next.text !== this.query.text) {
      this.query = next;
      this.detail = null;
      this.#queryChanged();
    }
  }
}

export const explore = new ExploreState();
