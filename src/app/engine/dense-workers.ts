/**
 * The dense backend of the page: one dense column worker (workers/dense.worker.ts) per model, device and
 * dtype, opened with the WebGPU → WASM fallback of src/app/workers/embedding-client.ts (chooseDevice picks
 * WASM for `auto` on a software adapter). Each worker holds its model and the corpus vectors of the
 * collections it was asked about.
 *
 * Failures:
 * - a model that does not load rejects `open` with the worker's message (model, file or URL, what to do);
 *   the next `open` tries again in a fresh worker;
 * - WebGPU failing after the model loaded (device lost, out of memory, any error of a WebGPU session) while
 *   embedding or searching: the model is loaded on WASM in a fresh worker, the collections open in the old
 *   one are opened again there (their vectors come from the embedding cache), the call is retried, and a
 *   notice says why;
 * - a worker that crashes (its WorkerHost sees an `error` event, a WebAssembly abort, no answer) is dropped and
 *   `onLost` tells the engine, which prepares the column again on its next ranking.
 *
 * A static table (the default model) loads in the background: its worker answers `open` from stored (or
 * shipped) vectors before the table has arrived, and only what must be embedded waits for it. Its
 * download shows as a job of its own; a table that fails to load drops the worker (`onModelFailed`), so the
 * next ranking tries again in a fresh one, and every call that waited for it fails with the load's message.
 */
import * as Comlink from 'comlink';
import type { DenseCorpusRequest } from '../../lib/services/dense-corpus-service.ts';
import type { EmbeddingDevice } from '../../lib/dense/embedder.ts';
import type { ModelSourceConfig } from '../../lib/dense/model-source.ts';
import { appModelSource } from '../workers/app-model-source.ts';
import { resolveModelSpec } from '../../lib/dense/registry.ts';
import { importedVectorsSpec, isImportedVectorsModel } from '../../lib/dense/imported-vectors.ts';
import type { DenseSettings } from '../../lib/retrievers/config.ts';
import { rowRankings, type RowRanking } from '../../lib/hits/row-ranking.ts';
import { packCandidates, unpackRanking, unpackScores, type Candidates, type PackedCandidates } from '../../lib/hits/packed-hits.ts';
import type { Hit } from '../../lib/types.ts';
import { openEmbeddingWorker, type EmbeddingWorkerHandle } from '../workers/embedding-client.ts';
import type { WorkerHost } from '../workers/worker-host.ts';
import { createDenseWorker } from '../workers/worker-scripts.ts';
import { WorkerCrashedError } from '../workers/worker-watch.ts';
import type { DenseBackend, DenseOpenInfo, DenseProgress, JobSink } from './backends.ts';
import type { DenseWorkerApi } from '../../../workers/dense.worker.ts';
import { ModelLoadJob } from './model-load-job.ts';
import { raceAbort } from './race-abort.ts';

interface DenseWorker {
  /** The handle's host, typed with this worker's API. */
  host: WorkerHost<DenseWorkerApi>;
  handle: EmbeddingWorkerHandle;
  /** Collections opened in this worker, to open them again after a fallback. */
  opened: Map<string, DenseCorpusRequest>;
  /** Why this worker runs on WASM although WebGPU was tried. */
  fallbackReason?: string;
  /** Calls in flight; a retired worker (its model failed to load) closes when the last one settles. */
  busy: number;
  /** Why it was retired; calls made after it closed fail with this. */
  retired?: Error;
  closed?: boolean;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function isAbort(error: unknown): boolean {
  return (error as { name?: unknown } | null)?.name === 'AbortError';
}

/** Why a model did not load: the worker's own message when it names the file, else the model and the reason. */
function loadFailure(model: string, error: unknown): Error {
  if ((error as { name?: unknown } | null)?.name === 'ModelLoadError' || error instanceof WorkerCrashedError) return error as Error;
  return new Error(`Could not load the model ${model}: ${messageOf(error)}`, { cause: error });
}

function workerKey(settings: Pick<DenseSettings, 'model' | 'device' | 'dtype'>): string {
  return `${settings.model}|${settings.device}|${settings.dtype}`;
}

export interface DenseWorkersOptions {
  source?: () => ModelSourceConfig;
  /** A worker of these settings died: what it held (models, open corpora) is gone. */
  onLost?: (settings: Pick<DenseSettings, 'model' | 'device' | 'dtype'>, error: WorkerCrashedError) => void;
  /** A model moved from WebGPU to WASM after a failure at query time (`open` reports it in its result). */
  onFallback?: (settings: Pick<DenseSettings, 'model' | 'device' | 'dtype'>, reason: string) => void;
  /** A static table that loaded in the background failed: its worker was dropped. */
  onModelFailed?: (settings: Pick<DenseSettings, 'model' | 'device' | 'dtype'>, error: Error) => void;
  /** Where a static table's background download shows (the jobs tray). */
  jobs?: JobSink;
}

/** A corpus's document ids as the worker holds them, and the row of each. */
interface DocTable {
  ids: readonly string[];
  rowOf: ReadonlyMap<string, number>;
}

export class DenseWorkers implements DenseBackend {
  private readonly workers = new Map<string, Promise<DenseWorker>>();
  private readonly downloads = new Map<string, Set<(progress: DenseProgress) => void>>();
  /** Document-id tables of opened corpora, by worker key and collection (cleared when either opens again or dies). */
  private readonly tables = new Map<string, Promise<DocTable>>();
  /** Why the last static table of a key failed to load in the background, until a new worker starts. */
  private readonly failures = new Map<string, Error>();
  private readonly source: () => ModelSourceConfig;

  constructor(private readonly options: DenseWorkersOptions = {}) {
    this.source = options.source ?? appModelSource;
  }

  /** The worker of these settings, loading its model on first use (a failed load is retried next time). */
  private worker(settings: DenseSettings, onProgress: (progress: DenseProgress) => void, device: EmbeddingDevice | 'auto' = settings.device): Promise<DenseWorker> {
    const key = workerKey(settings);
    let listeners = this.downloads.get(key);
    if (listeners === undefined) this.downloads.set(key, (listeners = new Set()));
    listeners.add(onProgress);
    let worker = this.workers.get(key);
    if (worker === undefined) {
      this.failures.delete(key);
      const spec = isImportedVectorsModel(settings.model) ? importedVectorsSpec(settings.model) : resolveModelSpec(settings.model);
      const name = settings.model.split('/').pop() ?? settings.model;
      // A static table loads in the background, with a job of its own; other models load before `open` goes on.
      const background = spec.kind === 'static-table';
      const jobs = this.options.jobs;
      const modelJob = background && jobs ? new ModelLoadJob(() => jobs.start(`Loading model ${name} (${settings.dtype})`, { unit: 'kB', cancellable: false })) : undefined;
      const fanOut = (e: { file: string; loaded: number; total: number }) => {
        if (background) modelJob?.progress(e);
        else for (const listener of this.downloads.get(key) ?? []) listener({ phase: 'model', ...e });
      };
      const started: Promise<DenseWorker> = openEmbeddingWorker(
        () => createDenseWorker(),
        { spec, device, dtype: settings.dtype, source: this.source(), onDownload: fanOut },
        {
          label: `The dense worker of ${name}`,
          onCrash: (error) => {
            if (this.workers.get(key) !== started) return;
            this.workers.delete(key);
            for (const table of this.tables.keys()) if (table.startsWith(`${key}|`)) this.tables.delete(table);
            this.options.onLost?.(settings, error);
          },
        },
      ).then(
        (handle) => {
          // openEmbeddingWorker types the remote as the embed worker's API; this worker offers a superset.
          const entry: DenseWorker = { handle, host: handle.host as unknown as WorkerHost<DenseWorkerApi>, opened: new Map(), busy: 0 };
          if (handle.fallbackReason !== undefined) entry.fallbackReason = handle.fallbackReason;
          return entry;
        },
        (error: unknown) => {
          const failure = loadFailure(settings.model, error);
          modelJob?.fail(failure);
          throw failure;
        },
      );
      if (background) void started.then((entry) => this.watchBackgroundLoad(key, settings, started, entry, modelJob), () => undefined);
      worker = started;
      worker.catch(() => {
        if (this.workers.get(key) === started) this.workers.delete(key);
      });
      this.workers.set(key, worker);
    }
    const done = () => listeners.delete(onProgress);
    worker.then(done, done);
    return worker;
  }

  /** Follows a static table loading in the background: its job, and the worker dropped when it fails. */
  private watchBackgroundLoad(key: string, settings: DenseSettings, started: Promise<DenseWorker>, entry: DenseWorker, job: ModelLoadJob | undefined): void {
    entry.host.call((api) => api.modelLoaded()).then(
      (info) => job?.finish(info.loadMs),
      (error: unknown) => {
        const failure = loadFailure(settings.model, error);
        job?.fail(failure);
        // A crash is reported by the worker's watch (onLost).
        if (error instanceof WorkerCrashedError || this.workers.get(key) !== started) return;
        // The next ranking starts a fresh worker; calls already made finish here (those that needed the
        // model fail with the load's message) before this one closes.
        this.workers.delete(key);
        this.failures.set(key, failure);
        for (const table of this.tables.keys()) if (table.startsWith(`${key}|`)) this.tables.delete(table);
        this.retire(entry, failure);
        this.options.onModelFailed?.(settings, failure);
      },
    );
  }

  /** A call to a worker, guarded against its crash, counted so a retired worker closes after its last call. */
  private guarded<T>(entry: DenseWorker, call: (api: Comlink.Remote<DenseWorkerApi>) => Promise<T>): Promise<T> {
    if (entry.closed === true) return Promise.reject(entry.retired ?? new Error('the dense worker was closed'));
    entry.busy += 1;
    const done = () => {
      entry.busy -= 1;
      if (entry.retired !== undefined && entry.busy === 0) this.closeWorker(entry);
    };
    const result = entry.host.call(call);
    result.then(done, done);
    return result;
  }

  private retire(entry: DenseWorker, reason: Error): void {
    entry.retired = reason;
    if (entry.busy === 0) this.closeWorker(entry);
  }

  private closeWorker(entry: DenseWorker): void {
    if (entry.closed === true) return;
    entry.closed = true;
    void entry.handle.close().catch(() => undefined);
  }

  warm(settings: DenseSettings): void {
    this.worker(settings, () => {}).catch(() => undefined);
  }

  loadModel(settings: DenseSettings): void {
    void this.worker(settings, () => {})
      .then((entry) => this.guarded(entry, (api) => api.loadModel()))
      .catch(() => undefined);
  }

  async open(collectionId: string, settings: DenseSettings, onProgress: (progress: DenseProgress) => void, signal: AbortSignal): Promise<DenseOpenInfo> {
    const request: DenseCorpusRequest = { collectionId, search: settings.search, hnsw: { ...settings.hnsw } };
    this.tables.delete(`${workerKey(settings)}|${collectionId}`);
    // A model load cannot be interrupted; cancelling stops waiting for it (the loaded model stays for next time).
    let entry = await raceAbort(this.worker(settings, onProgress), signal);
    let info;
    try {
      info = await this.openIn(entry, request, onProgress, signal);
    } catch (error) {
      if (!this.mayFallBack(entry, error, signal)) throw error;
      // The WASM model's own loading is not reported: the job on screen (embedding) goes on, from zero.
      entry = await raceAbort(this.fallBack(settings, entry, messageOf(error), () => {}), signal);
      info = await this.openIn(entry, request, onProgress, signal);
    }
    const { handle } = entry;
    const result: DenseOpenInfo = { ...info, model: handle.info.model, device: handle.info.device, dtype: handle.info.dtype };
    if (handle.info.threads !== undefined) result.threads = handle.info.threads;
    if (entry.fallbackReason !== undefined) result.fallbackReason = entry.fallbackReason;
    return result;
  }

  private async openIn(entry: DenseWorker, request: DenseCorpusRequest, onProgress: (progress: DenseProgress) => void, signal: AbortSignal) {
    const cancel = () => void entry.host.callIfRunning((api) => api.cancel())?.catch(() => undefined);
    signal.addEventListener('abort', cancel);
    try {
      const info = await this.guarded(entry, (api) => api.open(request, Comlink.proxy(onProgress)));
      entry.opened.set(request.collectionId, request);
      return info;
    } finally {
      signal.removeEventListener('abort', cancel);
    }
  }

  /** A WebGPU worker's failure that a WASM worker may not have (not a cancel). */
  private mayFallBack(entry: DenseWorker, error: unknown, signal?: AbortSignal): boolean {
    return entry.handle.info.device === 'webgpu' && !isAbort(error) && signal?.aborted !== true;
  }

  /**
   * Replaces a WebGPU worker by a WASM one (a fresh worker: a failed WebGPU session poisons the worker) and
   * opens there what was open in the old one.
   */
  private async fallBack(settings: DenseSettings, failed: DenseWorker, reason: string, onProgress: (progress: DenseProgress) => void): Promise<DenseWorker> {
    const key = workerKey(settings);
    const current = this.workers.get(key);
    // Another call may have fallen back already.
    if (current !== undefined && (await current.catch(() => undefined)) !== failed) return current;
    this.workers.delete(key);
    void failed.handle.close().catch(() => undefined);
    const entry = await this.worker(settings, onProgress, 'wasm');
    entry.fallbackReason = reason;
    for (const request of failed.opened.values()) {
      if (!entry.opened.has(request.collectionId)) await this.openIn(entry, request, onProgress, new AbortController().signal);
    }
    return entry;
  }

  private async opened(settings: DenseSettings): Promise<DenseWorker> {
    const worker = this.workers.get(workerKey(settings));
    if (worker === undefined) throw this.failures.get(workerKey(settings)) ?? new Error(`the model ${settings.model} is not loaded: open it first`);
    return worker;
  }

  /** Runs a query-time call, falling back to WASM once if WebGPU fails under it. */
  private async query<T>(settings: DenseSettings, call: (api: Comlink.Remote<DenseWorkerApi>) => Promise<T>): Promise<T> {
    const entry = await this.opened(settings);
    try {
      return await this.guarded(entry, call);
    } catch (error) {
      if (!this.mayFallBack(entry, error)) throw error;
      const next = await this.fallBack(settings, entry, messageOf(error), () => {});
      this.options.onFallback?.(settings, messageOf(error));
      return this.guarded(next, call);
    }
  }

  async search(collectionId: string, settings: DenseSettings, texts: readonly string[], k: number): Promise<Hit[][]> {
    return (await this.searchRows(collectionId, settings, texts, k)).map(unpackRanking);
  }

  /** Every text in one worker call; rankings cross as typed arrays, rows of the corpus's ids. */
  async searchRows(collectionId: string, settings: DenseSettings, texts: readonly string[], k: number): Promise<RowRanking[]> {
    const { ids } = await this.table(collectionId, settings);
    const packed = await this.query(settings, (api) => api.searchPacked(collectionId, [...texts], k, { search: settings.search, hnsw: { ...settings.hnsw } }));
    return rowRankings(packed, ids);
  }

  /** Candidates cross as rows of the corpus table (typed arrays), scores come back as one Float64Array. */
  async score(collectionId: string, settings: DenseSettings, texts: readonly string[], candidates: Candidates): Promise<Float64Array[]> {
    const { rowOf } = await this.table(collectionId, settings);
    const packed = packCandidates(candidates, rowOf);
    const scores = await this.query(settings, (api) => api.scoreRows(collectionId, [...texts], transferred(packed)));
    return unpackScores(packed.offsets, scores);
  }

  /** The corpus's document ids in the model's worker, fetched once per open. */
  private table(collectionId: string, settings: DenseSettings): Promise<DocTable> {
    const key = `${workerKey(settings)}|${collectionId}`;
    let table = this.tables.get(key);
    if (table === undefined) {
      table = this.query(settings, (api) => api.docIds(collectionId)).then((ids) => ({ ids, rowOf: new Map(ids.map((id, row) => [id, row])) }));
      this.tables.set(key, table);
      table.catch(() => this.tables.delete(key));
    }
    return table;
  }

  /** Closes every worker (their models and vectors are freed; the caches stay in IndexedDB). */
  async close(): Promise<void> {
    const workers = [...this.workers.values()];
    this.workers.clear();
    await Promise.allSettled(workers.map(async (worker) => (await worker).handle.close()));
  }
}

/** Packed candidates to send: their rows are transferred, their offsets copied (the caller reads them after). */
function transferred(packed: PackedCandidates): PackedCandidates {
  return Comlink.transfer({ offsets: packed.offsets.slice(), rows: packed.rows }, [packed.rows.buffer]);
}
