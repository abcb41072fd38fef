/**
 * Page-side handle on an embedding worker, with the device fallback the issue requires (static tables
 * skip it: they run as a lookup on the CPU, device `cpu-lookup`): try WebGPU when
 * chooseDevice picks it (a real GPU, or WebGPU asked for); if loading or a first warm-up batch fails,
 * terminate that worker and load the model on WASM in a fresh one (a failed WebGPU session poisons later
 * WASM sessions in the same worker). The worker is watched from the start (WorkerWatch): a worker that
 * throws at top level or dies fails the load instead of leaving it waiting forever.
 */
import * as Comlink from 'comlink';
import type { EmbedWorkerApi, LoadedInfo } from '../../../workers/embed.worker.ts';
import { WorkerWatch, type WorkerCrashedError } from '../workers/worker-watch.ts';
import { chooseDevice, probeDevices, usableDtypes, type DeviceProbe } from './device.ts';
import type { EmbeddingDevice } from './embedder.ts';
import type { ModelSourceConfig } from './model-source.ts';
import type { EmbeddingDtype, ModelSpec } from './registry.ts';

export interface OpenEmbedderRequest {
  spec: ModelSpec;
  device?: EmbeddingDevice | 'auto';
  dtype?: EmbeddingDtype;
  source: ModelSourceConfig;
  /** A model folder the user picked (path inside the folder → file); see servePickedFolder. */
  files?: Map<string, Blob>;
  onDownload?: (e: { file: string; loaded: number; total: number }) => void;
}

export interface EmbeddingWorkerHandle {
  api: Comlink.Remote<EmbedWorkerApi>;
  info: LoadedInfo;
  /** The devices probed to choose one; absent for a static table (it runs on the CPU, nothing to choose). */
  probe?: DeviceProbe;
  /** Why WebGPU was abandoned, when the handle fell back to WASM. */
  fallbackReason?: string;
  /** Guard calls with `watch.guard(api.…)`; `watch.crashed` rejects when the worker dies. */
  watch: WorkerWatch;
  close(): Promise<void>;
}

export interface WorkerWatchSettings {
  /** For messages ("The dense worker (glove-100d-sif)"); default "The embedding worker (<model>)". */
  label?: string;
  onCrash?: (error: WorkerCrashedError) => void;
}

async function start(createWorker: () => Worker, request: OpenEmbedderRequest, device: EmbeddingDevice, dtype: EmbeddingDtype, watching: WorkerWatchSettings) {
  const worker = createWorker();
  const api = Comlink.wrap<EmbedWorkerApi>(worker);
  const label = watching.label ?? `The embedding worker (${request.spec.id})`;
  let loaded = false;
  const watch = new WorkerWatch(worker, {
    label,
    ping: () => api.ping(),
    // Crashes while loading fail the load (and may fall back); the owner hears of later ones.
    onCrash: (error) => {
      if (loaded) watching.onCrash?.(error);
    },
  });
  const close = async () => {
    watch.stop();
    try {
      if (!watch.dead) await Promise.race([api.dispose(), new Promise((resolve) => setTimeout(resolve, 5000))]);
    } finally {
      api[Comlink.releaseProxy]();
      worker.terminate();
    }
  };
  try {
    const onDownload = request.onDownload ? Comlink.proxy(request.onDownload) : undefined;
    const info = await watch.guard(api.load({ spec: request.spec, device, dtype, source: request.source, files: request.files }, onDownload));
    // Shader compilation and many WebGPU failures only happen on the first run; a static table has no
    // session to warm up (and a dense worker may still be loading it in the background).
    if (device !== 'cpu-lookup') await watch.guard(api.embed(['warm-up'], { batchSize: 1 }));
    loaded = true;
    return { api, info, close, watch };
  } catch (error) {
    watch.stop();
    api[Comlink.releaseProxy]();
    worker.terminate();
    throw error;
  }
}

export async function openEmbeddingWorker(createWorker: () => Worker, request: OpenEmbedderRequest, watching: WorkerWatchSettings = {}): Promise<EmbeddingWorkerHandle> {
  if (request.spec.kind === 'static-table') {
    // A lookup and an average: no session, so no WebGPU attempt whatever device was asked for, and no
    // device probe either (asking for a GPU adapter can take longer than the whole lookup).
    const dtype = request.dtype !== undefined && request.spec.dtypes.includes(request.dtype) ? request.dtype : request.spec.defaultDtype;
    return start(createWorker, request, 'cpu-lookup', dtype, watching);
  }
  const probe = await probeDevices();
  const device = chooseDevice(probe, request.device ?? 'auto');
  const wanted = request.dtype ?? request.spec.defaultDtype;
  let fallbackReason: string | undefined;
  if (device === 'webgpu') {
    // fp16 needs shader-f16; without it the model's default dtype is used.
    const gpuDtype = usableDtypes(request.spec, 'webgpu', probe).includes(wanted) ? wanted : request.spec.defaultDtype;
    try {
      return { ...(await start(createWorker, request, 'webgpu', gpuDtype, watching)), probe };
    } catch (error) {
      fallbackReason = error instanceof Error ? error.message : String(error);
    }
  }
  const wasmDtypes = usableDtypes(request.spec, 'wasm', probe);
  const dtype = wasmDtypes.includes(wanted) ? wanted : request.spec.defaultDtype;
  const handle = await start(createWorker, request, 'wasm', dtype, watching);
  return fallbackReason === undefined ? { ...handle, probe } : { ...handle, probe, fallbackReason };
}

/** The worker constructors, in the literal form vite needs to bundle them. */
export function createEmbedWorker(): Worker {
  return new Worker(new URL('../../../workers/embed.worker.ts', import.meta.url), { type: 'module', name: 'embed' });
}

export function createSearchWorker(): Worker {
  return new Worker(new URL('../../../workers/hnsw.worker.ts', import.meta.url), { type: 'module', name: 'search' });
}
