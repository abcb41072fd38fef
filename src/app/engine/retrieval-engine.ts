/**
 * The engine behind every retriever column: it turns a column's configuration (src/lib/retrievers/config.ts)
 * into rankings, using BM25 and dense workers through the backends of backends.ts. Used by the Explore view
 * (one query, now) and the Evaluate dashboard (every query of a split, with progress and cancel).
 *
 * - `prepare` makes sure what a column needs exists: the BM25 index of its analyzer, the corpus vectors of
 *   its model (and the HNSW graph). Each of these is opened once per collection and settings, whichever
 *   columns ask for it, with a job in the tray while it is built (nothing is shown when it is loaded from
 *   storage). k1, b, efSearch, K, alpha… are query-time settings and never rebuild anything.
 * - `rankQuery` ranks one query; `rankQueries` ranks many, in chunks, reporting progress and stopping when
 *   its signal aborts. Fusions are computed here (src/lib/fusion), over the BM25 and dense rankings of the
 *   column's own settings, so every fused hit carries its parts.
 * - `explain` gathers why a document scores what it does in a column: BM25 term contributions (Lucene's
 *   explanation), the dense cosine, and its rank in each input ranking.
 *
 * The BM25 and dense rankings of a query are memoized (a small LRU), so a BM25 column and a LEDR column with
 * the same BM25 settings search once.
 */
import type { IndexInfo } from '../../lib/bm25-wasm/bm25-service.ts';
import type { Bm25Explanation } from '../../lib/bm25/bm25-explain.ts';
import type { QueryTermWeight } from '../../lib/bm25/bm25-query.ts';
import { convexCombination } from '../../lib/fusion/convex.ts';
import { lexiconEnhancedDense } from '../../lib/fusion/ledr.ts';
import { reciprocalRankFusion } from '../../lib/fusion/rrf.ts';
import { rerank } from '../../lib/rerank/rerank.ts';
import {
  preparedSettings,
  RUN_DEPTH,
  type Bm25Settings,
  type DenseSettings,
  type RerankSettings,
  type RetrieverConfig,
} from '../../lib/retrievers/config.ts';
import { settingsKey } from '../../lib/settings-key.ts';
import type { PrfRequest } from '../../lib/bm25-wasm/bm25-service.ts';
import type { PrfResult } from '../../lib/prf/prf-result.ts';
import type { Hit, Run } from '../../lib/types.ts';
import type { Bm25Backend, DenseBackend, DenseOpenInfo, DenseProgress, JobSink, RerankBackend, RerankerOpenInfo, RerankScoreProgress, RunBackend } from './backends.ts';
import { emptyRanking, plainHits, weightedKey, type QueryInput, type RankResult } from './column-ranking.ts';
import { PhaseJobs } from './phase-jobs.ts';

/** Queries whose BM25 rankings an evaluation leaves for the next column (SciFact's test split is 300). */
const BATCH_MEMO_QUERIES = 1_000;

export interface EngineOptions {
  bm25: Bm25Backend;
  dense: DenseBackend;
  runs: RunBackend;
  /** Cross-encoders of Re-rank columns (absent: such a column fails with a message). */
  rerank?: RerankBackend;
  jobs: JobSink;
  /** A collection's name for job titles (default: its id). */
  collectionName?: (collectionId: string) => string;
  /** BM25 and dense rankings kept for reuse (default 128). */
  memoSize?: number;
  /**
   * What identifies a collection's content (e.g. its import time): when it changes — the collection was
   * deleted and imported again — indexes are opened again and remembered rankings are not reused.
   */
  collectionVersion?: (collectionId: string) => string | number | undefined;
  /** Something the person should know that is not an error (a device fallback). */
  onNotice?: (message: string) => void;
}

/** What a column is waiting for while it prepares, for a status line. */
export interface PrepareStatus {
  resource: 'bm25' | 'dense' | 'rerank';
  message: string;
  done?: number;
  total?: number;
}

export interface RankOptions {
  /** Hits to return (default RUN_DEPTH = 1000). */
  depth?: number;
  /** Stops waiting (the result is not wanted any more): the promise rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Status of the preparations the ranking waits for. */
  onPrepare?: (status: PrepareStatus) => void;
  /** A Re-rank column's scoring of one query's pairs (pairs done of all, cached ones counted at once). */
  onScore?: (progress: RerankScoreProgress) => void;
}

export interface RankQueriesOptions extends RankOptions {
  /** Called after each chunk with the number of queries ranked so far. */
  onProgress?: (done: number, total: number) => void;
  /** Queries per worker call (default 32). */
  chunkSize?: number;
}

export interface RankedRun {
  run: Run;
  /** Wall time of the ranking, preparation excluded. */
  ms: number;
  /** Queries an imported run has no ranking for. */
  missing: string[];
}

/** Why a document scores what it scores in a column (its fused parts are in the ranking's hits). */
export interface HitExplanation {
  docId: string;
  bm25?: {
    settings: Bm25Settings;
    explanation?: Bm25Explanation;
    error?: string;
    /** 1-based rank in the column's BM25 ranking (its top K for LEDR), null when outside it. */
    rank: number | null;
    depth: number;
    /** RM3 / Bo1: the expanded weighted query the explanation is of (the rank is in its ranking). */
    expanded?: QueryTermWeight[];
  };
  dense?: {
    settings: DenseSettings;
    /** The model's similarity of query and document (cosine for normalized models). */
    similarity?: number;
    error?: string;
    /** 1-based rank in the column's dense ranking (absent for LEDR, which scores BM25's candidates only). */
    rank?: number | null;
    depth: number;
  };
}

/** The BM25 index a setting uses: postings depend on the analyzer only (k1 and b are applied at query time). */
function bm25Part(settings: Bm25Settings): string {
  return `bm25|${settings.analyzer}`;
}

/** The corpus vectors (and HNSW graph) a setting uses: efSearch is applied at query time. */
function densePart(settings: DenseSettings): string {
  const search = settings.search === 'hnsw' ? `hnsw:${settings.hnsw.M}:${settings.hnsw.efConstruction}` : 'exact';
  return `dense|${settings.model}|${settings.device}|${settings.dtype}|${search}`;
}

interface Resource {
  promise: Promise<unknown>;
  ready: boolean;
  /** What opening it returned (IndexInfo, DenseOpenInfo). */
  value?: unknown;
  status: PrepareStatus | undefined;
  listeners: Set<(status: PrepareStatus) => void>;
}

function abortError(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('aborted', 'AbortError');
}

/** Settles with `promise`, or rejects as soon as `signal` aborts (the work itself goes on). */
function raceAbort<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return promise;
  if (signal.aborted) return Promise.reject(abortError(signal));
  return new Promise<T>((resolve, reject) => {
    const stop = () => reject(abortError(signal));
    signal.addEventListener('abort', stop, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', stop);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', stop);
        reject(error);
      },
    );
  });
}

function isBlank(text: string): boolean {
  return text.trim() === '';
}

function rankOf(hits: readonly Hit[], docId: string): number | null {
  const index = hits.findIndex((hit) => hit.docId === docId);
  return index < 0 ? null : index + 1;
}

/** The cross-encoder a setting loads (one per model, device and dtype, whatever the collection). */
function rerankPart(settings: RerankSettings): string {
  return `rerank|${settings.model}|${settings.device}|${settings.dtype}`;
}

/** What RM3 or Bo1 is asked to do, from a column's settings. */
function prfRequest(retriever: Extract<RetrieverConfig, { kind: 'rm3' | 'bo1' }>): PrfRequest {
  return retriever.kind === 'rm3'
    ? { method: 'rm3', fbTerms: retriever.fbTerms, fbDocs: retriever.fbDocs, originalQueryWeight: retriever.originalQueryWeight }
    : { method: 'bo1', fbTerms: retriever.fbTerms, fbDocs: retriever.fbDocs };
}

function modelName(settings: { model: string }): string {
  return settings.model.split('/').pop() ?? settings.model;
}

export class RetrievalEngine {
  private readonly resources = new Map<string, Resource>();
  private readonly memo = new Map<string, Promise<unknown>>();
  /** BM25 rankings of the latest evaluations' queries, by the same keys as `memo` (oldest first). */
  private readonly batchMemo = new Map<string, Hit[]>();
  private readonly memoSize: number;
  private readonly collectionName: (collectionId: string) => string;

  constructor(private readonly options: EngineOptions) {
    this.memoSize = options.memoSize ?? 128;
    this.collectionName = options.collectionName ?? ((id) => id);
  }

  /** Keys of everything derived from a collection start with this (its id and content version). */
  private scope(collectionId: string): string {
    return `${collectionId}@${this.options.collectionVersion?.(collectionId) ?? ''}|`;
  }

  // ---- Preparation ----

  /** Opens (loads or builds) everything the column needs; shared between columns with equal settings. */
  async prepare(collectionId: string, retriever: RetrieverConfig, options: Pick<RankOptions, 'signal' | 'onPrepare'> = {}): Promise<void> {
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

  private rerankBackend(): RerankBackend {
    if (this.options.rerank === undefined) throw new Error('re-ranking is not available here (no cross-encoder backend)');
    return this.options.rerank;
  }

  private rerankResource(settings: RerankSettings): Resource {
    return this.resource(rerankPart(settings), async (report) => {
      const controller = new AbortController();
      const phases = new PhaseJobs(this.options.jobs, (reason) => controller.abort(reason));
      const model = modelName(settings);
      report({ resource: 'rerank', message: `Loading the cross-encoder ${model}` });
      try {
        const info = await this.rerankBackend().open(
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

  // ---- Memoized component rankings ----

  private remember<T>(key: string, compute: () => Promise<T>): Promise<T> {
    const hit = this.memo.get(key);
    if (hit !== undefined) {
      // Refresh its place in the LRU order.
      this.memo.delete(key);
      this.memo.set(key, hit);
      return hit as Promise<T>;
    }
    const promise = compute();
    this.memo.set(key, promise);
    promise.catch(() => {
      if (this.memo.get(key) === promise) this.memo.delete(key);
    });
    while (this.memo.size > this.memoSize) this.memo.delete(this.memo.keys().next().value!);
    return promise;
  }

  private bm25Key(collectionId: string, settings: Bm25Settings, k: number, query: QueryInput): string {
    return `${this.scope(collectionId)}${bm25Part(settings)}|${settings.k1}|${settings.b}|${k}|${query.id ?? ''}|${query.text}|${weightedKey(query)}`;
  }

  /**
   * BM25 top `depth` of many queries, in one call for those not ranked by a recent evaluation (a LEDR column
   * evaluated after a BM25 column with the same settings reuses its rankings instead of searching again).
   */
  private async bm25Batch(collectionId: string, settings: Bm25Settings, queries: readonly QueryInput[], depth: number): Promise<Hit[][]> {
    const k = Math.max(depth, RUN_DEPTH);
    const keys = queries.map((query) => this.bm25Key(collectionId, settings, k, query));
    const lists = keys.map((key) => this.batchMemo.get(key));
    const todo = queries.filter((_, i) => lists[i] === undefined);
    if (todo.length > 0) {
      const found = await this.options.bm25.search(collectionId, settings.analyzer, todo, { k, k1: settings.k1, b: settings.b });
      let next = 0;
      lists.forEach((list, i) => {
        if (list !== undefined) return;
        const hits = found[next++] ?? [];
        lists[i] = hits;
        this.batchMemo.set(keys[i]!, hits);
      });
      while (this.batchMemo.size > BATCH_MEMO_QUERIES) this.batchMemo.delete(this.batchMemo.keys().next().value!);
    }
    return lists.map((hits) => (hits!.length > depth ? hits!.slice(0, depth) : hits!));
  }

  /** BM25 top `depth` of one query (at least RUN_DEPTH are fetched, so other depths share the call). */
  private async bm25Hits(collectionId: string, settings: Bm25Settings, query: QueryInput, depth: number): Promise<Hit[]> {
    const k = Math.max(depth, RUN_DEPTH);
    const key = this.bm25Key(collectionId, settings, k, query);
    const hits = await this.remember(key, async () => {
      const [result] = await this.options.bm25.search(collectionId, settings.analyzer, [query], { k, k1: settings.k1, b: settings.b });
      return result ?? [];
    });
    return hits.length > depth ? hits.slice(0, depth) : hits;
  }

  private async denseHits(collectionId: string, settings: DenseSettings, text: string, depth: number): Promise<Hit[]> {
    const k = Math.max(depth, RUN_DEPTH);
    const ef = settings.search === 'hnsw' ? settings.hnsw.efSearch : '';
    const key = `${this.scope(collectionId)}${densePart(settings)}|${ef}|${k}|${text}`;
    const hits = await this.remember(key, async () => {
      const [result] = await this.options.dense.search(collectionId, settings, [text], k);
      return result ?? [];
    });
    return hits.length > depth ? hits.slice(0, depth) : hits;
  }

  private async similarities(collectionId: string, settings: DenseSettings, text: string, docIds: readonly string[]): Promise<Map<string, number>> {
    const [scores = []] = await this.options.dense.score(collectionId, settings, [text], [docIds]);
    return new Map(docIds.map((docId, i) => [docId, scores[i] ?? Number.NaN]));
  }

  // ---- One query ----

  /** Ranks one query with a column (preparing what it needs first). */
  async rankQuery(collectionId: string, retriever: RetrieverConfig, query: QueryInput, options: RankOptions = {}): Promise<RankResult> {
    const depth = options.depth ?? RUN_DEPTH;
    await this.prepare(collectionId, retriever, options);
    const started = performance.now();
    const result = await raceAbort(this.rank(collectionId, retriever, query, depth, options), options.signal);
    return { ...result, ms: performance.now() - started };
  }

  private async rank(collectionId: string, retriever: RetrieverConfig, query: QueryInput, depth: number, options: RankOptions = {}): Promise<Omit<RankResult, 'ms'>> {
    if (retriever.kind === 'run') return this.rankFromRun(collectionId, retriever, query, depth);
    if (isBlank(query.text)) return { ranking: emptyRanking(retriever), note: 'Type a query or pick one.' };
    switch (retriever.kind) {
      case 'bm25': {
        const hits = await this.bm25Hits(collectionId, retriever.bm25, query, depth);
        return { ranking: { kind: 'bm25', hits }, ...(hits.length === 0 ? { note: 'No document shares a term with the query.' } : {}) };
      }
      case 'dense': {
        const hits = await this.denseHits(collectionId, retriever.dense, query.text, depth);
        // The dense worker ranks nothing for a zero query vector (a static model that knows none of the words).
        return { ranking: { kind: 'dense', hits }, ...(hits.length === 0 ? { note: 'The model knows none of the query’s words (its vector is zero), so it ranks nothing.' } : {}) };
      }
      case 'ledr': {
        const candidates = await this.bm25Hits(collectionId, retriever.bm25, query, retriever.k);
        const cosines = await this.similarities(collectionId, preparedSettings(retriever).dense!, query.text, candidates.map((hit) => hit.docId));
        const hits = lexiconEnhancedDense(candidates, cosines, { k: retriever.k, limit: depth });
        return { ranking: { kind: 'ledr', hits }, ...(hits.length === 0 ? { note: 'BM25 finds no candidate, so LEDR ranks nothing (its score is cosine × BM25).' } : {}) };
      }
      case 'rrf': {
        const [bm25, dense] = await Promise.all([
          this.bm25Hits(collectionId, retriever.bm25, query, RUN_DEPTH),
          this.denseHits(collectionId, retriever.dense, query.text, RUN_DEPTH),
        ]);
        return { ranking: { kind: 'rrf', hits: reciprocalRankFusion([bm25, dense], { k: retriever.k, limit: depth }) } };
      }
      case 'convex': {
        const [bm25, dense] = await Promise.all([
          this.bm25Hits(collectionId, retriever.bm25, query, RUN_DEPTH),
          this.denseHits(collectionId, retriever.dense, query.text, RUN_DEPTH),
        ]);
        const hits = convexCombination(bm25, dense, { alpha: retriever.alpha, normalization: retriever.normalization, limit: depth });
        return { ranking: { kind: 'convex', hits } };
      }
      case 'rm3':
      case 'bo1': {
        const result = await this.prfResult(collectionId, retriever, query, depth);
        const hits = result.hits.length > depth ? result.hits.slice(0, depth) : result.hits;
        return {
          ranking: { kind: retriever.kind, hits, expanded: result.expanded, feedbackDocIds: result.feedbackDocIds },
          ...(hits.length === 0 ? { note: 'No document shares a term with the query, so there is no feedback either.' } : {}),
        };
      }
      case 'rerank': {
        const first = await this.rank(collectionId, retriever.firstStage, query, retriever.depth, options);
        const candidates = plainHits(first.ranking.hits.slice(0, retriever.depth));
        const hits = await rerank(candidates, retriever.depth, (docIds) =>
          this.rerankBackend().score(collectionId, retriever.rerank, query.text, docIds, { signal: options.signal, onProgress: options.onScore }),
        );
        return {
          ranking: { kind: 'rerank', hits: hits.length > depth ? hits.slice(0, depth) : hits, firstStage: candidates, depth: retriever.depth },
          ...(first.note !== undefined && hits.length === 0 ? { note: `First stage: ${first.note}` } : {}),
        };
      }
    }
  }

  /** RM3 / Bo1 of one query (at least RUN_DEPTH hits, memoized like the BM25 rankings). */
  private prfResult(collectionId: string, retriever: Extract<RetrieverConfig, { kind: 'rm3' | 'bo1' }>, query: QueryInput, depth: number): Promise<PrfResult> {
    const k = Math.max(depth, RUN_DEPTH);
    const { bm25 } = retriever;
    const key = `${this.scope(collectionId)}${bm25Part(bm25)}|prf|${settingsKey(retriever)}|${k}|${query.id ?? ''}|${query.text}|${weightedKey(query)}`;
    return this.remember(key, async () => {
      const [result] = await this.options.bm25.searchPrf(collectionId, bm25.analyzer, [query], prfRequest(retriever), { k, k1: bm25.k1, b: bm25.b });
      if (result === undefined) throw new Error('the BM25 worker returned no feedback result');
      return result;
    });
  }

  private async rankFromRun(
    collectionId: string,
    retriever: Extract<RetrieverConfig, { kind: 'run' }>,
    query: QueryInput,
    depth: number,
  ): Promise<Omit<RankResult, 'ms'>> {
    const empty = (note: string): Omit<RankResult, 'ms'> => ({ ranking: { kind: 'run', hits: [] }, note });
    const run = await this.loadRun(collectionId, retriever.runKey);
    if (run === undefined) return empty(`The run "${retriever.name}" is not stored in this browser for this collection: import the file again.`);
    if (query.id === undefined) return empty('An imported run only ranks the queries it contains, not typed text.');
    const hits = run.get(query.id);
    if (hits === undefined) return empty(`The run "${retriever.name}" has no ranking for query ${query.id}.`);
    return { ranking: { kind: 'run', hits: hits.slice(0, depth) } };
  }

  private loadRun(collectionId: string, runKey: string): Promise<Run | undefined> {
    return this.remember(`${this.scope(collectionId)}run|${runKey}`, () => this.options.runs.load(collectionId, runKey));
  }

  // ---- Many queries (evaluation) ----

  /**
   * Ranks every query with a column, `chunkSize` queries per worker call, reporting progress after each
   * chunk and stopping between chunks when `signal` aborts. Hits carry no parts. Queries need ids.
   */
  async rankQueries(
    collectionId: string,
    retriever: RetrieverConfig,
    queries: readonly (QueryInput & { id: string })[],
    options: RankQueriesOptions = {},
  ): Promise<RankedRun> {
    const depth = options.depth ?? RUN_DEPTH;
    const chunkSize = Math.max(1, options.chunkSize ?? 32);
    await this.prepare(collectionId, retriever, options);
    const started = performance.now();
    const run: Run = new Map();
    const missing: string[] = [];
    options.onProgress?.(0, queries.length);
    for (let start = 0; start < queries.length; start += chunkSize) {
      options.signal?.throwIfAborted();
      const chunk = queries.slice(start, start + chunkSize);
      const rankings = await this.rankChunk(collectionId, retriever, chunk, depth, options.signal);
      chunk.forEach((query, i) => {
        const hits = rankings[i];
        if (hits === undefined) missing.push(query.id);
        else run.set(query.id, hits);
      });
      options.signal?.throwIfAborted();
      options.onProgress?.(Math.min(start + chunk.length, queries.length), queries.length);
    }
    return { run, ms: performance.now() - started, missing };
  }

  /** One chunk's rankings (undefined: an imported run without this query). */
  private async rankChunk(
    collectionId: string,
    retriever: RetrieverConfig,
    queries: readonly (QueryInput & { id: string })[],
    depth: number,
    signal?: AbortSignal,
  ): Promise<Array<Hit[] | undefined>> {
    if (retriever.kind === 'run') {
      const run = await this.loadRun(collectionId, retriever.runKey);
      if (run === undefined) throw new Error(`The run "${retriever.name}" is not stored in this browser for this collection.`);
      return queries.map((query) => run.get(query.id)?.slice(0, depth));
    }
    const texts = queries.map((query) => query.text);
    const bm25 = (settings: Bm25Settings, k: number) => this.bm25Batch(collectionId, settings, queries, k);
    const dense = (settings: DenseSettings, k: number) => this.options.dense.search(collectionId, settings, texts, k);
    switch (retriever.kind) {
      case 'bm25':
        return bm25(retriever.bm25, depth);
      case 'dense':
        return (await dense(retriever.dense, depth)).map((hits, i) => (isBlank(texts[i]!) ? [] : hits));
      case 'ledr': {
        const candidates = await bm25(retriever.bm25, retriever.k);
        const scores = await this.options.dense.score(collectionId, preparedSettings(retriever).dense!, texts, candidates.map((hits) => hits.map((hit) => hit.docId)));
        return candidates.map((hits, i) => {
          const row = scores[i] ?? [];
          const cosines = new Map(hits.map((hit, j) => [hit.docId, row[j] ?? Number.NaN]));
          return plainHits(lexiconEnhancedDense(hits, cosines, { k: retriever.k, limit: depth }));
        });
      }
      case 'rrf':
      case 'convex': {
        const [lexical, semantic] = await Promise.all([bm25(retriever.bm25, RUN_DEPTH), dense(retriever.dense, RUN_DEPTH)]);
        return lexical.map((hits, i) => {
          const other = isBlank(texts[i]!) ? [] : (semantic[i] ?? []);
          return plainHits(
            retriever.kind === 'rrf'
              ? reciprocalRankFusion([hits, other], { k: retriever.k, limit: depth })
              : convexCombination(hits, other, { alpha: retriever.alpha, normalization: retriever.normalization, limit: depth }),
          );
        });
      }
      case 'rm3':
      case 'bo1': {
        const { bm25: settings } = retriever;
        const results = await this.options.bm25.searchPrf(collectionId, settings.analyzer, queries, prfRequest(retriever), { k: depth, k1: settings.k1, b: settings.b });
        return results.map((result) => result.hits);
      }
      case 'rerank': {
        const firstStage = await this.rankChunk(collectionId, retriever.firstStage, queries, retriever.depth, signal);
        const rankings: Array<Hit[] | undefined> = [];
        for (const [i, query] of queries.entries()) {
          signal?.throwIfAborted();
          const candidates = firstStage[i];
          if (candidates === undefined) {
            rankings.push(undefined);
            continue;
          }
          const hits = await rerank(candidates, retriever.depth, (docIds) => this.rerankBackend().score(collectionId, retriever.rerank, query.text, docIds, { signal }));
          rankings.push(plainHits(hits.slice(0, depth)));
        }
        return rankings;
      }
    }
  }

  // ---- Explanations ----

  /** Why `docId` scores what it does in the column (BM25 terms, dense similarity, input ranks). */
  async explain(collectionId: string, retriever: RetrieverConfig, query: QueryInput, docId: string, options: Pick<RankOptions, 'signal'> = {}): Promise<HitExplanation> {
    await this.prepare(collectionId, retriever, options);
    const needs = preparedSettings(retriever);
    // A Re-rank column's BM25 and dense parts are its first stage's.
    const source = retriever.kind === 'rerank' ? retriever.firstStage : retriever;
    const explanation: HitExplanation = { docId };
    const message = (error: unknown) => (error instanceof Error ? error.message : String(error));
    const work: Promise<void>[] = [];
    if (needs.bm25) {
      const settings = needs.bm25;
      const depth = source.kind === 'ledr' ? source.k : RUN_DEPTH;
      work.push(
        (async () => {
          // RM3 and Bo1 score with BM25 on the expanded weighted query: explain that query, rank in its ranking.
          const prf = (source.kind === 'rm3' || source.kind === 'bo1') && !isBlank(query.text) ? await this.prfResult(collectionId, source, query, RUN_DEPTH) : undefined;
          const hits = isBlank(query.text) ? [] : prf ? prf.hits : await this.bm25Hits(collectionId, settings, query, depth);
          const part: NonNullable<HitExplanation['bm25']> = { settings, rank: rankOf(hits, docId), depth };
          if (prf) part.expanded = prf.expanded;
          try {
            part.explanation = await this.options.bm25.explain(collectionId, settings.analyzer, prf ? prf.expanded : (query.weighted ?? query.text), docId, { k1: settings.k1, b: settings.b });
          } catch (error) {
            part.error = message(error);
          }
          explanation.bm25 = part;
        })(),
      );
    }
    if (needs.dense) {
      const settings = needs.dense;
      work.push(
        (async () => {
          const part: NonNullable<HitExplanation['dense']> = { settings, depth: RUN_DEPTH };
          if (source.kind !== 'ledr') {
            const hits = isBlank(query.text) ? [] : await this.denseHits(collectionId, settings, query.text, RUN_DEPTH);
            part.rank = rankOf(hits, docId);
          }
          try {
            const similarity = (await this.similarities(collectionId, settings, query.text, [docId])).get(docId);
            if (similarity !== undefined && Number.isFinite(similarity)) part.similarity = similarity;
            else part.error = `document ${docId} has no vector`;
          } catch (error) {
            part.error = message(error);
          }
          explanation.dense = part;
        })(),
      );
    }
    await raceAbort(Promise.all(work), options.signal);
    return explanation;
  }

  // ---- Housekeeping ----

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
    for (const key of [...this.memo.keys()]) if (key.startsWith(prefix)) this.memo.delete(key);
  }
}
