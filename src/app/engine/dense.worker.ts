/**
 * Dense column worker (comlink): one embedding model on one device (as workers/embed.worker.ts, whose
 * `load`/`embed`/`dispose` it offers too, so src/lib/dense/embedding-client.ts can open it with the WebGPU →
 * WASM fallback in a fresh worker), plus the corpus work of DenseCorpusService: documents read from
 * IndexedDB here, vectors from the embedding cache or embedded here, exact and HNSW search here. Only
 * query texts, hit lists and progress cross to the page.
 *
 * onnxruntime-web's wasm files are served from the app's own build (vite `?url` assets), never from a CDN.
 */
import * as Comlink from 'comlink';
import { env } from '@huggingface/transformers';
import ortWasmUrl from 'onnxruntime-web/ort-wasm-simd-threaded.asyncify.wasm?url';
import ortMjsUrl from 'onnxruntime-web/ort-wasm-simd-threaded.asyncify.mjs?url';
import type { LoadedInfo, LoadRequest } from '../../../workers/embed.worker.ts';
import type { EmbedProgress } from '../../lib/dense/batching.ts';
import { loadEmbedder, type Embedder } from '../../lib/dense/embedder.ts';
import { DexieEmbeddingStore } from '../../lib/dense/embedding-store-dexie.ts';
import { HnswIndex, loadHnswlibModule } from '../../lib/dense/hnsw-index.ts';
import { configureModelSource } from '../../lib/dense/model-source.ts';
import type { VectorMatrix } from '../../lib/dense/vector-matrix.ts';
import type { HnswSettings } from '../../lib/retrievers/config.ts';
import { database } from '../../lib/storage/db.ts';
import type { DenseProgress } from './backends.ts';
import { DenseCorpusService, type DenseCorpusInfo, type DenseCorpusRequest, type DenseSearchOptions, type HnswFiles } from './dense-corpus.ts';

const onnxWasm = env.backends.onnx.wasm;
if (onnxWasm) {
  onnxWasm.wasmPaths = { wasm: ortWasmUrl, mjs: ortMjsUrl };
  if (self.crossOriginIsolated) onnxWasm.numThreads = Math.min(4, navigator.hardwareConcurrency || 1);
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

let embedder: Embedder | undefined;
let service: DenseCorpusService | undefined;
let embedding: AbortController | undefined;

function loaded(): { embedder: Embedder; service: DenseCorpusService } {
  if (!embedder || !service) throw new Error('no model loaded in this worker');
  return { embedder, service };
}

const api = {
  async load(request: LoadRequest, onDownload?: (e: { file: string; loaded: number; total: number }) => void): Promise<LoadedInfo> {
    if (embedder) throw new Error('this worker already holds a model; use a fresh worker');
    const t0 = performance.now();
    configureModelSource(request.spec, request.source);
    embedder = await loadEmbedder({ spec: request.spec, device: request.device, dtype: request.dtype, onDownload });
    service = new DenseCorpusService({ db: database(), store: new DexieEmbeddingStore(), embedder, hnswFiles });
    return { model: request.spec.id, device: request.device, dtype: request.dtype, loadMs: performance.now() - t0 };
  },

  /** Embeds texts (the client's warm-up batch uses it). */
  async embed(texts: string[], options: { batchSize?: number | 'auto' } = {}, onProgress?: (p: EmbedProgress) => void): Promise<VectorMatrix> {
    embedding?.abort();
    const controller = new AbortController();
    embedding = controller;
    const m = await loaded().embedder.embed(texts, { batchSize: options.batchSize, signal: controller.signal, onProgress });
    return Comlink.transfer(m, [m.data.buffer]);
  },

  open(request: DenseCorpusRequest, onProgress?: (progress: DenseProgress) => void): Promise<DenseCorpusInfo> {
    return loaded().service.open(request, onProgress);
  },

  search(collectionId: string, texts: string[], k: number, options: DenseSearchOptions) {
    return loaded().service.search(collectionId, texts, k, options);
  },

  score(collectionId: string, texts: string[], candidates: string[][]) {
    return loaded().service.score(collectionId, texts, candidates);
  },

  cancel(): void {
    embedding?.abort();
    service?.cancel();
  },

  async dispose(): Promise<void> {
    api.cancel();
    service?.dispose();
    await embedder?.dispose();
    embedder = undefined;
    service = undefined;
  },
};

export type DenseWorkerApi = typeof api;

Comlink.expose(api);
