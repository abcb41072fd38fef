/**
 * What a retriever column is, as plain data: it travels in the URL (shareable links), is stored with runs,
 * and keys every cache (BM25 indexes, embedding matrices, rankings). Fusion columns carry their own BM25 and
 * dense settings, so removing or editing another column never breaks them; engines share the work when two
 * columns ask for the same settings.
 */
import type { AnalyzerName } from '../analysis/analyzers.ts';
import { LANGUAGES, type Language } from '../analysis/language.ts';
import type { EmbeddingDtype } from '../dense/registry.ts';
import type { Normalization } from '../fusion/normalize.ts';

export interface Bm25Settings {
  k1: number;
  b: number;
  analyzer: AnalyzerName;
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

export type RetrieverConfig =
  | { kind: 'bm25'; bm25: Bm25Settings }
  | { kind: 'dense'; dense: DenseSettings }
  /** LaPraDoR LEDR: dense cosine × BM25 over the BM25 top `k`. */
  | { kind: 'ledr'; bm25: Bm25Settings; dense: DenseSettings; k: number }
  | { kind: 'rrf'; bm25: Bm25Settings; dense: DenseSettings; k: number }
  /** alpha · BM25 + (1 − alpha) · dense over normalized scores. */
  | { kind: 'convex'; bm25: Bm25Settings; dense: DenseSettings; alpha: number; normalization: Exclude<Normalization, 'none'> }
  /** An imported TREC run, stored in the `runs` table under `runKey`. */
  | { kind: 'run'; runKey: string; name: string };

export type RetrieverKind = RetrieverConfig['kind'];

export interface ColumnConfig {
  /** Stable within a page (for keyed lists and reordering); not part of cache keys. */
  id: string;
  retriever: RetrieverConfig;
}

export const DEFAULT_BM25: Readonly<Bm25Settings> = Object.freeze({ k1: 0.9, b: 0.4, analyzer: 'english' });

export const DEFAULT_HNSW: Readonly<HnswSettings> = Object.freeze({ M: 16, efConstruction: 200, efSearch: 128 });

export const DEFAULT_DENSE: Readonly<DenseSettings> = Object.freeze({
  model: 'local/glove-100d-sif',
  device: 'auto',
  dtype: 'q8',
  search: 'exact',
  hnsw: DEFAULT_HNSW,
});

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
export function defaultRetriever(kind: Exclude<RetrieverKind, 'run'>, context: RetrieverContext = {}): RetrieverConfig {
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
  }
}

/** Canonical JSON (sorted keys) of a settings object: equal settings give equal keys. */
export function settingsKey(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(settingsKey).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${settingsKey(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** A short human name, e.g. `BM25 (k1 0.9, b 0.4)` or `LEDR (K 1000)`. */
export function retrieverLabel(config: RetrieverConfig): string {
  switch (config.kind) {
    case 'bm25':
      return `BM25 (k1 ${config.bm25.k1}, b ${config.bm25.b}${config.bm25.analyzer === DEFAULT_BM25.analyzer ? '' : `, ${config.bm25.analyzer}`})`;
    case 'dense':
      return `Dense: ${config.dense.model.split('/').pop()}${config.dense.search === 'hnsw' ? ' (HNSW)' : ''}`;
    case 'ledr':
      return `LEDR (K ${config.k})`;
    case 'rrf':
      return `RRF (k ${config.k})`;
    case 'convex':
      return `Convex (α ${config.alpha}, ${config.normalization})`;
    case 'run':
      return `Run: ${config.name}`;
  }
}

/** The BM25 and dense settings a retriever needs built (its index and its corpus vectors). */
export interface PreparedSettings {
  bm25?: Bm25Settings;
  dense?: DenseSettings;
}

/**
 * What must be prepared before `retriever` can rank. LEDR scores BM25's candidates one by one and never
 * searches the dense side, so it needs no HNSW graph whatever its dense search setting says.
 */
export function preparedSettings(retriever: RetrieverConfig): PreparedSettings {
  switch (retriever.kind) {
    case 'bm25':
      return { bm25: retriever.bm25 };
    case 'dense':
      return { dense: retriever.dense };
    case 'ledr':
      return { bm25: retriever.bm25, dense: { ...retriever.dense, search: 'exact' } };
    case 'rrf':
    case 'convex':
      return { bm25: retriever.bm25, dense: retriever.dense };
    case 'run':
      return {};
  }
}
