/**
 * Analyzers in the page, for highlighting a few documents and the query (the workers analyze the corpus), and
 * for parsing the weighted query syntax with a column's own analyzer.
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
import { collections } from '../collection/collections.svelte.ts';
import { notices } from '../shell/notices.svelte.ts';

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
  return LANGUAGES[collectionLanguage(collections.list.find((c) => c.id === collectionId))].analyzer;
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
