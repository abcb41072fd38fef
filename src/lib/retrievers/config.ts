/**
 * What a retriever column is, as plain data: it travels in the URL (shareable links), is stored with runs,
 * and keys every cache (BM25 indexes, embedding matrices, rankings). Fusion columns carry their own BM25 and
 * dense settings, so removing or editing another column never breaks them; engines share the work when two
 * columns ask for the same settings.
 */
import type { Bm25AnalyzerName } from '../analysis/analyzers.ts';
import { LANGUAGES, type Language } from '../analysis/language.ts';
import { ANSERINI_BM25_PARAMS, type Bm25Params } from '../bm25/bm25-similarity.ts';
import type { EmbeddingDtype } from '../dense/registry.ts';
import type { Normalization } from '../fusion/normalize.ts';
import { ANSERINI_RM3_PARAMS } from '../prf/rm3.ts';
import { TERRIER_BO1_PARAMS } from '../prf/bo1.ts';
import { DEFAULT_RERANKER, resolveRerankerSpec } from '../rerank/registry.ts';

/** A BM25 part of a column: the scoring parameters and the analyzer of its index. */
export interface Bm25Settings extends Bm25Params {
  /** `wordpiece` (BERT WordPiece tokens, the query-augmentation paper's "BM25 (Ours)") loads a vocabulary first. */
  analyzer: Bm25AnalyzerName;
}

export type DeviceChoice = 'auto' | 'webgpu' | 'wasm';

export interface HnswSettings {
  M: number;
  efConstruction: number;
  efSearch: number;
}

export interface DenseSettings {
  /** Model registry id, any hub id, or `local/<name>`. */
  model: string;
  device: DeviceChoice;
  dtype: EmbeddingDtype;
  search: 'exact' | 'hnsw';
  hnsw: HnswSettings;
}

/** The cross-encoder of a Re-rank column. */
export interface RerankSettings {
  /** Re-rank registry id (src/lib/rerank/registry.ts), any hub cross-encoder, or `local/<name>`. */
  model: string;
  dtype: EmbeddingDtype;
  device: DeviceChoice;
}

/**
 * A trained query-augmentation model (src/lib/augment), by reference: the weights are held by whoever
 * ranks (the CLI's search, the page's store), keyed by `key`, a fingerprint of the model file.
 */
export interface AugmenterRef {
  key: string;
  /** The model's name (its file, or what the person called it). */
  name: string;
  /** The collection and the judged split that trained it: shown wherever the model is. */
  collection: string;
  split: string;
}

/** Every retriever but Re-rank: what a Re-rank column's first stage can be. */
export type FirstStageConfig =
  | { kind: 'bm25'; bm25: Bm25Settings }
  /** BM25 + RM3 pseudo-relevance feedback (Anserini's Rm3Reranker). */
  | { kind: 'rm3'; bm25: Bm25Settings; fbTerms: number; fbDocs: number; originalQueryWeight: number }
  /** BM25 + Bo1 query expansion (Terrier's). */
  | { kind: 'bo1'; bm25: Bm25Settings; fbTerms: number; fbDocs: number }
  | { kind: 'dense'; dense: DenseSettings }
  /** LaPraDoR LEDR: dense cosine × BM25 over the BM25 top `k`. */
  | { kind: 'ledr'; bm25: Bm25Settings; dense: DenseSettings; k: number }
  | { kind: 'rrf'; bm25: Bm25Settings; dense: DenseSettings; k: number }
  /** alpha · BM25 + (1 − alpha) · dense over normalized scores. */
  | { kind: 'convex'; bm25: Bm25Settings; dense: DenseSettings; alpha: number; normalization: Exclude<Normalization, 'none'> }
  /** BM25 over the weighted bag a trained model makes of the query (the paper's eq. 1): weights and added terms. */
  | { kind: 'augmented'; bm25: Bm25Settings; augmenter: AugmenterRef }
  /** An imported TREC run, stored in the `runs` table under `runKey`. */
  | { kind: 'run'; runKey: string; name: string };

export type RetrieverConfig =
  | FirstStageConfig
  /**
   * A cross-encoder re-ranks the top `depth` of its own first stage (a copy of another column's settings, so
   * editing or removing that column never breaks this one).
   */
  | { kind: 'rerank'; firstStage: FirstStageConfig; depth: number; rerank: RerankSettings };

export type RetrieverKind = RetrieverConfig['kind'];
export type FirstStageKind = FirstStageConfig['kind'];

export interface ColumnConfig {
  /** Stable within a page (for keyed lists and reordering); not part of cache keys. */
  id: string;
  retriever: RetrieverConfig;
  /**
   * Set on a column added by Tune: the split and measure that chose its settings, and those settings' key
   * (settings-key.ts): once the column's settings are edited, it is no longer the tuned column.
   */
  tuned?: { split: string; metric: string; settings: string };
}

export const DEFAULT_BM25: Readonly<Bm25Settings> = Object.freeze({ ...ANSERINI_BM25_PARAMS, analyzer: 'english' });

export const DEFAULT_HNSW: Readonly<HnswSettings> = Object.freeze({ M: 16, efConstruction: 200, efSearch: 128 });

export const DEFAULT_DENSE: Readonly<DenseSettings> = Object.freeze({
  model: 'local/glove-100d-sif',
  device: 'auto',
  dtype: 'q8',
  search: 'exact',
  hnsw: DEFAULT_HNSW,
});

/** Re-rank columns: first-stage hits re-ranked per query by default (BEIR re-ranks the BM25 top 100). */
export const DEFAULT_RERANK_DEPTH = 100;

/** The cross-encoder settings of a new Re-rank column: the registry's default model in its default dtype. */
export function defaultRerankSettings(model: string = DEFAULT_RERANKER): RerankSettings {
  return { model, dtype: resolveRerankerSpec(model).defaultDtype, device: 'auto' };
}

/** Hits kept per query and column: Pyserini's and BEIR's run depth, so dashboard figures equal the CLI's. */
export const RUN_DEPTH = 1000;

/**
 * The multilingual model new dense columns get on a non-English collection when the hub can be reached
 * (it is downloaded); offline they keep the built-in GloVe model, whose settings panel then says it is
 * English-only.
 */
export const MULTILINGUAL_DENSE_MODEL = 'Xenova/multilingual-e5-small';

/** What the defaults depend on: the open collection's language, and whether models can be downloaded. */
export interface RetrieverContext {
  language?: Language;
  online?: boolean;
}

/**
 * A retriever of each kind with default settings: BM25 with the collection language's analyzer, dense with
 * the built-in model (English) or, for another language when online, the multilingual model.
 */
export function defaultRetriever(kind: 'bm25', context?: RetrieverContext): Extract<RetrieverConfig, { kind: 'bm25' }>;
export function defaultRetriever(kind: Exclude<RetrieverKind, 'run' | 'augmented'>, context?: RetrieverContext): RetrieverConfig;
export function defaultRetriever(kind: Exclude<RetrieverKind, 'run' | 'augmented'>, context: RetrieverContext = {}): RetrieverConfig {
  const language = context.language ?? 'en';
  const bm25 = { ...DEFAULT_BM25, analyzer: LANGUAGES[language].analyzer };
  const model = language !== 'en' && context.online === true ? MULTILINGUAL_DENSE_MODEL : DEFAULT_DENSE.model;
  const dense = { ...DEFAULT_DENSE, model, hnsw: { ...DEFAULT_HNSW } };
  switch (kind) {
    case 'bm25':
      return { kind, bm25 };
    case 'dense':
      return { kind, dense };
    case 'ledr':
      return { kind, bm25, dense, k: 1000 };
    case 'rrf':
      return { kind, bm25, dense, k: 60 };
    case 'convex':
      return { kind, bm25, dense, alpha: 0.5, normalization: 'min-max' };
    case 'rm3':
      return { kind, bm25, fbTerms: ANSERINI_RM3_PARAMS.fbTerms, fbDocs: ANSERINI_RM3_PARAMS.fbDocs, originalQueryWeight: ANSERINI_RM3_PARAMS.originalQueryWeight };
    case 'bo1':
      return { kind, bm25, fbTerms: TERRIER_BO1_PARAMS.fbTerms, fbDocs: TERRIER_BO1_PARAMS.fbDocs };
    case 'rerank':
      return { kind, firstStage: { kind: 'bm25', bm25 }, depth: DEFAULT_RERANK_DEPTH, rerank: defaultRerankSettings() };
  }
}

/** A short human name, e.g. `BM25 (k1 0.9, b 0.4)` or `LEDR (K 1000)`. */
export function retrieverLabel(config: RetrieverConfig): string {
  const analyzer = (settings: Bm25Settings) => (settings.analyzer === DEFAULT_BM25.analyzer ? '' : `, ${settings.analyzer}`);
  switch (config.kind) {
    case 'bm25':
      return `BM25 (k1 ${config.bm25.k1}, b ${config.bm25.b}${analyzer(config.bm25)})`;
    case 'rm3':
      return `RM3 (${config.fbTerms} terms, ${config.fbDocs} docs, w ${config.originalQueryWeight}${analyzer(config.bm25)})`;
    case 'bo1':
      return `Bo1 (${config.fbTerms} terms, ${config.fbDocs} docs${analyzer(config.bm25)})`;
    case 'rerank':
      return `Re-rank ${config.depth}: ${config.rerank.model.split('/').pop()} over ${retrieverLabel(config.firstStage)}`;
    case 'dense':
      return `Dense: ${config.dense.model.split('/').pop()}${config.dense.search === 'hnsw' ? ' (HNSW)' : ''}`;
    case 'ledr':
      return `LEDR (K ${config.k})`;
    case 'rrf':
      return `RRF (k ${config.k})`;
    case 'convex':
      return `Convex (α ${config.alpha}, ${config.normalization})`;
    case 'augmented':
      return `Augmented BM25: ${config.augmenter.name} (trained on ${config.augmenter.collection} ${config.augmenter.split}${analyzer(config.bm25)})`;
    case 'run':
      return `Run: ${config.name}`;
  }
}

/** The BM25 and dense settings a retriever needs built (its index and its corpus vectors). */
export interface PreparedSettings {
  bm25?: Bm25Settings;
  dense?: DenseSettings;
  /** A Re-rank column's cross-encoder. */
  rerank?: RerankSettings;
}

/**
 * What must be prepared before `retriever` can rank. LEDR scores BM25's candidates one by one and never
 * searches the dense side, so it needs no HNSW graph whatever its dense search setting says.
 */
export function preparedSettings(retriever: RetrieverConfig): PreparedSettings {
  switch (retriever.kind) {
    case 'bm25':
    case 'rm3':
    case 'bo1':
    case 'augmented':
      return { bm25: retriever.bm25 };
    case 'dense':
      return { dense: retriever.dense };
    case 'rerank':
      return { ...preparedSettings(retriever.firstStage), rerank: retriever.rerank };
    case 'ledr':
      return { bm25: retriever.bm25, dense: { ...retriever.dense, search: 'exact' } };
    case 'rrf':
    case 'convex':
      return { bm25: retriever.bm25, dense: retriever.dense };
    case 'run':
      return {};
  }
}
