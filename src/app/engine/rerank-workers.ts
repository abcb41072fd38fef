/**
 * The re-rank backend of the page: one worker per cross-encoder (model, device, dtype) — the dense column
 * worker (workers/dense.worker.ts), whose `loadReranker` / `rerankDocs` run src/lib/rerank — so a Re-rank
 * column's scoring never waits behind a dense column's embedding. Texts are read from IndexedDB in the
 * worker; only ids, scores and progress cross. Scores are cached there per (model, query, document).
 *
 * Device `auto` is WebGPU when the adapter is a real GPU, else WASM (chooseDevice); a model that fails to
 * load on WebGPU is loaded on WASM in a fresh worker (a failed WebGPU session poisons its worker), and the
 * open info says why. Each worker is hosted (src/app/workers/worker-host.ts) without restarts: a crashed one
 * is dropped, and the next use starts a fresh one that loads the model again.
 */
import * as Comlink from 'comlink';
import type { DenseWorkerApi } from '../../../workers/dense.worker.ts';
import { chooseDevice, probeDevices } from '../../lib/dense/device.ts';
import type { ModelSourceConfig } from '../../lib/dense/model-source.ts';
import { resolveRerankerSpec } from '../../lib/rerank/registry.ts';
import type { RerankSettings } from '../../lib/retrievers/config.ts';
import { compiledOnnx, rememberCompiledOnnx } from '../workers/compiled-onnx.ts';
import { WorkerHost, type HostedWorker } from '../workers/worker-host.ts';
import { createDenseWorker } from '../workers/worker-scripts.ts';
import type { RerankBackend, RerankerOpenInfo, RerankScoreProgress } from './backends.ts';
import { appModelSource } from '../workers/app-model-source.ts';
import { raceAbort } from './race-abort.ts';

interface RerankWorker {
  host: WorkerHost<DenseWorkerApi>;
  info: RerankerOpenInfo;
}

type Download = (progress: { file: string; loaded: number; total: number }) => void;

function keyOf(settings: RerankSettings): string {
  return `${settings.model}|${settings.device}|${settings.dtype}`;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export interface RerankWorkersOptions {
  source?: () => ModelSourceConfig;
  createWorker?: () => HostedWorker;
  /** A worker died: its model is gone (the engine prepares the columns again). */
  onLost?: (settings: RerankSettings, error: Error) => void;
}

export class RerankWorkers implements RerankBackend {
  private readonly workers = new Map<string, Promise<RerankWorker>>();
  private readonly downloads = new Map<string, Set<Download>>();
  private nextCall = 1;

  constructor(private readonly options: RerankWorkersOptions = {}) {}

  private async start(settings: RerankSettings, device: 'webgpu' | 'wasm', download: Download): Promise<RerankWorker> {
    const name = settings.model.split('/').pop() ?? settings.model;
    const key = keyOf(settings);
    const host = new WorkerHost<DenseWorkerApi>({
      label: `The re-rank worker of ${name}`,
      create: this.options.createWorker ?? (() => createDenseWorker('rerank')),
      ping: (api) => api.ping(),
      restart: false,
      onCrash: (error) => {
        this.workers.delete(key);
        this.options.onLost?.(settings, error);
      },
    });
    try {
      const loaded = await host.call((api) =>
        api.loadReranker(
          { spec: resolveRerankerSpec(settings.model), device, dtype: settings.dtype, source: (this.options.source ?? appModelSource)(), onnx: compiledOnnx() },
          Comlink.proxy(download),
        ),
      );
      rememberCompiledOnnx(loaded.onnx);
      return { host, info: { model: loaded.model, device: loaded.device, dtype: loaded.dtype, maxLength: loaded.maxLength, loadMs: loaded.loadMs } };
    } catch (error) {
      void host.close();
      throw error;
    }
  }

  private worker(settings: RerankSettings, onDownload: Download): Promise<RerankWorker> {
    const key = keyOf(settings);
    let listeners = this.downloads.get(key);
    if (listeners === undefined) this.downloads.set(key, (listeners = new Set()));
    listeners.add(onDownload);
    let entry = this.workers.get(key);
    if (entry === undefined) {
      const fanOut: Download = (e) => {
        for (const listener of this.downloads.get(key) ?? []) listener(e);
      };
      const started = (async () => {
        const device = settings.device === 'wasm' ? 'wasm' : settings.device === 'webgpu' ? 'webgpu' : chooseDevice(await probeDevices(), 'auto');
        const wanted = device === 'webgpu' ? 'webgpu' : 'wasm';
        try {
          return await this.start(settings, wanted, fanOut);
        } catch (error) {
          if (wanted !== 'webgpu') throw error;
          const fallback = await this.start(settings, 'wasm', fanOut);
          fallback.info.fallbackReason = messageOf(error);
          return fallback;
        }
      })();
      entry = started;
      started.catch(() => {
        if (this.workers.get(key) === started) this.workers.delete(key);
      });
      this.workers.set(key, started);
    }
    const done = () => listeners.delete(onDownload);
    entry.then(done, done);
    return entry;
  }

  async open(settings: RerankSettings, onDownload: Download, signal: AbortSignal): Promise<RerankerOpenInfo> {
    // A model load cannot be interrupted; cancelling stops waiting for it (the model stays loaded for next time).
    return (await raceAbort(this.worker(settings, onDownload), signal)).info;
  }

  async score(
    collectionId: string,
    settings: RerankSettings,
    query: string,
    docIds: readonly string[],
    options: { signal?: AbortSignal; onProgress?: (progress: RerankScoreProgress) => void } = {},
  ): Promise<Float32Array> {
    const { signal, onProgress } = options;
    signal?.throwIfAborted();
    const entry = await this.workers.get(keyOf(settings));
    if (entry === undefined) throw new Error(`the cross-encoder ${settings.model} is not loaded: open it first`);
    const callId = this.nextCall++;
    const cancel = () => void entry.host.callIfRunning((api) => api.cancelRerank(callId))?.catch(() => undefined);
    signal?.addEventListener('abort', cancel);
    try {
      const progress = onProgress === undefined ? undefined : Comlink.proxy((p: { done: number; total: number; cached: number }) => onProgress({ done: p.done, total: p.total, cached: p.cached }));
      const result = await entry.host.call((api) => api.rerankDocs(callId, collectionId, query, [...docIds], {}, progress));
      return result.scores;
    } finally {
      signal?.removeEventListener('abort', cancel);
    }
  }

  /** Stops every worker (their models are freed; downloaded files stay in the browser cache). */
  async close(): Promise<void> {
    const workers = [...this.workers.values()];
    this.workers.clear();
    await Promise.allSettled(
      workers.map(async (pending) => {
        await (await pending).host.close();
      }),
    );
  }
}
