/**
 * The dense backend of the page: one dense column worker (dense.worker.ts) per model, device and dtype,
 * opened with the WebGPU → WASM fallback of src/lib/dense/embedding-client.ts. Each worker holds its model
 * and the corpus vectors of the collections it was asked about.
 */
import * as Comlink from 'comlink';
import { probeDevices, type DeviceProbe } from '../../lib/dense/device.ts';
import type { EmbeddingDevice } from '../../lib/dense/embedder.ts';
import { openEmbeddingWorker, type EmbeddingWorkerHandle } from '../../lib/dense/embedding-client.ts';
import type { ModelSourceConfig } from '../../lib/dense/model-source.ts';
import { resolveModelSpec } from '../../lib/dense/registry.ts';
import type { DenseSettings } from '../../lib/retrievers/config.ts';
import type { Hit } from '../../lib/types.ts';
import type { DenseBackend, DenseOpenInfo, DenseProgress } from './backends.ts';
import type { DenseWorkerApi } from './dense.worker.ts';

interface DenseWorker {
  api: Comlink.Remote<DenseWorkerApi>;
  handle: EmbeddingWorkerHandle;
}

function createDenseWorker(): Worker {
  return new Worker(new URL('./dense.worker.ts', import.meta.url), { type: 'module', name: 'dense' });
}

/** The app's own models are served from <base>/models/; `?remoteHost=` points hub ids at a mirror with the hub layout. */
export function appModelSource(): ModelSourceConfig {
  const remoteHost = new URLSearchParams(location.search).get('remoteHost') ?? undefined;
  return remoteHost === undefined
    ? { localModelPath: `${import.meta.env.BASE_URL}models/` }
    : { localModelPath: `${import.meta.env.BASE_URL}models/`, remoteHost };
}

/** Why a model did not load, in words that say what to do. */
function loadFailure(model: string, error: unknown): string {
  const reason = error instanceof Error ? error.message : String(error);
  const spec = resolveModelSpec(model);
  if (spec.source === 'local') return `Could not load ${model} (${reason}). The project's own models are built by \`npm run models\`.`;
  return `Could not load ${model} from the hub (${reason}). Check the id, and that huggingface.co is reachable (or open the page with ?remoteHost= pointing at a mirror).`;
}

/** A WebGPU adapter that is a CPU rasterizer (SwiftShader, llvmpipe…): slower than WASM, often 10×. */
export function isSoftwareAdapter(probe: DeviceProbe): boolean {
  const adapter = probe.adapter;
  if (adapter === undefined) return false;
  return /swiftshader|llvmpipe|lavapipe|software|basic render/i.test(`${adapter.vendor} ${adapter.architecture} ${adapter.description}`);
}

/**
 * The device to ask for: `auto` means WebGPU on a real GPU, WASM otherwise. On SciFact, GloVe embeds
 * 5,183 documents in 1.7 s on WASM and in 24.6 s on headless chromium's SwiftShader WebGPU adapter.
 */
async function requestedDevice(choice: DenseSettings['device']): Promise<EmbeddingDevice | 'auto'> {
  if (choice !== 'auto') return choice;
  return isSoftwareAdapter(await probeDevices()) ? 'wasm' : 'auto';
}

function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  signal.throwIfAborted();
  return new Promise<T>((resolve, reject) => {
    const stop = () => reject(signal.reason);
    signal.addEventListener('abort', stop, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', stop));
  });
}

function workerKey(settings: DenseSettings): string {
  return `${settings.model}|${settings.device}|${settings.dtype}`;
}

export class DenseWorkers implements DenseBackend {
  private readonly workers = new Map<string, Promise<DenseWorker>>();
  private readonly downloads = new Map<string, Set<(progress: DenseProgress) => void>>();

  constructor(private readonly source: () => ModelSourceConfig = appModelSource) {}

  /** The worker of these settings, loading its model on first use (a failed load is retried next time). */
  private worker(settings: DenseSettings, onProgress: (progress: DenseProgress) => void): Promise<DenseWorker> {
    const key = workerKey(settings);
    let listeners = this.downloads.get(key);
    if (listeners === undefined) this.downloads.set(key, (listeners = new Set()));
    listeners.add(onProgress);
    let worker = this.workers.get(key);
    if (worker === undefined) {
      const fanOut = (e: { file: string; loaded: number; total: number }) => {
        for (const listener of this.downloads.get(key) ?? []) listener({ phase: 'model', ...e });
      };
      worker = requestedDevice(settings.device)
        .then((device) =>
          openEmbeddingWorker(createDenseWorker, {
            spec: resolveModelSpec(settings.model),
            device,
            dtype: settings.dtype,
            source: this.source(),
            onDownload: fanOut,
          }),
        )
        .then(
        (handle) => ({
          handle,
          // openEmbeddingWorker types the remote as the embed worker's API; this worker offers a superset.
          api: handle.api as unknown as Comlink.Remote<DenseWorkerApi>,
        }),
        (error: unknown) => {
          throw new Error(loadFailure(settings.model, error), { cause: error });
        },
      );
      worker.catch(() => {
        if (this.workers.get(key) === worker) this.workers.delete(key);
      });
      this.workers.set(key, worker);
    }
    const done = () => listeners.delete(onProgress);
    worker.then(done, done);
    return worker;
  }

  async open(collectionId: string, settings: DenseSettings, onProgress: (progress: DenseProgress) => void, signal: AbortSignal): Promise<DenseOpenInfo> {
    // A model load cannot be interrupted; cancelling stops waiting for it (the loaded model stays for next time).
    const { api, handle } = await untilAborted(this.worker(settings, onProgress), signal);
    const cancel = () => void api.cancel();
    signal.addEventListener('abort', cancel);
    try {
      const info = await api.open({ collectionId, search: settings.search, hnsw: { ...settings.hnsw } }, Comlink.proxy(onProgress));
      const result: DenseOpenInfo = { ...info, model: handle.info.model, device: handle.info.device, dtype: handle.info.dtype };
      if (handle.fallbackReason !== undefined) result.fallbackReason = handle.fallbackReason;
      return result;
    } finally {
      signal.removeEventListener('abort', cancel);
    }
  }

  private async opened(settings: DenseSettings): Promise<Comlink.Remote<DenseWorkerApi>> {
    const worker = this.workers.get(workerKey(settings));
    if (worker === undefined) throw new Error(`the model ${settings.model} is not loaded: open it first`);
    return (await worker).api;
  }

  async search(collectionId: string, settings: DenseSettings, texts: readonly string[], k: number): Promise<Hit[][]> {
    const api = await this.opened(settings);
    return api.search(collectionId, [...texts], k, { search: settings.search, hnsw: { ...settings.hnsw } });
  }

  async score(collectionId: string, settings: DenseSettings, texts: readonly string[], candidates: readonly (readonly string[])[]): Promise<number[][]> {
    const api = await this.opened(settings);
    return api.score(collectionId, [...texts], candidates.map((ids) => [...ids]));
  }

  /** Closes every worker (their models and vectors are freed; the caches stay in IndexedDB). */
  async close(): Promise<void> {
    const workers = [...this.workers.values()];
    this.workers.clear();
    await Promise.allSettled(workers.map(async (worker) => (await worker).handle.close()));
  }
}
