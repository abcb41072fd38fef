/**
 * The columns Explore shows and Evaluate evaluates: their retriever configurations, in order, and a BM25
 * column's edited query terms. The URL mirrors both (url-sync.svelte.ts). Values are replaced, never
 * mutated, so every change is one assignment the URL and the column runs can follow.
 */
import { languageCodes, type Language } from '../../lib/analysis/language.ts';
import { defaultRetriever, type ColumnConfig, type RetrieverConfig, type RetrieverContext, type RetrieverKind } from '../../lib/retrievers/config.ts';
import { settingsKey } from '../../lib/settings-key.ts';
import type { TunedBy } from '../url-state.ts';

export const DEFAULT_COLUMN_KINDS: readonly Exclude<RetrieverKind, 'run' | 'augmented'>[] = ['bm25', 'dense', 'ledr'];

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

class ColumnList {
  columns = $state.raw<ColumnConfig[]>(defaultColumns());
  /**
   * Query terms edited in a BM25 column's terms panel, by column id, as canonical weighted syntax
   * (`+term^w …`). An edit belongs to the query it was made for: any change of the query drops them all.
   */
  termEdits = $state.raw<ReadonlyMap<string, string>>(new Map());

  /** Sets (or with undefined, removes) a column's edited query terms. */
  setTermEdit(columnId: string, canonical: string | undefined): void {
    const edits = new Map(this.termEdits);
    if (canonical === undefined) edits.delete(columnId);
    else edits.set(columnId, canonical);
    this.termEdits = edits;
  }

  /** The query changed (Explore): edits made for the previous one no longer apply. */
  clearTermEdits(): void {
    if (this.termEdits.size > 0) this.termEdits = new Map();
  }

  /** Edited terms of the columns in order (the URL's form); undefined: that column has none. */
  get urlTermEdits(): Array<string | undefined> {
    return this.columns.map((column) => this.termEdits.get(column.id));
  }

  /** Applies the URL's edited terms to the columns in order. */
  applyUrlTermEdits(edits: readonly (string | undefined)[]): void {
    const next = new Map<string, string>();
    this.columns.forEach((column, i) => {
      const edit = edits[i];
      if (edit !== undefined && column.retriever.kind === 'bm25') next.set(column.id, edit);
    });
    const same = next.size === this.termEdits.size && [...next].every(([id, edit]) => this.termEdits.get(id) === edit);
    if (!same) this.termEdits = next;
  }

  /** The split and measure that tuned each column, in order, while its settings are still the tuned ones (the URL's form). */
  get urlTuned(): Array<TunedBy | undefined> {
    return this.columns.map(({ tuned, retriever }) => (tuned !== undefined && tuned.settings === settingsKey(retriever) ? { split: tuned.split, metric: tuned.metric } : undefined));
  }

  /** Marks the columns the URL says were tuned (their current settings are the tuned ones), in order. */
  applyUrlTuned(tunedBy: readonly (TunedBy | undefined)[]): void {
    const next = this.columns.map((column, i) => {
      const by = tunedBy[i];
      if (by === undefined) return column.tuned === undefined ? column : { id: column.id, retriever: column.retriever };
      const tuned = { ...by, settings: settingsKey(column.retriever) };
      return column.tuned !== undefined && settingsKey(column.tuned) === settingsKey(tuned) ? column : { ...column, tuned };
    });
    if (next.some((column, i) => column !== this.columns[i])) this.columns = next;
  }

  /**
   * Default columns follow the open collection's language (a Polish collection gets the Polish analyzer and,
   * online, a multilingual model); columns the person changed, or a link's own columns, stay as they are.
   */
  followLanguage(language: Language): void {
    const current = defaultColumnsLanguage(this.columns, languageCodes);
    if (current === undefined || current === language) return;
    this.setRetrievers(DEFAULT_COLUMN_KINDS.map((kind) => defaultRetriever(kind, { language, online: navigator.onLine })));
  }

  addColumn(retriever: RetrieverConfig): ColumnConfig {
    const column = newColumn(retriever);
    this.columns = [...this.columns, column];
    return column;
  }

  removeColumn(id: string): void {
    this.columns = this.columns.filter((column) => column.id !== id);
    if (this.termEdits.has(id)) this.setTermEdit(id, undefined);
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
    const before = this.columns.find((column) => column.id === id);
    this.columns = this.columns.map((column) => (column.id === id ? { ...column, retriever } : column));
    // Edited terms are index terms of the column's analyzer: another analyzer starts from the typed query.
    if (this.termEdits.has(id) && (retriever.kind !== 'bm25' || (before?.retriever.kind === 'bm25' && before.retriever.bm25.analyzer !== retriever.bm25.analyzer))) {
      this.setTermEdit(id, undefined);
    }
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
    if ([...this.termEdits.keys()].some((id) => !this.columns.some((column) => column.id === id))) {
      this.termEdits = new Map([...this.termEdits].filter(([id]) => this.columns.some((column) => column.id === id)));
    }
  }
}

export const columnList = new ColumnList();
