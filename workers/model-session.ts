/**
 * The embedding model of a worker (workers/embed.worker.ts, workers/dense.worker.ts): one model on one
 * device per worker — a failed WebGPU session poisons later WASM sessions in the same worker
 * (transformers.js 4.3), so the page falls back to WASM in a fresh worker (src/app/workers/embedding-client.ts).
 *
 * - `load` points transformers.js at the model's files and loads it; a failure names the model, the file
 *   or URL and what to do (src/lib/dense/model-source.ts), says so when the Content-Security-Policy
 *   blocked the download, and drops a damaged file from the browser cache so the next try downloads it.
 * - Calls on the model run one at a time (the embedder's SessionQueue); `cancellable` work can be stopped
 *   by `cancel`, which aborts everything running or queued.
 * - On WebGPU, the device's `lost` promise is watched: once lost, every call fails with
 *   WebGpuDeviceLostError, which the page answers by falling back to WASM.
 */
import type { Embedder, EmbeddingDevice, TransformerSession } from '../src/lib/dense/embedder.ts';
import type { ModelSourceConfig } from '../src/lib/dense/model-source.ts';
import type { EmbeddingDtype, ModelSpec } from '../src/lib/dense/registry.ts';
import type { CompiledOnnx } from './onnx-runtime.ts';
import { explainBlocked, violationCount, violationsSettled } from './policy-violations.ts';

/**
 * transformers.js and onnxruntime-web (half a megabyte of code) are imported when a model loads, not when
 * the worker starts: a dense worker answers from stored vectors before any of it has arrived.
 */
const runtime = () =>
  Promise.all([import('@huggingface/transformers'), import('../src/lib/dense/embedder.ts'), import('../src/lib/dense/model-source.ts'), import('./onnx-runtime.ts')]).then(
    ([transformers, embedder, modelSource, onnx]) => ({ env: transformers.env, ...embedder, ...modelSource, ...onnx }),
  );

export interface LoadRequest {
  spec: ModelSpec;
  device: EmbeddingDevice;
  dtype: EmbeddingDtype;
  source: ModelSourceConfig;
  /** A model folder the user picked: path inside the folder → file. Loaded as local model `spec.id`. */
  files?: Map<string, Blob>;
  /** onnxruntime's builds as the page's other workers compiled them (prepareOnnxRuntime uses the one it needs). */
  onnx?: CompiledOnnx[];
}

export interface LoadedInfo {
  model: string;
  device: EmbeddingDevice;
  dtype: EmbeddingDtype;
  loadMs: number;
  /** onnxruntime's WASM threads, when the model runs on WASM (1 without cross-origin isolation). */
  threads?: number;
  /** The onnxruntime build the model runs on, compiled: the page hands it to its next model workers. */
  onnx?: CompiledOnnx;
}

export type DownloadListener = (e: { file: string; loaded: number; total: number }) => void;

/**
 * Drops a model's files from transformers.js's browser cache: it stores a response before the file is
 * parsed, so a damaged download (an HTML page, a cut-short file) would otherwise fail every later load.
 */
async function forgetCachedFiles(modelId: string): Promise<void> {
  if (typeof caches === 'undefined') return;
  try {
    const { env } = await runtime();
    const cache = await caches.open(env.cacheKey);
    const marker = `/${modelId}/`;
    for (const request of await cache.keys()) if (request.url.includes(marker)) await cache.delete(request);
  } catch {
    // No cache (private mode, storage disabled): nothing was kept either.
  }
}

type Runtime = Awaited<ReturnType<typeof runtime>>;

/**
 * Runs `load` with transformers.js pointed at the model's files and onnxruntime ready for the device (not
 * for a static table); a failure is explained, and a damaged cached file forgotten, as for every model.
 */
async function withModelFiles<T>(request: LoadRequest, load: (runtime: Runtime) => Promise<T>): Promise<{ value: T; onnx?: CompiledOnnx }> {
  const loaded = await runtime();
  const { configureModelSource, servePickedFolder, prepareOnnxRuntime, ModelLoadError } = loaded;
  if (request.files) configureModelSource({ ...request.spec, source: 'local' }, servePickedFolder(request.spec.id, request.files));
  else configureModelSource(request.spec, request.source);
  const since = violationCount();
  try {
    // A static table needs no onnxruntime (a lookup in TypeScript): its wasm is not loaded.
    const onnx = request.spec.kind === 'static-table' ? undefined : await prepareOnnxRuntime(request.device, request.onnx);
    const value = await load(loaded);
    return onnx === undefined ? { value } : { value, onnx };
  } catch (error) {
    if (error instanceof ModelLoadError && (error.kind === 'format' || error.kind === 'json')) await forgetCachedFiles(request.spec.id);
    await violationsSettled();
    throw explainBlocked(error, since);
  }
}

/**
 * A transformer's session, for a worker that reads its token states (the query-augmentation encoder of
 * workers/augment.worker.ts and learn.worker.ts), loaded as ModelSession loads a model.
 */
export async function openTransformerSession(request: LoadRequest): Promise<TransformerSession> {
  const { value } = await withModelFiles(request, ({ loadTransformerSession }) => loadTransformerSession({ spec: request.spec, device: request.device, dtype: request.dtype }));
  return value;
}

export class WebGpuDeviceLostError extends Error {
  override name = 'WebGpuDeviceLostError';
}

export class ModelSession {
  private embedder: Embedder | undefined;
  /** The load in progress or done (`load`, or `begin` for a load the caller does not wait for). */
  private loading: Promise<LoadedInfo> | undefined;
  private deviceLost: string | undefined;
  /** Settles when the WebGPU device is lost (never, on WASM). */
  private deviceWatch: Promise<void> | undefined;
  private disposed = false;
  private readonly running = new Set<AbortController>();

  load(request: LoadRequest, onDownload?: DownloadListener): Promise<LoadedInfo> {
    if (this.loading) return Promise.reject(new Error('this worker already holds a model; use a fresh worker'));
    this.loading = this.loadNow(request, onDownload);
    return this.loading;
  }

  /**
   * Starts loading a static table and answers at once with what is known before its files arrive (a
   * static table runs on `cpu-lookup`, whatever was asked for). Work that needs the model waits for it
   * (`ready`); work that does not — corpus and query vectors read from storage — goes on meanwhile, so a
   * page with stored vectors ranks before the 22 MB table has arrived. `loaded` tells how the load ended.
   */
  begin(request: LoadRequest, onDownload?: DownloadListener): LoadedInfo {
    if (request.spec.kind !== 'static-table') throw new Error(`${request.spec.id} is not a static table: load it and wait`);
    const loading = this.load(request, onDownload);
    // Failures are reported by `loaded` and by every call that waits for the model.
    loading.catch(() => undefined);
    return { model: request.spec.id, device: 'cpu-lookup', dtype: request.dtype, loadMs: 0 };
  }

  /** How the load went: its info once the model is loaded; rejects with the load's failure. */
  loaded(): Promise<LoadedInfo> {
    return this.loading ?? Promise.reject(new Error('no model loaded in this worker'));
  }

  /** The model, once loaded (waits for a load started by `begin`); rejects with the load's failure. */
  async ready(): Promise<Embedder> {
    await this.loading;
    return this.model;
  }

  private async loadNow(request: LoadRequest, onDownload?: DownloadListener): Promise<LoadedInfo> {
    const t0 = performance.now();
    const { value, onnx } = await withModelFiles(request, ({ loadEmbedder }) => loadEmbedder({ spec: request.spec, device: request.device, dtype: request.dtype, onDownload }));
    this.embedder = value;
    if (request.device === 'webgpu') this.deviceWatch = this.watchDevice();
    // The embedder's device: a static table says `cpu-lookup` whatever was asked for.
    const info: LoadedInfo = { model: request.spec.id, device: this.embedder.device, dtype: request.dtype, loadMs: performance.now() - t0 };
    if (info.device === 'wasm') info.threads = (await runtime()).wasmThreads();
    if (onnx !== undefined) info.onnx = onnx;
    return info;
  }

  /** The loaded model; throws once the WebGPU device is lost. */
  get model(): Embedder {
    if (this.deviceLost !== undefined) throw new WebGpuDeviceLostError(`the WebGPU device was lost (${this.deviceLost})`);
    if (!this.embedder) throw new Error('no model loaded in this worker');
    return this.embedder;
  }

  /** Runs `work` with a signal that `cancel` aborts; a failure after the device was lost says so. */
  async cancellable<T>(work: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const controller = new AbortController();
    this.running.add(controller);
    try {
      return await this.run(() => work(controller.signal), controller.signal);
    } finally {
      this.running.delete(controller);
    }
  }

  /** Runs `work` (not stopped by `cancel`); a failure after the device was lost says so. */
  async run<T>(work: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (error instanceof WebGpuDeviceLostError || signal?.aborted) throw error;
      // onnxruntime may fail (a buffer that cannot be mapped…) before `device.lost` settles: give it a moment.
      if (this.deviceWatch !== undefined && this.deviceLost === undefined) {
        await Promise.race([this.deviceWatch, new Promise((resolve) => setTimeout(resolve, 250))]);
      }
      if (this.deviceLost !== undefined) throw new WebGpuDeviceLostError(`the WebGPU device was lost (${this.deviceLost})`, { cause: error });
      throw error;
    }
  }

  /** Stops every cancellable call between two batches; their promises reject with an AbortError. */
  cancel(): void {
    for (const controller of this.running) controller.abort(new DOMException('embedding cancelled', 'AbortError'));
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    this.cancel();
    const embedder = this.embedder;
    this.embedder = undefined;
    await embedder?.dispose();
  }

  private async watchDevice(): Promise<void> {
    const { webgpuDevice } = await runtime();
    const device = await webgpuDevice();
    const info = await device?.lost;
    if (info === undefined || this.disposed) return;
    this.deviceLost = info.message || info.reason || 'unknown reason';
    console.warn(`WebGPU device lost: ${this.deviceLost}`);
    // Release whoever waits on an inference that may never finish on a lost device.
    for (const controller of this.running) controller.abort(new WebGpuDeviceLostError(`the WebGPU device was lost (${this.deviceLost})`));
  }
}
