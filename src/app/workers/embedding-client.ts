/**
 * Page-side handle on an embedding worker, with the device fallback the issue requires (static tables
 * skip it: they run as a lookup on the CPU, device `cpu-lookup`): try WebGPU when
 * chooseDevice picks it (a real GPU, or WebGPU asked for); if loading or a first warm-up batch fails,
 * close that worker and load the model on WASM in a fresh one (a failed WebGPU session poisons later
 * WASM sessions in the same worker). The worker is hosted (WorkerHost, watched from the start): a worker
 * that throws at top level or dies fails the load instead of leaving it waiting forever. It is not
 * restarted by its host (a fresh worker needs the model loaded): its owner opens a new one on next use.
 */
import * as Comlink from 'comlink';
import type { EmbedWorkerApi, LoadedInfo } from '../../../workers/embed.worker.ts';
import { chooseDevice, probeDevices, usableDtypes, type DeviceProbe } from '../../lib/dense/device.ts';
import type { EmbeddingDevice } from '../../lib/dense/embedder.ts';
import type { ModelSourceConfig } from '../../lib/dense/model-source.ts';
import type { EmbeddingDtype, ModelSpec } from '../../lib/dense/registry.ts';
import { compiledOnnx, rememberCompiledOnnx } from './compiled-onnx.ts';
import { WorkerHost, type HostedWorker } from './worker-host.ts';
import type { WorkerCrashedError } from './worker-watch.ts';
import { isImportedVectorsModel } from '../../lib/dense/imported-vectors.ts';

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
  /** The worker's remote, for calls that need no watching (diagnostics; a cancel). */
  api: Comlink.Remote<EmbedWorkerApi>;
  /** Watched calls: `host.call((api) => api.embed(…))` rejects when the worker dies. */
  host: WorkerHost<EmbedWorkerApi>;
  info: LoadedInfo;
  /** The devices probed to choose one; absent for a static table (it runs on the CPU, nothing to choose). */
  probe?: DeviceProbe;
  /** Why WebGPU was abandoned, when the handle fell back to WASM. */
  fallbackReason?: string;
  /** Frees the model (at most 5 s) and terminates the worker. */
  close(): Promise<void>;
}

export interface WorkerWatchSettings {
  /** For messages ("The dense worker (glove-100d-sif)"); default "The embedding worker (<model>)". */
  label?: string;
  onCrash?: (error: WorkerCrashedError) => void;
}

async function start(createWorker: () => HostedWorker, request: OpenEmbedderRequest, device: EmbeddingDevice, dtype: EmbeddingDtype, watching: WorkerWatchSettings) {
  let loaded = false;
  const host = new WorkerHost<EmbedWorkerApi>({
    label: watching.label ?? `The embedding worker (${request.spec.id})`,
    create: createWorker,
    ping: (api) => api.ping(),
    restart: false,
    // Crashes while loading fail the load (and may fall back); the owner hears of later ones.
    onCrash: (error) => {
      if (loaded) watching.onCrash?.(error);
    },
  });
  try {
    const onDownload = request.onDownload ? Comlink.proxy(request.onDownload) : undefined;
    const { onnx, ...info } = await host.call((api) => api.load({ spec: request.spec, device, dtype, source: request.source, files: request.files, onnx: compiledOnnx() }, onDownload));
    rememberCompiledOnnx(onnx);
    // Shader compilation and many WebGPU failures only happen on the first run; a static table has no
    // session to warm up (and a dense worker may still be loading it in the background).
    if (device !== 'cpu-lookup') await host.call((api) => api.embed(['warm-up'], { batchSize: 1 }));
    loaded = true;
    return { api: host.api, host, info, close: () => host.close((api) => api.dispose()) };
  } catch (error) {
    void host.close();
    throw error;
  }
}

export async function openEmbeddingWorker(createWorker: () => HostedWorker, request: OpenEmbedderRequest, watching: WorkerWatchSettings = {}): Promise<EmbeddingWorkerHandle> {
  if (isImportedVectorsModel(request.spec.id)) return start(createWorker, request, 'cpu-lookup', 'fp32', watching);
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
