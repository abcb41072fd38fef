/**
 * Dense column worker (comlink): one embedding model on one device (workers/model-session.ts, with the
 * `load`/`embed`/`dispose` of workers/embed.worker.ts, so src/lib/dense/embedding-client.ts opens it with
 * the WebGPU → WASM fallback in a fresh worker), plus the corpus work of DenseCorpusService: documents
 * read from IndexedDB here, vectors from the embedding cache or embedded here, exact and HNSW search here.
 * Only query texts, hit lists and progress cross to the page. Every use of the model — corpus embedding,
 * query embedding, scoring — goes through the session's queue, one at a time.
 *
 * A Re-rank column's cross-encoder (src/lib/rerank) can live here too: `loadReranker` once (after `load`:
 * both set transformers.js's file source, and the embedding model has its files by then), then `rerank`
 * scores (query, [docId, text]) pairs with progress; `cancel` stops it between batches. Scores are cached
 * per (model, query, doc id) for the worker's life.
 */
import * as Comlink from 'comlink';
import type { DenseProgress } from '../src/app/engine/backends.ts';
import { DenseCorpusService, type DenseCorpusInfo, type DenseCorpusRequest, type DenseSearchOptions, type HnswFiles } from '../src/app/engine/dense-corpus.ts';
import type { EmbedProgress } from '../src/lib/dense/batching.ts';
import { HnswIndex, loadHnswlibModule } from '../src/lib/dense/hnsw-index.ts';
import { packedBuffers, type PackedCandidates } from '../src/lib/retrievers/packed-hits.ts';
import type { VectorMatrix } from '../src/lib/dense/vector-matrix.ts';
import type { HnswSettings } from '../src/lib/retrievers/config.ts';
import { database } from '../src/lib/storage/db.ts';
import { ModelSession, type DownloadListener, type LoadedInfo, type LoadRequest } from './model-session.ts';
import { configureModelSource, type ModelSourceConfig } from '../src/lib/dense/model-source.ts';
import type { EmbeddingDtype } from '../src/lib/dense/registry.ts';
import { loadCrossEncoder, type CrossEncoder, type RerankProgress } from '../src/lib/rerank/cross-encoder.ts';
import type { RerankerSpec } from '../src/lib/rerank/registry.ts';
import { prepareOnnxRuntime } from './onnx-runtime.ts';

export interface RerankerLoadRequest {
  spec: RerankerSpec;
  device: 'wasm' | 'webgpu';
  dtype: EmbeddingDtype;
  source: ModelSourceConfig;
  /** Tokens per pair; default the model's. */
  maxLength?: number;
}

export interface RerankerInfo {
  model: string;
  device: 'wasm' | 'webgpu';
  dtype: EmbeddingDtype;
  maxLength: number;
  loadMs: number;
}

/** Scores aligned with `docIds` (the order given); `cached` pairs came from the cache. */
export interface RerankScores {
  docIds: string[];
  scores: Float32Array;
  cached: number;
  ms: number;
}

/** Graphs in hnswlib-wasm's file system, mirrored to IndexedDB. */
const hnswFiles: HnswFiles = {
  load: (filename, dim, params: HnswSettings) => HnswIndex.load(filename, dim, params),
  async save(index, filename) {
    // Pull what other workers saved first: a sync writes this worker's whole file system back.
    const { syncFileSystem } = await import('hnswlib-wasm/dist/hnswlib.js');
    await loadHnswlibModule();
    await syncFileSystem('read');
    await index.save(filename);
  },
};

const session = new ModelSession();
let service: DenseCorpusService | undefined;
let crossEncoder: CrossEncoder | undefined;

function corpus(): DenseCorpusService {
  if (!service) throw new Error('no model loaded in this worker');
  return service;
}

const api = {
  /** Answers as soon as the worker's event loop is free (the page's liveness check). */
  ping: () => true,

  async load(request: LoadRequest, onDownload?: DownloadListener): Promise<LoadedInfo> {
    const info = await session.load(request, onDownload);
    // The service reaches the model through the session, so a lost WebGPU device fails its calls.
    const embedder = session.model;
    const model: typeof embedder = {
      spec: embedder.spec,
      device: embedder.device,
      dtype: embedder.dtype,
      embed: (texts, options) => session.model.embed(texts, options),
      embedEach: (texts, options) => session.model.embedEach(texts, options),
      dispose: () => session.dispose(),
    };
    // A checkpoint a second at most: a static table embeds thousands of documents a second, and a write per
    // 512 of them (a hundred for 50,000 documents) held up its embedding and the BM25 build's reads.
    service = new DenseCorpusService({ db: database(), embedder: model, hnswFiles, checkpointMs: 1000 });
    return info;
  },

  /** Embeds texts (the client's warm-up batch uses it). */
  embed(texts: string[], options: { batchSize?: number | 'auto' } = {}, onProgress?: (p: EmbedProgress) => void): Promise<VectorMatrix> {
    return session.cancellable(async (signal) => {
      const m = await session.model.embed(texts, { batchSize: options.batchSize, signal, onProgress });
      return Comlink.transfer(m, [m.data.buffer]);
    });
  },

  open(request: DenseCorpusRequest, onProgress?: (progress: DenseProgress) => void): Promise<DenseCorpusInfo> {
    return session.cancellable((signal) => corpus().open(request, onProgress, signal));
  },

  docIds(collectionId: string): readonly string[] {
    return corpus().docIds(collectionId);
  },

  /** Hits as rows of `docIds`, transferred as typed arrays. */
  searchPacked(collectionId: string, texts: string[], k: number, options: DenseSearchOptions) {
    return session.run(async () => {
      const packed = await corpus().searchPacked(collectionId, texts, k, options);
      return Comlink.transfer(packed, packedBuffers(packed));
    });
  },

  /** Similarities of each text to its candidate rows (-1: NaN), aligned with `candidates.rows`. */
  scoreRows(collectionId: string, texts: string[], candidates: PackedCandidates) {
    return session.run(async () => {
      const scores = await corpus().scoreRows(collectionId, texts, candidates);
      return Comlink.transfer(scores, [scores.buffer]);
    });
  },

  /** Loads the cross-encoder of a Re-rank column (one per worker; a second call with another model fails). */
  async loadReranker(request: RerankerLoadRequest, onDownload?: DownloadListener): Promise<RerankerInfo> {
    if (crossEncoder) {
      if (crossEncoder.spec.id === request.spec.id && crossEncoder.dtype === request.dtype) {
        return { model: crossEncoder.spec.id, device: request.device, dtype: crossEncoder.dtype, maxLength: crossEncoder.maxLength, loadMs: 0 };
      }
      throw new Error(`this worker already holds the cross-encoder ${crossEncoder.spec.id}; use a fresh worker`);
    }
    const t0 = performance.now();
    configureModelSource(request.spec, request.source);
    await prepareOnnxRuntime();
    crossEncoder = await loadCrossEncoder({ spec: request.spec, device: request.device, dtype: request.dtype, maxLength: request.maxLength, onDownload });
    return { model: request.spec.id, device: request.device, dtype: request.dtype, maxLength: crossEncoder.maxLength, loadMs: performance.now() - t0 };
  },

  /** Cross-encoder scores of (query, text) for each [docId, text]; progress per batch; stopped by `cancel`. */
  rerank(query: string, pairs: Array<[string, string]>, options: { batchSize?: number } = {}, onProgress?: (p: RerankProgress) => void): Promise<RerankScores> {
    return session.cancellable(async (signal) => {
      if (!crossEncoder) throw new Error('no cross-encoder loaded in this worker (loadReranker first)');
      const t0 = performance.now();
      let cached = 0;
      const scores = await crossEncoder.score(query, pairs.map(([id, text]) => ({ id, text })), {
        batchSize: options.batchSize,
        signal,
        onProgress: (p) => {
          cached = p.cached;
          onProgress?.(p);
        },
      });
      const result = { docIds: pairs.map(([id]) => id), scores, cached, ms: performance.now() - t0 };
      return Comlink.transfer(result, [scores.buffer]);
    });
  },

  /** Stops embeddings and graph builds in progress (not searches); their promises reject with an AbortError. */
  cancel(): void {
    session.cancel();
    service?.cancel();
  },

  async dispose(): Promise<void> {
    api.cancel();
    service?.dispose();
    service = undefined;
    const held = crossEncoder;
    crossEncoder = undefined;
    await held?.dispose();
    await session.dispose();
  },
};

export type DenseWorkerApi = typeof api;

Comlink.expose(api);
