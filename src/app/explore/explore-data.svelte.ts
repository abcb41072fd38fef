/**
 * What the Explore view reads of the open collection: its queries (file order) and the judgments of the
 * current split — small — and documents only by id, for the hits on screen. The corpus is never loaded
 * into the page: the workers read it from IndexedDB themselves.
 */
import { SvelteMap } from 'svelte/reactivity';
import {
  analyzerReady,
  createAnalyzer,
  isAnalyzerName,
  loadableAnalyzers,
  prepareAnalyzer,
  type AnalyzerName,
  type Bm25AnalyzerName,
  type LoadableAnalyzerName,
} from '../../lib/analysis/analyzers.ts';
import type { Analyzer, Token } from '../../lib/analysis/analyzer.ts';
import { collectionLanguage, LANGUAGES } from '../../lib/analysis/language.ts';
import type { RetrieverConfig } from '../../lib/retrievers/config.ts';
import { getDocuments, loadQrels, loadQueries } from '../../lib/storage/collections.ts';
import { database } from '../../lib/storage/db.ts';
import type { JudgmentChange } from '../../lib/storage/judgments.ts';
import type { Doc, Qrels, Query } from '../../lib/types.ts';
import { datasets } from '../datasets/datasets.svelte.ts';
import { notices } from '../shell/notices.svelte.ts';

class ExploreData {
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

export const exploreData = new ExploreData();

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

/** Analyzers for highlighting, one per name (analysis of a few documents and the query, in the page). */
const pageAnalyzers = new Map<AnalyzerName, Analyzer>();

/** Bumped when an analyzer's data has loaded: highlights computed without it are computed again. */
let analyzersLoaded = $state(0);
const loadingAnalyzers = new Set<AnalyzerName>();

/** Highlights nothing: stands in for an analyzer whose data (the Polish table) is still loading. */
const NO_TERMS: Analyzer = { name: 'loading', analyze: () => [], analyzeWithOffsets: () => [] };

export function pageAnalyzer(name: AnalyzerName): Analyzer {
  let analyzer = pageAnalyzers.get(name);
  if (analyzer !== undefined) return analyzer;
  if (!analyzerReady(name)) {
    // Read so the caller's derived value follows the load.
    void analyzersLoaded;
    if (!loadingAnalyzers.has(name)) {
      loadingAnalyzers.add(name);
      prepareAnalyzer(name).then(
        () => (analyzersLoaded += 1),
        (error: unknown) => notices.error(error),
      );
    }
    return NO_TERMS;
  }
  pageAnalyzers.set(name, (analyzer = createAnalyzer(name)));
  return analyzer;
}

/** Loadable analyzers (WordPiece) in the page: loaded, or why not; absent while loading or not asked for. */
const loadedAnalyzers = new SvelteMap<LoadableAnalyzerName, Analyzer | Error>();
const loadingFiles = new Set<LoadableAnalyzerName>();

/**
 * A BM25 analyzer in the page, for parsing the weighted query syntax and the query terms panel with the
 * column's own analyzer. A built-in one is there at once (Polish once its table has loaded); a loadable one (WordPiece) first fetches its
 * data file, so this returns undefined until it arrives (reactively) — or an Error when it cannot.
 */
export function bm25PageAnalyzer(name: Bm25AnalyzerName): Analyzer | Error | undefined {
  if (isAnalyzerName(name)) {
    // The Polish table still loading: undefined, like a file still loading (not an analyzer without terms).
    const analyzer = pageAnalyzer(name);
    return analyzer === NO_TERMS ? undefined : analyzer;
  }
  const loaded = loadedAnalyzers.get(name);
  if (loaded === undefined && !loadingFiles.has(name)) {
    loadingFiles.add(name);
    const info = loadableAnalyzers[name];
    const url = `${import.meta.env.BASE_URL}${info.file}`;
    void fetch(url)
      .then(async (response) => {
        if (!response.ok) throw new Error(`HTTP ${response.status} for ${url}`);
        return info.create(await response.text());
      })
      .then(
        (analyzer) => loadedAnalyzers.set(name, analyzer),
        (error: unknown) => loadedAnalyzers.set(name, new Error(`The ${name} vocabulary could not be loaded: ${error instanceof Error ? error.message : String(error)}`)),
      )
      .finally(() => loadingFiles.delete(name));
  }
  return loaded;
}

/**
 * The analyzer that highlights a column's query terms: its BM25 analyzer, or for a column without BM25 the
 * analyzer of the collection's language; a Re-rank column's is its first stage's. WordPiece pieces do not
 * line up with words on screen, so a WordPiece column marks whole words (the standard analyzer: lower-cased
 * words, as WordPiece sees them before cutting).
 */
export function highlightAnalyzer(retriever: RetrieverConfig, collectionId: string | null): AnalyzerName {
  if (retriever.kind === 'rerank') return highlightAnalyzer(retriever.firstStage, collectionId);
  if ('bm25' in retriever) return isAnalyzerName(retriever.bm25.analyzer) ? retriever.bm25.analyzer : 'standard';
  return LANGUAGES[collectionLanguage(datasets.collections.find((c) => c.id === collectionId))].analyzer;
}

const tokenCache = new Map<string, Token[]>();

/** Tokens with offsets of a document field, memoized (documents on screen are analyzed once). */
export function tokensOf(analyzer: AnalyzerName, text: string): Token[] {
  const key = `${analyzer}\u0000${text}`;
  let tokens = tokenCache.get(key);
  if (tokens === undefined) {
    const page = pageAnalyzer(analyzer);
    tokens = page.analyzeWithOffsets(text);
    if (page === NO_TERMS) return tokens;
    if (tokenCache.size > 2000) tokenCache.clear();
    tokenCache.set(key, tokens);
  }
  return tokens;
}
