/**
 * Embedding worker (comlink): loads one model with transformers.js on one device and embeds texts, with
 * progress, cancel and the IndexedDB embedding cache. One model and one device per worker: a failed WebGPU
 * session poisons later WASM sessions in the same worker (transformers.js 4.3), so the page falls back to
 * WASM in a fresh worker (src/lib/dense/embedding-client.ts).
 *
 * onnxruntime-web's wasm and its loader are served from our own build (vite `?url` assets), never from a
 * CDN: transformers.js sets a jsDelivr default at import time, replaced here before any session exists.
 */
import * as Comlink from 'comlink';
import { env } from '@huggingface/transformers';
import ortWasmUrl from 'onnxruntime-web/ort-wasm-simd-threaded.asyncify.wasm?url';
import ortMjsUrl from 'onnxruntime-web/ort-wasm-simd-threaded.asyncify.mjs?url';
import { embedThroughCache } from '../src/lib/dense/cached-embeddings.ts';
import { probeDevices, type DeviceProbe } from '../src/lib/dense/device.ts';
import { loadEmbedder, type Embedder, type EmbeddingDevice } from '../src/lib/dense/embedder.ts';
import { DexieEmbeddingStore } from '../src/lib/dense/embedding-store-dexie.ts';
import { embeddingKey, type EmbeddingKeyParts } from '../src/lib/dense/embedding-store.ts';
import { configureModelSource, servePickedFolder, type ModelSourceConfig } from '../src/lib/dense/model-source.ts';
import type { EmbedProgress } from '../src/lib/dense/batching.ts';
import type { EmbeddingDtype, ModelSpec } from '../src/lib/dense/registry.ts';
import type { VectorEncoding } from '../src/lib/dense/vector-codec.ts';
import type { VectorMatrix } from '../src/lib/dense/vector-matrix.ts';

const onnxWasm = env.backends.onnx.wasm;
// numThreads stays at onnxruntime-web's default (half the cores, at most 4; threads need the
// cross-origin isolation of vite.config.ts): on the shared 2-core test machine, 2 threads made the tiny
// model 4–6× slower in bench:embed (thread hand-offs per small operator).
if (onnxWasm) onnxWasm.wasmPaths = { wasm: ortWasmUrl, mjs: ortMjsUrl };

export interface LoadRequest {
  spec: ModelSpec;
  device: EmbeddingDevice;
  dtype: EmbeddingDtype;
  source: ModelSourceConfig;
  /** A model folder the user picked: path inside the folder → file. Loaded as local model `spec.id`. */
  files?: Map<string, Blob>;
}

export interface LoadedInfo {
  model: string;
  device: EmbeddingDevice;
  dtype: EmbeddingDtype;
  loadMs: number;
}

export interface DatasetRequest {
  dataset: string;
  part: 'corpus' | 'queries';
  ids: string[];
  texts: string[];
  encoding: VectorEncoding;
  batchSize?: number | 'auto';
}

let embedder: Embedder | undefined;
let running: AbortController | undefined;
let store: DexieEmbeddingStore | undefined;

function loaded(): Embedder {
  if (!embedder) throw new Error('no model loaded in this worker');
  return embedder;
}

function transferable(m: VectorMatrix): VectorMatrix {
  return Comlink.transfer(m, [m.data.buffer]);
}

async function withAbort<T>(work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  running?.abort();
  const controller = new AbortController();
  running = controller;
  try {
    return await work(controller.signal);
  } finally {
    if (running === controller) running = undefined;
  }
}

const api = {
  probe(): Promise<DeviceProbe> {
    return probeDevices();
  },

  async load(request: LoadRequest, onDownload?: (e: { file: string; loaded: number; total: number }) => void): Promise<LoadedInfo> {
    if (embedder) throw new Error('this worker already holds a model; use a fresh worker');
    const t0 = performance.now();
    if (request.files) {
      configureModelSource({ ...request.spec, source: 'local' }, servePickedFolder(request.spec.id, request.files));
    } else {
      configureModelSource(request.spec, request.source);
    }
    embedder = await loadEmbedder({ spec: request.spec, device: request.device, dtype: request.dtype, onDownload });
    return { model: request.spec.id, device: request.device, dtype: request.dtype, loadMs: performance.now() - t0 };
  },

  embed(
    texts: string[],
    options: { batchSize?: number | 'auto' } = {},
    onProgress?: (p: EmbedProgress) => void,
  ): Promise<VectorMatrix> {
    return withAbort(async (signal) =>
      transferable(await loaded().embed(texts, { batchSize: options.batchSize, signal, onProgress })),
    );
  },

  /** The naive baseline: one pipeline call per text. */
  embedEach(texts: string[]): Promise<VectorMatrix> {
    return withAbort(async (signal) => transferable(await loaded().embedEach(texts, { signal })));
  },

  /** Embeds through the IndexedDB cache; `hit` tells whether the vectors came from the cache. */
  embedDataset(request: DatasetRequest, onProgress?: (p: EmbedProgress) => void): Promise<{ vectors: VectorMatrix; hit: boolean; key: string }> {
    const model = loaded();
    const parts: EmbeddingKeyParts = {
      dataset: request.dataset,
      part: request.part,
      model: model.spec.id,
      dtype: model.dtype,
      settings: model.spec,
      encoding: request.encoding,
    };
    const key = embeddingKey(parts);
    store ??= new DexieEmbeddingStore();
    return withAbort(async (signal) => {
      const { vectors, hit } = await embedThroughCache(store!, key, request.ids, request.encoding, () =>
        model.embed(request.texts, { batchSize: request.batchSize, signal, onProgress }),
      );
      return { vectors: transferable(vectors), hit, key };
    });
  },

  /** Stops the running embed between two batches; its promise rejects with an AbortError. */
  cancel(): void {
    running?.abort();
  },

  async dispose(): Promise<void> {
    running?.abort();
    await embedder?.dispose();
    embedder = undefined;
    store?.close();
  },
};

export type EmbedWorkerApi = typeof api;

Comlink.expose(api);
