/**
 * Page-side handle on an embedding worker, with the device fallback the issue requires: try WebGPU when
 * an adapter exists; if loading or a first warm-up batch fails, terminate that worker and load the model
 * on WASM in a fresh one (a failed WebGPU session poisons later WASM sessions in the same worker).
 */
import * as Comlink from 'comlink';
import type { EmbedWorkerApi, LoadedInfo } from '../../../workers/embed.worker.ts';
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
  probe: DeviceProbe;
  /** Why WebGPU was abandoned, when the handle fell back to WASM. */
  fallbackReason?: string;
  close(): Promise<void>;
}

async function start(createWorker: () => Worker, request: OpenEmbedderRequest, device: EmbeddingDevice, dtype: EmbeddingDtype) {
  const worker = createWorker();
  const api = Comlink.wrap<EmbedWorkerApi>(worker);
  const close = async () => {
    try {
      await api.dispose();
    } finally {
      api[Comlink.releaseProxy]();
      worker.terminate();
    }
  };
  try {
    const onDownload = request.onDownload ? Comlink.proxy(request.onDownload) : undefined;
    const info = await api.load({ spec: request.spec, device, dtype, source: request.source, files: request.files }, onDownload);
    // Shader compilation and many WebGPU failures only happen on the first run.
    await api.embed(['warm-up'], { batchSize: 1 });
    return { api, info, close };
  } catch (error) {
    api[Comlink.releaseProxy]();
    worker.terminate();
    throw error;
  }
}

export async function openEmbeddingWorker(createWorker: () => Worker, request: OpenEmbedderRequest): Promise<EmbeddingWorkerHandle> {
  const probe = await probeDevices();
  const device = chooseDevice(probe, request.device ?? 'auto');
  const wanted = request.dtype ?? request.spec.defaultDtype;
  let fallbackReason: string | undefined;
  if (device === 'webgpu') {
    // fp16 needs shader-f16; without it the model's default dtype is used.
    const gpuDtype = usableDtypes(request.spec, 'webgpu', probe).includes(wanted) ? wanted : request.spec.defaultDtype;
    try {
      return { ...(await start(createWorker, request, 'webgpu', gpuDtype)), probe };
    } catch (error) {
      fallbackReason = error instanceof Error ? error.message : String(error);
    }
  }
  const wasmDtypes = usableDtypes(request.spec, 'wasm', probe);
  const dtype = wasmDtypes.includes(wanted) ? wanted : request.spec.defaultDtype;
  return { ...(await start(createWorker, request, 'wasm', dtype)), probe, fallbackReason };
}

/** The worker constructors, in the literal form vite needs to bundle them. */
export function createEmbedWorker(): Worker {
  return new Worker(new URL('../../../workers/embed.worker.ts', import.meta.url), { type: 'module', name: 'embed' });
}

export function createSearchWorker(): Worker {
  return new Worker(new URL('../../../workers/hnsw.worker.ts', import.meta.url), { type: 'module', name: 'search' });
}
