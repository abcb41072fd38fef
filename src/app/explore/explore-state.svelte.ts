/**
 * The Explore view's own state: its columns (retriever configurations, in order), the query and the hit
 * whose detail is open. The URL mirrors the columns and the query (url-sync.svelte.ts). Values are
 * replaced, never mutated, so every change is one assignment the URL and the column runs can follow.
 */
import type { Language } from '../../lib/analysis/language.ts';
import { defaultRetriever, settingsKey, type ColumnConfig, type RetrieverConfig, type RetrieverContext, type RetrieverKind } from '../../lib/retrievers/config.ts';
import type { UrlQuery } from '../url-state.ts';

/**
 * The query: a stored query (`id`) as written (`text` null) or edited (`text` set — its judgments still
 * apply), or typed text (`id` null).
 */
export interface ExploreQuery {
  id: string | null;
  text: string | null;
}

export const DEFAULT_COLUMN_KINDS: readonly Exclude<RetrieverKind, 'run'>[] = ['bm25', 'dense', 'ledr'];

let nextColumn = 1;

export function newColumn(retriever: RetrieverConfig): ColumnConfig {
  return { id: `col-${nextColumn++}`, retriever };
}

export function defaultColumns(context: RetrieverContext = {}): ColumnConfig[] {
  return DEFAULT_COLUMN_KINDS.map((kind) => newColumn(defaultRetriever(kind, context)));
}

/** Whether these are the default columns of some language (untouched by the person), and of which. */
export function defaultColumnsLanguage(columns: readonly ColumnConfig[], languages: readonly Language[]): Language | undefined {
  const key = settingsKey(columns.map((column) => column.retriever));
  return languages.find((language) =>
    [false, true].some((online) => settingsKey(DEFAULT_COLUMN_KINDS.map((kind) => defaultRetriever(kind, { language, online }))) === key),
  );
}

class ExploreState {
  columns = $state.raw<ColumnConfig[]>(defaultColumns());
  query = $state.raw<ExploreQuery>({ id: null, text: null });
  /** The hit whose detail is open: which column it was opened from, which document. */
  detail = $state.raw<{ columnId: string; docId: string } | null>(null);
  /** Next, previous and random go through judged queries only. */
  judgedOnly = $state(true);
  /** Hits shown per column. */
  shown = $state(10);

  addColumn(retriever: RetrieverConfig): ColumnConfig {
    const column = newColumn(retriever);
    this.columns = [...this.columns, column];
    return column;
  }

  removeColumn(id: string): void {
    this.columns = this.columns.filter((column) => column.id !== id);
    if (this.detail?.columnId === id) this.detail = null;
  }

  /** Moves a column by `delta` places (clamped to the ends). */
  moveColumn(id: string, delta: number): void {
    const from = this.columns.findIndex((column) => column.id === id);
    if (from < 0) return;
    this.moveColumnTo(id, from + delta);
  }

  moveColumnTo(id: string, to: number): void {
    const from = this.columns.findIndex((column) => column.id === id);
    const target = Math.max(0, Math.min(this.columns.length - 1, to));
    if (from < 0 || from === target) return;
    const columns = [...this.columns];
    const [column] = columns.splice(from, 1);
    columns.splice(target, 0, column!);
    this.columns = columns;
  }

  updateRetriever(id: string, retriever: RetrieverConfig): void {
    this.columns = this.columns.map((column) => (column.id === id ? { ...column, retriever } : column));
  }

  /**
   * Replaces the columns with these retrievers, keeping the ids of columns that stay in place with the same
   * kind (their rankings stay on screen while they update).
   */
  setRetrievers(retrievers: readonly RetrieverConfig[]): void {
    this.columns = retrievers.map((retriever, i) => {
      const current = this.columns[i];
      return current !== undefined && current.retriever.kind === retriever.kind ? { ...current, retriever } : newColumn(retriever);
    });
  }

  selectQuery(id: string): void {
    this.query = { id, text: null };
    this.detail = null;
  }

  /** Text typed into the query box: edits the stored query (or clears the edit), or sets typed text. */
  typeText(text: string, storedText: string | undefined): void {
    const { id } = this.query;
    this.query = id !== null && storedText !== undefined ? { id, text: text === storedText ? null : text } : { id: null, text };
  }

  /** Back to the stored query's own text. */
  resetEdit(): void {
    if (this.query.id !== null) this.query = { id: this.query.id, text: null };
  }

  /** Typed text from now on (the box is emptied). */
  typeOwn(): void {
    this.query = { id: null, text: '' };
    this.detail = null;
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
    }
  }
}

export const explore = new ExploreState();
