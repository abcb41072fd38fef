/**
 * What the retrieval engine needs from the workers, as interfaces: the page wires them to real workers
 * (bm25-workers.ts, dense-workers.ts, src/lib/storage/runs.ts), unit tests to in-memory fakes. Every call that
 * builds something takes an AbortSignal and reports progress; searches are fast and are not cancelled.
 */
import type { RowRanking } from '../../lib/hits/row-ranking.ts';
import type { Bm25AnalyzerName as AnalyzerName } from '../../lib/analysis/analyzers.ts';
import type { IndexInfo, IndexProgress } from '../../lib/services/bm25-service.ts';
import type { Bm25Explanation } from '../../lib/bm25/bm25-explain.ts';
import type { QueryTermWeight } from '../../lib/bm25/bm25-query.ts';
import type { Bm25Params } from '../../lib/bm25/bm25-similarity.ts';
import type { PrfRequest } from '../../lib/prf/prf-request.ts';
import type { DenseProgress } from '../../lib/services/dense-corpus-service.ts';
import type { PrfResult } from '../../lib/prf/prf-result.ts';
import type { AugmenterRef, DenseSettings, RerankSettings } from '../../lib/retrievers/config.ts';
import type { Hit, Run } from '../../lib/types.ts';
import type { Candidates } from '../../lib/hits/packed-hits.ts';
import type { ExpandedTerm, RankQuery } from '../../lib/retrievers/ranking.ts';

export interface Bm25SearchParams extends Bm25Params {
  /** Hits per query. */
  k: number;
}

/** BM25 indexes, one per collection and analyzer (built or loaded by a worker, persisted in IndexedDB). */
export interface Bm25Backend {
  /** Loads the stored index or builds (and stores) it. Rejects with an AbortError when `signal` aborts. */
  open(collectionId: string, analyzer: AnalyzerName, onProgress: (progress: IndexProgress) => void, signal: AbortSignal): Promise<IndexInfo>;
  /** Starts the analyzer's worker and its WebAssembly kernel ahead of any collection (first-visit speed). */
  warm(analyzer: AnalyzerName): void;
  /** Top-k hits of each query, in the order given (the index must be open); a query's `weighted` bag, when given, replaces its text. */
  search(collectionId: string, analyzer: AnalyzerName, queries: readonly RankQuery[], params: Bm25SearchParams): Promise<Hit[][]>;
  /** `search` as rankings of rows (row-ranking.ts), for evaluations (absent: they make hits). */
  searchRows?(collectionId: string, analyzer: AnalyzerName, queries: readonly RankQuery[], params: Bm25SearchParams): Promise<RowRanking[]>;
  /** Lucene's explanation of one document's score, term by term, for query text or a weighted bag. */
  explain(collectionId: string, analyzer: AnalyzerName, query: string | readonly QueryTermWeight[], docId: string, params: Bm25Params): Promise<Bm25Explanation>;
  /** RM3 or Bo1 of each query (src/lib/prf): its expanded weighted query, feedback documents and top-k hits. */
  searchPrf(collectionId: string, analyzer: AnalyzerName, queries: readonly RankQuery[], prf: PrfRequest, params: Bm25SearchParams): Promise<PrfResult[]>;
}

/** Progress of opening a dense corpus (defined with the service that reports it, in the worker). */
export type { DenseProgress };

export interface DenseOpenInfo {
  model: string;
  /** The device the model runs on (after any WebGPU → WASM fallback). */
  device: string;
  /** onnxruntime's WASM threads, when the device is WASM. */
  threads?: number;
  dtype: string;
  dim: number;
  docs: number;
  /** Corpus vectors came from the IndexedDB embedding cache (nothing embedded now). */
  fromCache: boolean;
  /** Time to embed the corpus now (0 when cached). */
  embedMs: number;
  docsPerSecond?: number;
  /** Why WebGPU was abandoned, when the model fell back to WASM. */
  fallbackReason?: string;
  hnsw?: { source: 'stored' | 'built'; ms: number };
}

/** Dense retrieval: a model per (model, device, dtype), a corpus matrix per collection. */
export interface DenseBackend {
  /** Loads the model, the corpus vectors (cache or embedding) and, for HNSW search, the graph. */
  open(collectionId: string, settings: DenseSettings, onProgress: (progress: DenseProgress) => void, signal: AbortSignal): Promise<DenseOpenInfo>;
  /** Starts the model's worker and loads the model ahead of any collection (first-visit speed); failures show on open. */
  warm(settings: DenseSettings): void;
  /** Starts loading a model that loads only when needed (a static table): text is about to be typed. */
  loadModel(settings: DenseSettings): void;
  /** Top-k documents of each query text by the model's similarity (exact or HNSW as `settings.search`). */
  search(collectionId: string, settings: DenseSettings, texts: readonly string[], k: number): Promise<Hit[][]>;
  /** Similarity of each query text to each of its candidate documents (aligned with `candidates[i]`; unknown ids give NaN). */
  score(collectionId: string, settings: DenseSettings, texts: readonly string[], candidates: Candidates): Promise<ArrayLike<number>[]>;
  /** `search` as rankings of rows (row-ranking.ts), for evaluations (absent: they make hits). */
  searchRows?(collectionId: string, settings: DenseSettings, texts: readonly string[], k: number): Promise<RowRanking[]>;
}

/** How a cross-encoder was opened. */
export interface RerankerOpenInfo {
  model: string;
  /** The device it runs on (after any WebGPU → WASM fallback). */
  device: string;
  dtype: string;
  /** Tokens per (query, document) pair. */
  maxLength: number;
  loadMs: number;
  fallbackReason?: string;
}

/** Progress of scoring one query's pairs: pairs done (cached ones count at once) of all. */
export interface RerankScoreProgress {
  done: number;
  total: number;
  cached: number;
}

/** Cross-encoders of Re-rank columns: one per (model, device, dtype), texts read from the collection. */
export interface RerankBackend {
  /** Loads the model (downloading its files when they are not cached). */
  open(settings: RerankSettings, onDownload: (progress: { file: string; loaded: number; total: number }) => void, signal: AbortSignal): Promise<RerankerOpenInfo>;
  /**
   * Scores of (query, document) for each id, aligned with `docIds`; cached per (model, query, document).
   * Rejects with an AbortError when `signal` aborts (the model stops between two batches).
   */
  score(
    collectionId: string,
    settings: RerankSettings,
    query: string,
    docIds: readonly string[],
    options?: { signal?: AbortSignal; onProgress?: (progress: RerankScoreProgress) => void },
  ): Promise<Float32Array>;
}

/** Trained query-augmentation models applied to query texts (Augmented BM25 columns). */
export interface AugmentBackend {
  /** The weighted bag of each text under the stored model `augmenter` names, for a column whose BM25 uses `analyzer`. */
  expand(augmenter: AugmenterRef, analyzer: AnalyzerName, texts: readonly string[]): Promise<ExpandedTerm[][]>;
  /** Drops what was loaded of a model (it was deleted). */
  forget(key: string): void;
}

/** Imported TREC runs (the `runs` table). */
export interface RunBackend {
  /** The run stored under `runKey` for this collection, or undefined when this browser does not hold it. */
  load(collectionId: string, runKey: string): Promise<Run | undefined>;
}

/** The slice of the jobs tray the engine uses (src/app/shell/jobs.svelte.ts). */
export interface JobSink {
  start(title: string, options?: { unit?: string; total?: number; cancellable?: boolean }): EngineJob;
}

export interface EngineJob {
  readonly signal: AbortSignal;
  progress(done: number, total?: number, detail?: string): void;
  finish(detail?: string): void;
  fail(error: unknown): void;
}
