/**
 * What a dense column's worker does once its model is loaded (dense.worker.ts), as a plain class so Node
 * tests can drive it with a fake embedder and fake-indexeddb:
 *
 * - `open` gets the corpus vectors of a collection: from the embedding cache (IndexedDB) when vectors of
 *   this model, dtype and collection content are stored, otherwise it reads the documents from IndexedDB
 *   itself (the page never holds the corpus), embeds them with progress and cancellation, and stores them.
 *   For HNSW search it loads the saved graph of these vectors and build settings, or builds and saves it.
 * - `search` ranks query texts by the model's similarity (exact, or HNSW with a live efSearch); `score`
 *   gives the similarity of given candidates (LEDR scores BM25's candidates only).
 *
 * The cache key names the collection's content by its id, creation time and size (an import is immutable:
 * a re-import gets a new creation time), so a reload finds the vectors without reading a document.
 */
import type { EmbedProgress } from '../../lib/dense/batching.ts';
import type { Embedder } from '../../lib/dense/embedder.ts';
import { embeddingKey, type EmbeddingStore } from '../../lib/dense/embedding-store.ts';
import { passageText, queryText } from '../../lib/dense/embedding-text.ts';
import { exactSearch, rowIndex } from '../../lib/dense/exact-search.ts';
import { HnswIndex } from '../../lib/dense/hnsw-index.ts';
import { decodeMatrix, encodeMatrix } from '../../lib/dense/vector-codec.ts';
import { dot, matrixRow, type VectorMatrix } from '../../lib/dense/vector-matrix.ts';
import type { HnswSettings } from '../../lib/retrievers/config.ts';
import { readDocumentBatches } from '../../lib/storage/collections.ts';
import type { PlaygroundDatabase } from '../../lib/storage/db.ts';
import type { Hit } from '../../lib/types.ts';
import type { DenseProgress } from './backends.ts';

export interface DenseCorpusRequest {
  collectionId: string;
  search: 'exact' | 'hnsw';
  hnsw: HnswSettings;
}

export interface DenseCorpusInfo {
  dim: number;
  docs: number;
  fromCache: boolean;
  embedMs: number;
  docsPerSecond?: number;
  hnsw?: { source: 'stored' | 'built'; ms: number };
}

export interface DenseSearchOptions {
  search: 'exact' | 'hnsw';
  hnsw: HnswSettings;
}

/** Saved HNSW graphs (hnswlib-wasm's IndexedDB-backed file system); absent: graphs are rebuilt per worker. */
export interface HnswFiles {
  load(filename: string, dim: number, params: HnswSettings): Promise<HnswIndex | undefined>;
  save(index: HnswIndex, filename: string): Promise<void>;
}

export interface DenseCorpusServiceOptions {
  db: PlaygroundDatabase;
  store: EmbeddingStore;
  embedder: Embedder;
  hnswFiles?: HnswFiles;
  /** Documents read from IndexedDB per step (default 1000). */
  batchSize?: number;
  /** Query vectors kept (default 512). */
  queryCacheSize?: number;
}

interface Corpus {
  /** The cache key of the vectors (names collection content, model and settings). */
  key: string;
  ids: string[];
  rowOf: Map<string, number>;
  vectors: VectorMatrix;
  graphs: Map<string, HnswIndex>;
}

/** FNV-1a of a string as 8 hex digits: a short file name for a long key. */
function hashKey(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, '0');
}

function isZero(vector: Float32Array): boolean {
  for (const x of vector) if (x !== 0) return false;
  return true;
}

export class DenseCorpusService {
  private readonly corpora = new Map<string, Corpus>();
  private readonly loading = new Map<string, Promise<{ corpus: Corpus; info: DenseCorpusInfo }>>();
  private readonly queryVectors = new Map<string, Float32Array>();
  private readonly running = new Set<AbortController>();

  constructor(private readonly options: DenseCorpusServiceOptions) {}

  private get embedder(): Embedder {
    return this.options.embedder;
  }

  /** The embedding-cache key of a collection's corpus vectors with this model. */
  private async corpusKey(collectionId: string): Promise<{ key: string; docCount: number }> {
    const row = await this.options.db.collections.get(collectionId);
    if (row === undefined || row.status !== 'ready') throw new Error(`collection "${collectionId}" is not stored in this browser`);
    const { spec, dtype } = this.embedder;
    const key = embeddingKey({
      dataset: `${collectionId}@${row.createdAt}:${row.docCount}`,
      part: 'corpus',
      model: spec.id,
      dtype,
      settings: spec,
      encoding: 'f32',
    });
    return { key, docCount: row.docCount };
  }

  /** Loads or computes the corpus vectors (and the HNSW graph when asked). */
  async open(request: DenseCorpusRequest, onProgress?: (progress: DenseProgress) => void, signal?: AbortSignal): Promise<DenseCorpusInfo> {
    const controller = new AbortController();
    this.running.add(controller);
    const stop = () => controller.abort(signal?.reason);
    if (signal?.aborted) stop();
    signal?.addEventListener('abort', stop);
    try {
      const { corpus, info } = await this.corpusOf(request.collectionId, onProgress, controller.signal);
      const result = { ...info };
      if (request.search === 'hnsw') result.hnsw = await this.openGraph(corpus, request.hnsw, onProgress, controller.signal);
      return result;
    } finally {
      signal?.removeEventListener('abort', stop);
      this.running.delete(controller);
    }
  }

  /** Stops every embedding and graph build in progress (their `open` rejects with an AbortError). */
  cancel(): void {
    for (const controller of this.running) controller.abort(new DOMException('embedding cancelled', 'AbortError'));
  }

  /**
   * The open corpus of a collection, or one loading now (two columns of the same model share the work;
   * the first caller's progress and signal drive it).
   */
  private async corpusOf(
    collectionId: string,
    onProgress: ((progress: DenseProgress) => void) | undefined,
    signal: AbortSignal,
  ): Promise<{ corpus: Corpus; info: DenseCorpusInfo }> {
    const { key, docCount } = await this.corpusKey(collectionId);
    const open = this.corpora.get(collectionId);
    if (open?.key === key) return { corpus: open, info: { dim: open.vectors.dim, docs: open.ids.length, fromCache: true, embedMs: 0 } };
    let loading = this.loading.get(key);
    if (loading === undefined) {
      loading = this.loadOrEmbed(collectionId, key, docCount, onProgress, signal).then(({ ids, vectors, info }) => {
        const corpus: Corpus = { key, ids, rowOf: rowIndex(ids), vectors, graphs: new Map() };
        this.corpora.set(collectionId, corpus);
        return { corpus, info };
      });
      const forget = () => this.loading.delete(key);
      loading.then(forget, forget);
      this.loading.set(key, loading);
    }
    return loading;
  }

  private async loadOrEmbed(
    collectionId: string,
    key: string,
    docCount: number,
    onProgress: ((progress: DenseProgress) => void) | undefined,
    signal: AbortSignal,
  ): Promise<{ ids: string[]; vectors: VectorMatrix; info: DenseCorpusInfo }> {
    const stored = await this.options.store.get(key);
    if (stored !== undefined && stored.ids.length === docCount) {
      const vectors = decodeMatrix(stored.matrix);
      return { ids: stored.ids, vectors, info: { dim: vectors.dim, docs: docCount, fromCache: true, embedMs: 0 } };
    }
    const { spec } = this.embedder;
    const ids: string[] = [];
    const texts: string[] = [];
    onProgress?.({ phase: 'reading', done: 0, total: docCount });
    for await (const rows of readDocumentBatches(this.options.db, collectionId, { batchSize: this.options.batchSize ?? 1000, signal })) {
      for (const row of rows) {
        ids.push(row.id);
        texts.push(passageText(row, spec));
      }
      onProgress?.({ phase: 'reading', done: ids.length, total: docCount });
    }
    signal.throwIfAborted();
    const started = performance.now();
    const vectors = await this.embedder.embed(texts, {
      signal,
      onProgress: (p: EmbedProgress) => onProgress?.({ phase: 'embedding', done: p.done, total: p.total, docsPerSecond: p.docsPerSecond }),
    });
    const embedMs = performance.now() - started;
    signal.throwIfAborted();
    await this.options.store.put({ key, ids, matrix: encodeMatrix(vectors, 'f32'), createdAt: Date.now() });
    const docsPerSecond = embedMs > 0 ? (ids.length * 1000) / embedMs : undefined;
    return { ids, vectors, info: { dim: vectors.dim, docs: ids.length, fromCache: false, embedMs, ...(docsPerSecond === undefined ? {} : { docsPerSecond }) } };
  }

  private graphKey(corpus: Corpus, hnsw: HnswSettings): string {
    return `${corpus.key}|hnsw|M${hnsw.M}|efc${hnsw.efConstruction}`;
  }

  private async openGraph(
    corpus: Corpus,
    hnsw: HnswSettings,
    onProgress: ((progress: DenseProgress) => void) | undefined,
    signal: AbortSignal,
  ): Promise<{ source: 'stored' | 'built'; ms: number }> {
    const started = performance.now();
    const key = this.graphKey(corpus, hnsw);
    if (corpus.graphs.has(key)) return { source: 'stored', ms: 0 };
    const filename = `rp-${hashKey(key)}-${corpus.ids.length}.hnsw`;
    const files = this.options.hnswFiles;
    const stored = await files?.load(filename, corpus.vectors.dim, hnsw);
    if (stored !== undefined && stored.size === corpus.ids.length) {
      corpus.graphs.set(key, stored);
      return { source: 'stored', ms: performance.now() - started };
    }
    stored?.dispose();
    signal.throwIfAborted();
    // hnswlib builds in one wasm call: progress can only say it started and ended.
    onProgress?.({ phase: 'hnsw', done: 0, total: corpus.ids.length });
    const index = await HnswIndex.build(corpus.vectors, { M: hnsw.M, efConstruction: hnsw.efConstruction, efSearch: hnsw.efSearch });
    onProgress?.({ phase: 'hnsw', done: corpus.ids.length, total: corpus.ids.length });
    corpus.graphs.set(key, index);
    await files?.save(index, filename);
    return { source: 'built', ms: performance.now() - started };
  }

  private corpus(collectionId: string): Corpus {
    const corpus = this.corpora.get(collectionId);
    if (corpus === undefined) throw new Error(`no corpus vectors are open for collection ${collectionId}: call open first`);
    return corpus;
  }

  /** Query vectors (prefixed as the model card says), cached by text. */
  async embedQueries(texts: readonly string[]): Promise<Float32Array[]> {
    const { spec } = this.embedder;
    const missing = [...new Set(texts.filter((text) => !this.queryVectors.has(text)))];
    if (missing.length > 0) {
      const matrix = await this.embedder.embed(missing.map((text) => queryText({ id: '', text }, spec)));
      missing.forEach((text, i) => this.queryVectors.set(text, matrixRow(matrix, i).slice()));
      const limit = this.options.queryCacheSize ?? 512;
      while (this.queryVectors.size > limit) this.queryVectors.delete(this.queryVectors.keys().next().value!);
    }
    return texts.map((text) => this.queryVectors.get(text)!);
  }

  /**
   * Top-k of each query text. A text the model cannot represent (a static model that knows none of its
   * words gives a zero vector) gets no hits rather than an arbitrary order of zeros.
   */
  async search(collectionId: string, texts: readonly string[], k: number, options: DenseSearchOptions): Promise<Hit[][]> {
    const corpus = this.corpus(collectionId);
    const vectors = await this.embedQueries(texts);
    let graph: HnswIndex | undefined;
    if (options.search === 'hnsw') {
      graph = corpus.graphs.get(this.graphKey(corpus, options.hnsw));
      if (graph === undefined) throw new Error('no HNSW index is open for these settings: call open first');
      graph.setEfSearch(options.hnsw.efSearch);
    }
    // HNSW explores a beam of efSearch candidates: asking hnswlib for more hits would widen the beam to k
    // (it searches with max(ef, k)), so the ranking stops at efSearch and efSearch stays what it says.
    const graphK = Math.min(k, options.hnsw.efSearch);
    return vectors.map((vector, i) => {
      if (texts[i]!.trim() === '' || isZero(vector)) return [];
      if (graph === undefined) return exactSearch(corpus.vectors, corpus.ids, vector, k);
      return graph.search(vector, graphK).map(({ row, score }) => ({ docId: corpus.ids[row]!, score }));
    });
  }

  /** Similarity of each text to each of its candidates (NaN for ids without a vector). */
  async score(collectionId: string, texts: readonly string[], candidates: readonly (readonly string[])[]): Promise<number[][]> {
    const corpus = this.corpus(collectionId);
    const vectors = await this.embedQueries(texts);
    return vectors.map((vector, i) =>
      (candidates[i] ?? []).map((docId) => {
        const row = corpus.rowOf.get(docId);
        return row === undefined ? Number.NaN : dot(matrixRow(corpus.vectors, row), vector);
      }),
    );
  }

  /** Frees the HNSW graphs' wasm memory. */
  dispose(): void {
    for (const corpus of this.corpora.values()) for (const graph of corpus.graphs.values()) graph.dispose();
    this.corpora.clear();
  }
}
