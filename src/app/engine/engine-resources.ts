/**
 * Preparation and its jobs: what a column needs open before it ranks — the BM25 index of its analyzer, the
 * corpus vectors of its model (and the HNSW graph), a Re-rank column's cross-encoder. Each is opened once per
 * collection and settings, whichever columns ask for it, with a job in the tray while it is built (nothing is
 * shown when it is loaded from storage). k1, b, efSearch, K, alpha… are query-time settings and never
 * rebuild anything. A worker that dies takes its open resources with it: they are dropped here and prepared
 * again on the next ranking.
 */
import type { IndexInfo } from '../../lib/services/bm25-service.ts';
import { preparedSettings, type Bm25Settings, type DenseSettings, type RerankSettings, type RetrieverConfig } from '../../lib/retrievers/config.ts';
import type { Bm25Backend, DenseBackend, DenseOpenInfo, DenseProgress, JobSink, RerankBackend, RerankerOpenInfo } from './backends.ts';
import { PhaseJobs } from './phase-jobs.ts';
import { raceAbort } from './race-abort.ts';

/** What a column is waiting for while it prepares, for a status line. */
export interface PrepareStatus {
  resource: 'bm25' | 'dense' | 'rerank';
  message: string;
  done?: number;
  total?: number;
}

export interface PrepareOptions {
  /** Stops waiting (the preparation goes on for other columns): the promise rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Status of the preparations waited for. */
  onPrepare?: (status: PrepareStatus) => void;
}

export interface ResourceOptions {
  bm25: Bm25Backend;
  dense: DenseBackend;
  rerank?: RerankBackend;
  jobs: JobSink;
  /** A collection's name for job titles (default: its id). */
  collectionName?: (collectionId: string) => string;
  /** What identifies a collection's content (see EngineOptions.collectionVersion). */
  collectionVersion?: (collectionId: string) => string | number | undefined;
  /** Something the person should know that is not an error (a device fallback). */
  onNotice?: (message: string) => void;
}

/** The BM25 index a setting uses: postings depend on the analyzer only (k1 and b are applied at query time). */
export function bm25Part(settings: Bm25Settings): string {
  return `bm25|${settings.analyzer}`;
}

/** The corpus vectors (and HNSW graph) a setting uses: efSearch is applied at query time. */
export function densePart(settings: DenseSettings): string {
  const search = settings.search === 'hnsw' ? `hnsw:${settings.hnsw.M}:${settings.hnsw.efConstruction}` : 'exact';
  return `dense|${settings.model}|${settings.device}|${settings.dtype}|${search}`;
}

/** The cross-encoder a setting loads (one per model, device and dtype, whatever the collection). */
export function rerankPart(settings: RerankSettings): string {
  return `rerank|${settings.model}|${settings.device}|${settings.dtype}`;
}

export function modelName(settings: { model: string }): string {
  return settings.model.split('/').pop() ?? settings.model;
}

/** The cross-encoder backend, or the message a Re-rank column shows without one. */
export function requireRerank(backend: RerankBackend | undefined): RerankBackend {
  if (backend === undefined) throw new Error('re-ranking is not available here (no cross-encoder backend)');
  return backend;
}

interface Resource {
  promise: Promise<unknown>;
  ready: boolean;
  /** What opening it returned (IndexInfo, DenseOpenInfo). */
  value?: unknown;
  status: PrepareStatus | undefined;
  listeners: Set<(status: PrepareStatus) => void>;
}

export class EngineResources {
  private readonly resources = new Map<string, Resource>();
  private readonly collectionName: (collectionId: string) => string;

  constructor(private readonly options: ResourceOptions) {
    this.collectionName = options.collectionName ?? ((id) => id);
  }

  /** Keys of everything derived from a collection start with this (its id and content version). */
  scope(collectionId: string): string {
    return `${collectionId}@${this.options.collectionVersion?.(collectionId) ?? ''}|`;
  }

  /** Opens (loads or builds) everything the column needs; shared between columns with equal settings. */
  async prepare(collectionId: string, retriever: RetrieverConfig, options: PrepareOptions = {}): Promise<void> {
    const needs = preparedSettings(retriever);
    const waits: Promise<unknown>[] = [];
    if (needs.bm25) waits.push(this.watch(this.bm25Resource(collectionId, needs.bm25), options.onPrepare));
    if (needs.dense) waits.push(this.watch(this.denseResource(collectionId, needs.dense), options.onPrepare));
    if (needs.rerank) waits.push(this.watch(this.rerankResource(needs.rerank), options.onPrepare));
    await raceAbort(Promise.all(waits), options.signal);
  }

  /** True when everything the column needs is open (ranking it involves no build or load). */
  isPrepared(collectionId: string, retriever: RetrieverConfig): boolean {
    const needs = preparedSettings(retriever);
    const ready = (key: string) => this.resources.get(key)?.ready === true;
    return (
      (needs.bm25 === undefined || ready(this.scope(collectionId) + bm25Part(needs.bm25))) &&
      (needs.dense === undefined || ready(this.scope(collectionId) + densePart(needs.dense))) &&
      (needs.rerank === undefined || ready(rerankPart(needs.rerank)))
    );
  }

  /**
   * Starts the workers, kernels and models these columns will need, before a collection is ready (the
   * first visit imports the starter collection meanwhile). Errors surface when a column prepares.
   */
  warm(retrievers: readonly RetrieverConfig[]): void {
    for (const retriever of retrievers) {
      const { bm25, dense } = preparedSettings(retriever);
      if (bm25 !== undefined) this.options.bm25.warm(bm25.analyzer);
      if (dense !== undefined) this.options.dense.warm(dense);
    }
  }

  /**
   * The person is about to type (the query box took the focus): the models these columns embed typed text
   * with start loading, those that load only when needed included (a static table), so the first typed
   * query does not wait for them.
   */
  expectTyping(retrievers: readonly RetrieverConfig[]): void {
    for (const retriever of retrievers) {
      const { dense } = preparedSettings(retriever);
      if (dense !== undefined) this.options.dense.loadModel(dense);
    }
  }

  /** How a BM25 index was opened (built now or loaded, its size and build time). */
  bm25Info(collectionId: string, settings: Bm25Settings): IndexInfo | undefined {
    return this.resources.get(this.scope(collectionId) + bm25Part(settings))?.value as IndexInfo | undefined;
  }

  /** How a column's dense model was opened (the device after any fallback, cached vectors or not). */
  denseInfo(collectionId: string, settings: DenseSettings): DenseOpenInfo | undefined {
    return this.resources.get(this.scope(collectionId) + densePart(settings))?.value as DenseOpenInfo | undefined;
  }

  /** How a Re-rank column's cross-encoder was opened (device after any fallback, pair length). */
  rerankInfo(settings: RerankSettings): RerankerOpenInfo | undefined {
    return this.resources.get(rerankPart(settings))?.value as RerankerOpenInfo | undefined;
  }

  private rerankResource(settings: RerankSettings): Resource {
    return this.resource(rerankPart(settings), async (report) => {
      const controller = new AbortController();
      const phases = new PhaseJobs(this.options.jobs, (reason) => controller.abort(reason));
      const model = modelName(settings);
      report({ resource: 'rerank', message: `Loading the cross-encoder ${model}` });
      try {
        const info = await requireRerank(this.options.rerank).open(
          settings,
          (progress) => {
            const job = phases.enter('model', `Loading cross-encoder ${model} (${settings.dtype}, ${settings.device === 'auto' ? 'auto device' : settings.device})`, { unit: 'kB' });
            const kb = (bytes: number) => Math.round(bytes / 1024);
            job.progress(kb(progress.loaded), progress.total > 0 ? kb(progress.total) : undefined, progress.file);
            report({ resource: 'rerank', message: `Loading the cross-encoder ${model}`, done: progress.loaded, total: progress.total || undefined });
          },
          controller.signal,
        );
        phases.finish(`${model} on ${info.device} in ${Math.round(info.loadMs)} ms`);
        if (info.fallbackReason !== undefined) this.options.onNotice?.(`${model} runs on WASM: WebGPU failed (${info.fallbackReason}).`);
        return info;
      } catch (error) {
        phases.fail(error);
        throw error;
      }
    });
  }

  private watch(resource: Resource, listener: ((status: PrepareStatus) => void) | undefined): Promise<unknown> {
    if (listener === undefined || resource.ready) return resource.promise;
    resource.listeners.add(listener);
    if (resource.status) listener(resource.status);
    const done = () => resource.listeners.delete(listener);
    resource.promise.then(done, done);
    return resource.promise;
  }

  /** The resource under `key`, started by `open` if it is not open or opening (a failed one is retried). */
  private resource(key: string, open: (report: (status: PrepareStatus) => void) => Promise<unknown>): Resource {
    const existing = this.resources.get(key);
    if (existing) return existing;
    const resource: Resource = { promise: Promise.resolve(), ready: false, status: undefined, listeners: new Set() };
    const report = (status: PrepareStatus) => {
      resource.status = status;
      for (const listener of resource.listeners) listener(status);
    };
    resource.promise = open(report).then(
      (value) => {
        resource.ready = true;
        resource.value = value;
        return value;
      },
      (error: unknown) => {
        if (this.resources.get(key) === resource) this.resources.delete(key);
        throw error;
      },
    );
    this.resources.set(key, resource);
    return resource;
  }

  private bm25Resource(collectionId: string, settings: Bm25Settings): Resource {
    const { analyzer } = settings;
    return this.resource(this.scope(collectionId) + bm25Part(settings), async (report) => {
      const controller = new AbortController();
      const phases = new PhaseJobs(this.options.jobs, (reason) => controller.abort(reason));
      const name = this.collectionName(collectionId);
      try {
        const info = await this.options.bm25.open(
          collectionId,
          analyzer,
          (progress) => {
            if (progress.phase === 'loading') {
              report({ resource: 'bm25', message: `Loading the BM25 index (${analyzer})` });
              return;
            }
            const job = phases.enter('indexing', `Building BM25 index (${analyzer}) · ${name}`, { unit: 'docs', total: progress.docsTotal });
            const detail = progress.phase === 'saving' ? 'saving' : undefined;
            job.progress(progress.docsDone, progress.docsTotal, detail);
            report({ resource: 'bm25', message: `Building the BM25 index (${analyzer})`, done: progress.docsDone, total: progress.docsTotal });
          },
          controller.signal,
        );
        phases.finish(`${info.numDocs.toLocaleString('en-US')} docs, ${info.numTerms.toLocaleString('en-US')} terms in ${Math.round(info.buildMs)} ms`);
        return info;
      } catch (error) {
        phases.fail(error);
        throw error;
      }
    });
  }

  private denseResource(collectionId: string, settings: DenseSettings): Resource {
    return this.resource(this.scope(collectionId) + densePart(settings), async (report) => {
      const controller = new AbortController();
      const phases = new PhaseJobs(this.options.jobs, (reason) => controller.abort(reason));
      const name = this.collectionName(collectionId);
      const model = modelName(settings);
      const onProgress = (progress: DenseProgress) => {
        switch (progress.phase) {
          case 'model': {
            const job = phases.enter('model', `Loading model ${model} (${settings.dtype}, ${settings.device === 'auto' ? 'auto device' : settings.device})`, { unit: 'kB' });
            const kb = (bytes: number) => Math.round(bytes / 1024);
            job.progress(kb(progress.loaded), progress.total > 0 ? kb(progress.total) : undefined, progress.file);
            report({ resource: 'dense', message: `Loading the model ${model}`, done: progress.loaded, total: progress.total || undefined });
            return;
          }
          case 'reading':
          case 'embedding': {
            const job = phases.enter('embedding', `Embedding ${name} with ${model}`, { unit: 'docs', total: progress.total });
            job.progress(progress.done, progress.total, progress.phase === 'reading' ? 'reading documents' : undefined);
            report({ resource: 'dense', message: `Embedding the corpus with ${model}`, done: progress.done, total: progress.total });
            return;
          }
          case 'hnsw': {
            const job = phases.enter('hnsw', `Building HNSW index · ${model} · ${name}`, { unit: 'docs', total: progress.total });
            job.progress(progress.done, progress.total);
            report({ resource: 'dense', message: 'Building the HNSW index', done: progress.done, total: progress.total });
            return;
          }
        }
      };
      report({ resource: 'dense', message: `Opening ${model}` });
      try {
        const info: DenseOpenInfo = await this.options.dense.open(collectionId, settings, onProgress, controller.signal);
        const docs = info.docs.toLocaleString('en-US');
        phases.finish(
          phases.phase === 'hnsw' && info.hnsw
            ? `graph of ${docs} vectors in ${Math.round(info.hnsw.ms)} ms`
            : info.fromCache
              ? `${docs} vectors from the cache on ${info.device}`
              : `${docs} docs in ${Math.round(info.embedMs)} ms on ${info.device}`,
        );
        if (info.fallbackReason !== undefined) this.options.onNotice?.(`${model} runs on WASM: WebGPU failed (${info.fallbackReason}).`);
        return info;
      } catch (error) {
        phases.fail(error);
        throw error;
      }
    });
  }

  /**
   * A BM25 worker died (bm25-workers.ts): the indexes it held open are gone, so every column using this
   * analyzer prepares again on its next ranking (loading the stored index, or building it).
   */
  lostBm25(analyzer: string): void {
    this.dropResources((key) => key.endsWith(`|bm25|${analyzer}`));
  }

  /** A dense worker died (dense-workers.ts): its model and corpus vectors are gone; columns using them prepare again. */
  lostDense(settings: Pick<DenseSettings, 'model' | 'device' | 'dtype'>): void {
    this.dropResources((key) => key.includes(`|dense|${settings.model}|${settings.device}|${settings.dtype}|`));
  }

  /** A re-rank worker died: its cross-encoder is gone; Re-rank columns using it load it again. */
  lostReranker(settings: RerankSettings): void {
    this.resources.delete(rerankPart(settings));
  }

  /** A dense model fell back from WebGPU to WASM while in use (dense-workers.ts): denseInfo says so from now on. */
  movedToWasm(settings: Pick<DenseSettings, 'model' | 'device' | 'dtype'>, reason: string): void {
    const part = `|dense|${settings.model}|${settings.device}|${settings.dtype}|`;
    for (const [key, resource] of this.resources) {
      const info = resource.value as DenseOpenInfo | undefined;
      if (key.includes(part) && info !== undefined) resource.value = { ...info, device: 'wasm', fallbackReason: reason };
    }
  }

  private dropResources(match: (key: string) => boolean): void {
    for (const key of [...this.resources.keys()]) if (match(key)) this.resources.delete(key);
  }

  /** Forgets what belongs to a collection (after it was deleted or re-imported). */
  forget(collectionId: string): void {
    const prefix = `${collectionId}@`;
    for (const key of [...this.resources.keys()]) if (key.startsWith(prefix)) this.resources.delete(key);
  }
}
