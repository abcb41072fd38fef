/**
 * Dense column worker (comlink): one embedding model on one device (workers/model-session.ts, with the
 * `load`/`embed`/`dispose` of workers/embed.worker.ts, so src/app/workers/embedding-client.ts opens it with
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
import {
  DenseCorpusService,
  type DenseCorpusInfo,
  type DenseCorpusRequest,
  type DenseProgress,
  type DenseSearchOptions,
  type HnswFiles,
} from '../src/lib/services/dense-corpus-service.ts';
import type { EmbedProgress } from '../src/lib/dense/batching.ts';
import { HnswIndex, loadHnswlibModule } from '../src/lib/dense/hnsw-index.ts';
import { packedBuffers, type PackedCandidates } from '../src/lib/hits/packed-hits.ts';
import type { VectorMatrix } from '../src/lib/dense/vector-matrix.ts';
import type { HnswSettings } from '../src/lib/retrievers/config.ts';
import { database } from '../src/lib/storage/db.ts';
import { ModelSession, type DownloadListener, type LoadedInfo, type LoadRequest } from './model-session.ts';
import { withOrderedProgress } from './ordered-progress.ts';
import { ScanTurns } from './scan-turns.ts';
import type { ModelSourceConfig } from '../src/lib/dense/model-source.ts';
import type { Embedder } from '../src/lib/dense/embedder.ts';
import type { CompiledOnnx } from './onnx-runtime.ts';
import { decodeShippedVectors, type ShippedVectors } from '../src/lib/dense/shipped-vectors.ts';
import type { EmbeddingDtype } from '../src/lib/dense/registry.ts';
import type { CrossEncoder, RerankProgress } from '../src/lib/rerank/cross-encoder.ts';
import type { RerankerSpec } from '../src/lib/rerank/registry.ts';
import { rerankDocText } from '../src/lib/rerank/rerank.ts';
import { getDocuments } from '../src/lib/storage/collections.ts';
import { importedVectorsEmbedder, isImportedVectorsModel, vectorsNotStored } from '../src/lib/dense/imported-vectors.ts';

export interface RerankerLoadRequest {
  spec: RerankerSpec;
  device: 'wasm' | 'webgpu';
  dtype: EmbeddingDtype;
  source: ModelSourceConfig;
  /** Tokens per pair; default the model's. */
  maxLength?: number;
  /** onnxruntime's builds as the page's other workers compiled them (LoadRequest.onnx). */
  onnx?: CompiledOnnx[];
}

export interface RerankerInfo {
  model: string;
  device: 'wasm' | 'webgpu';
  dtype: EmbeddingDtype;
  maxLength: number;
  loadMs: number;
  /** The onnxruntime build the cross-encoder runs on, compiled (LoadedInfo.onnx). */
  onnx?: CompiledOnnx;
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

/**
 * The registry's shipped vectors of the model being loaded (shipped-vectors.ts), read from its folder when a
 * collection they belong to opens without stored vectors. A picked folder has none.
 */
function shippedVectorsOf(request: LoadRequest): ((collectionId: string) => Promise<ShippedVectors | undefined>) | undefined {
  const files = request.spec.shippedVectors;
  if (files === undefined || request.files !== undefined || request.spec.source !== 'local') return undefined;
  // Where model-source.ts points transformers.js for a local model (without loading transformers.js here).
  const root = request.source.localModelPath;
  const base = `${root.endsWith('/') ? root : `${root}/`}${request.spec.id}/`;
  return async (collectionId) => {
    const file = files[collectionId];
    if (file === undefined) return undefined;
    const url = `${base}${file}`;
    const response = await fetch(url);
    if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
    return decodeShippedVectors(new Uint8Array(await response.arrayBuffer()), url);
  };
}

/**
 * When a static table starts loading: when something must be embedded (a typed query, a corpus or query
 * set not stored), or when the page says text is about to be typed (`loadModel`: the query box took the
 * focus). Stored corpus and query vectors need no table, so a visit that only steps through stored queries
 * or evaluates them never loads its 22 MB, whose fetch and parse would cost every page load CPU.
 */
class DeferredLoad {
  constructor(private start: (() => void) | undefined) {}

  now(): void {
    const start = this.start;
    this.start = undefined;
    start?.();
  }
}

const session = new ModelSession();
let deferred: DeferredLoad | undefined;
/** The model's load as `modelLoaded` reports it (a deferred one included). */
let modelLoad: Promise<LoadedInfo> | undefined;
let service: DenseCorpusService | undefined;
let crossEncoder: CrossEncoder | undefined;
/** Running `rerankDocs` calls by the page's call id, so one can be stopped without stopping the others. */
const rerankCalls = new Map<number, AbortController>();
const scanTurns = new ScanTurns();

function corpus(): DenseCorpusService {
  if (!service) throw new Error('no model loaded in this worker');
  return service;
}

const api = {
  /** Answers as soon as the worker's event loop is free (the page's liveness check). */
  ping: () => true,

  /**
   * Loads the model. A static table answers at once and loads when needed (DeferredLoad; `modelLoaded`
   * says how that ended): stored corpus and query vectors need no model, so opening a collection does not
   * wait for the table; whatever must be embedded waits for it.
   */
  async load(request: LoadRequest, onDownload?: DownloadListener): Promise<LoadedInfo> {
    if (isImportedVectorsModel(request.spec.id)) {
      // Vectors from files: nothing to load, nothing to embed (a text without a stored vector is an error).
      const info: LoadedInfo = { model: request.spec.id, device: 'cpu-lookup', dtype: 'fp32', loadMs: 0 };
      modelLoad = Promise.resolve(info);
      const model = request.spec.id;
      service = new DenseCorpusService({ db: database(), embedder: importedVectorsEmbedder(model), hnswFiles, storedOnly: (collection) => vectorsNotStored(model, collection) });
      database().open().catch(() => undefined);
      return info;
    }
    let info: LoadedInfo;
    if (request.spec.kind === 'static-table') {
      info = { model: request.spec.id, device: 'cpu-lookup', dtype: request.dtype, loadMs: 0 };
      modelLoad = new Promise<LoadedInfo>((resolve, reject) => {
        deferred = new DeferredLoad(() => {
          session.begin(request, onDownload);
          session.loaded().then(resolve, reject);
        });
      });
      modelLoad.catch(() => undefined);
    } else {
      info = await session.load(request, onDownload);
      modelLoad = Promise.resolve(info);
    }
    const model = async () => {
      deferred?.now();
      return session.ready();
    };
    // The service reaches the model through the session, so a lost WebGPU device fails its calls.
    const embedder: Embedder = {
      spec: request.spec,
      device: info.device,
      dtype: info.dtype,
      embed: async (texts, options) => (await model()).embed(texts, options),
      embedEach: async (texts, options) => (await model()).embedEach(texts, options),
      dispose: () => session.dispose(),
    };
    const shipped = shippedVectorsOf(request);
    // A checkpoint a second at most: a static table embeds thousands of documents a second, and a write per
    // 512 of them (a hundred for 50,000 documents) held up its embedding and the BM25 build's reads.
    service = new DenseCorpusService({ db: database(), embedder, hnswFiles, checkpointMs: 1000, ...(shipped === undefined ? {} : { shipped }) });
    // The connection opens while the page still reads its own state, not when the first collection opens.
    database().open().catch(() => undefined);
    return info;
  },

  /** Starts a static table's load now (the page expects typed text); other models are loaded by `load`. */
  loadModel(): void {
    deferred?.now();
  },

  /** Settles when the model is loaded (at once after `load`, except for a static table loading in the background). */
  modelLoaded: (): Promise<LoadedInfo> => modelLoad ?? Promise.reject(new Error('no model loaded in this worker')),

  /** Embeds texts (the client's warm-up batch uses it). */
  embed(texts: string[], options: { batchSize?: number | 'auto' } = {}, onProgress?: (p: EmbedProgress) => void): Promise<VectorMatrix> {
    deferred?.now();
    return session.cancellable(async (signal) => {
      const m = await (await session.ready()).embed(texts, { batchSize: options.batchSize, signal, onProgress });
      return Comlink.transfer(m, [m.data.buffer]);
    });
  },

  async open(request: DenseCorpusRequest, onProgress?: (progress: DenseProgress) => void): Promise<DenseCorpusInfo> {
    const info = await session.cancellable((signal) => withOrderedProgress(onProgress, (report) => corpus().open(request, report, signal)));
    // After the answer has gone out: searches come next (dense-corpus-service.ts, warmSearch).
    if (request.search === 'exact') setTimeout(() => void corpus().warmSearch(request.collectionId).catch(() => undefined), 0);
    return info;
  },

  docIds(collectionId: string): readonly string[] {
    return corpus().docIds(collectionId);
  },

  /** Hits as rows of `docIds`, transferred as typed arrays; searches take turns (scan-turns.ts). */
  searchPacked(collectionId: string, texts: string[], k: number, options: DenseSearchOptions) {
    return scanTurns.take(() => session.run(async () => {
      const packed = await corpus().searchPacked(collectionId, texts, k, options);
      return Comlink.transfer(packed, packedBuffers(packed));
    }));
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
    // The embedding model's own load swaps transformers.js's fetch while it runs: let it finish first.
    deferred?.now();
    await modelLoad?.catch(() => undefined);
    const t0 = performance.now();
    const [{ configureModelSource }, { prepareOnnxRuntime }, { loadCrossEncoder }] = await Promise.all([
      import('../src/lib/dense/model-source.ts'),
      import('./onnx-runtime.ts'),
      import('../src/lib/rerank/cross-encoder.ts'),
    ]);
    configureModelSource(request.spec, request.source);
    const onnx = await prepareOnnxRuntime(request.device, request.onnx);
    crossEncoder = await loadCrossEncoder({ spec: request.spec, device: request.device, dtype: request.dtype, maxLength: request.maxLength, onDownload });
    return { model: request.spec.id, device: request.device, dtype: request.dtype, maxLength: crossEncoder.maxLength, loadMs: performance.now() - t0, onnx };
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

  /**
   * `rerank` of documents given by id: their texts (title + text, as BEIR's re-ranking) are read from the
   * collection in IndexedDB here, so only ids cross. `cancelRerank(callId)` stops this call alone.
   */
  rerankDocs(
    callId: number,
    collectionId: string,
    query: string,
    docIds: string[],
    options: { batchSize?: number } = {},
    onProgress?: (p: RerankProgress) => void,
  ): Promise<RerankScores> {
    const own = new AbortController();
    rerankCalls.set(callId, own);
    return session
      .cancellable(async (signal) => {
        if (!crossEncoder) throw new Error('no cross-encoder loaded in this worker (loadReranker first)');
        const both = AbortSignal.any([signal, own.signal]);
        const t0 = performance.now();
        const docs = await getDocuments(database(), collectionId, docIds);
        both.throwIfAborted();
        const pairs = docIds.map((id, i) => {
          const doc = docs[i];
          if (doc === undefined) throw new Error(`document ${id} is not in collection ${collectionId}`);
          return { id, text: rerankDocText(doc) };
        });
        let cached = 0;
        const scores = await crossEncoder.score(query, pairs, {
          batchSize: options.batchSize,
          signal: both,
          onProgress: (p) => {
            cached = p.cached;
            onProgress?.(p);
          },
        });
        const result = { docIds, scores, cached, ms: performance.now() - t0 };
        return Comlink.transfer(result, [scores.buffer]);
      })
      .finally(() => rerankCalls.delete(callId));
  },

  /** Stops one `rerankDocs` call between two batches (it rejects with an AbortError). */
  cancelRerank(callId: number): void {
    rerankCalls.get(callId)?.abort(new DOMException('re-ranking cancelled', 'AbortError'));
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
