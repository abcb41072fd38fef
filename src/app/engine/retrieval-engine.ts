/**
 * The engine behind every retriever column: it turns a column's configuration (src/lib/retrievers/config.ts)
 * into rankings, using BM25 and dense workers through the backends of backends.ts. Used by the Explore view
 * (one query, now) and the Evaluate dashboard (every query of a split, with progress and cancel).
 *
 * Each concern has its module; this class holds them together:
 * - preparation and its jobs (engine-resources.ts): what a column needs is opened once, whoever asks;
 * - the memo (ranking-memo.ts): the workers behind the ranking's search interface, remembering rankings;
 * - ranking (engine-ranking.ts): `rankBatch` of src/lib/retrievers/rank.ts — the CLI's ranking too;
 * - explanations (hit-explain.ts): why a document scores what it does.
 */
import type { IndexInfo } from '../../lib/services/bm25-service.ts';
import { RUN_DEPTH, type DenseSettings, type RerankSettings, type RetrieverConfig, type Bm25Settings } from '../../lib/retrievers/config.ts';
import type { RankedList } from '../../lib/hits/row-ranking.ts';
import type { AugmentBackend, Bm25Backend, DenseBackend, DenseOpenInfo, JobSink, RerankBackend, RerankerOpenInfo, RerankScoreProgress, RunBackend } from './backends.ts';
import type { ExpandedTerm, RankQuery } from '../../lib/retrievers/ranking.ts';
import type { RankResult } from './column-ranking.ts';
import { rankChunk, rankOne } from './engine-ranking.ts';
import { EngineResources, type PrepareOptions } from './engine-resources.ts';
import { explainHit, type HitExplanation } from './hit-explain.ts';
import { raceAbort } from './race-abort.ts';
import { settingsKey } from '../../lib/settings-key.ts';
import { RankingMemo } from './ranking-memo.ts';
import { tune, type TuneRequest, type TuneResult } from '../../lib/tuning/tune.ts';
import type { SavedRankings } from './saved-rankings.ts';

export type { PrepareStatus } from './engine-resources.ts';
export type { HitExplanation } from './hit-explain.ts';

/**
 * Chunks of an evaluation sent to the workers before the first has come back (rankQueries): enough that a
 * worker is never idle while the page draws. A cancel lets the chunks already sent finish in the worker.
 */
const CHUNKS_IN_FLIGHT = 4;

export interface EngineOptions {
  bm25: Bm25Backend;
  dense: DenseBackend;
  runs: RunBackend;
  /** Cross-encoders of Re-rank columns (absent: such a column fails with a message). */
  rerank?: RerankBackend;
  /** Augmented BM25's query expansion (absent: such a column fails with a message). */
  augment?: AugmentBackend;
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
  /** Rankings of single queries kept across visits (saved-rankings.ts); absent: none are kept. */
  saved?: SavedRankings;
  /** Runs work once the page has drawn what it has (the page: when idle; default: the next task). */
  whenIdle?: (run: () => void) => void;
}

export interface RankOptions extends PrepareOptions {
  /** Hits to return (default RUN_DEPTH = 1000). */
  depth?: number;
  /** A Re-rank column's scoring of one query's pairs (pairs done of all, cached ones counted at once). */
  onScore?: (progress: RerankScoreProgress) => void;
}

export interface RankQueriesOptions extends RankOptions {
  /** Called after each chunk with the number of queries ranked so far. */
  onProgress?: (done: number, total: number) => void;
  /** Queries per worker call (default 32). */
  chunkSize?: number;
  /** Augmented BM25: each chunk's learned queries, as the model made them (terms per query). */
  onExpanded?: (bags: readonly ExpandedTerm[][]) => void;
}

export interface RankedRun {
  /** Rankings of rows where the workers answer so (row-ranking.ts), else hits. */
  run: Map<string, RankedList>;
  /** Wall time of the ranking, preparation excluded. */
  ms: number;
  /** Queries an imported run has no ranking for. */
  missing: string[];
}

export class RetrievalEngine {
  private readonly resources: EngineResources;
  private readonly memo: RankingMemo;
  /** Opened when work held by `holdWorkAhead` may start. */
  private held: { opened: Promise<void>; open: () => void } | undefined;

  constructor(private readonly options: EngineOptions) {
    this.resources = new EngineResources(options);
    this.memo = new RankingMemo(options, (collectionId) => this.resources.scope(collectionId), options.memoSize ?? 128);
  }

  // ---- Preparation ----

  /** Opens (loads or builds) everything the column needs; shared between columns with equal settings. */
  prepare(collectionId: string, retriever: RetrieverConfig, options: PrepareOptions = {}): Promise<void> {
    this.releaseWorkAhead();
    return this.resources.prepare(collectionId, retriever, options);
  }

  /** `prepare` ahead of the column's first ranking (failures show there), after any work held back. */
  prepareAhead(collectionId: string, retriever: RetrieverConfig): void {
    this.afterHeld(() => void this.resources.prepare(collectionId, retriever).catch(() => undefined));
  }

  /**
   * Holds back the work done ahead of need (`warm`, `prepareAhead`) while the page shows saved rankings:
   * their workers' start-up would take the cores from the page drawing them. It starts once a saved ranking has been
   * drawn, when anything needs a worker (`prepare`, a ranking not saved), or after `maxMs`.
   */
  holdWorkAhead(maxMs: number): void {
    let open!: () => void;
    const opened = new Promise<void>((resolve) => (open = resolve));
    this.held = { opened, open };
    setTimeout(() => this.releaseWorkAhead(), maxMs);
  }

  private releaseWorkAhead(): void {
    const held = this.held;
    this.held = undefined;
    held?.open();
  }

  private afterHeld(work: () => void): void {
    if (this.held === undefined) work();
    else void this.held.opened.then(work);
  }

  /** True when everything the column needs is open (ranking it involves no build or load). */
  isPrepared(collectionId: string, retriever: RetrieverConfig): boolean {
    return this.resources.isPrepared(collectionId, retriever);
  }

  /** Starts the workers, kernels and models these columns will need, before a collection is ready. */
  warm(retrievers: readonly RetrieverConfig[]): void {
    this.afterHeld(() => this.resources.warm(retrievers));
  }

  /** The person is about to type: the columns' models start loading (EngineResources.expectTyping). */
  expectTyping(retrievers: readonly RetrieverConfig[]): void {
    this.releaseWorkAhead();
    this.resources.expectTyping(retrievers);
  }

  /** How a BM25 index was opened (built now or loaded, its size and build time). */
  bm25Info(collectionId: string, settings: Bm25Settings): IndexInfo | undefined {
    return this.resources.bm25Info(collectionId, settings);
  }

  /** How a column's dense model was opened (the device after any fallback, cached vectors or not). */
  denseInfo(collectionId: string, settings: DenseSettings): DenseOpenInfo | undefined {
    return this.resources.denseInfo(collectionId, settings);
  }

  /** How a Re-rank column's cross-encoder was opened (device after any fallback, pair length). */
  rerankInfo(settings: RerankSettings): RerankerOpenInfo | undefined {
    return this.resources.rerankInfo(settings);
  }

  // ---- Ranking ----

  /**
   * Ranks one query with a column (preparing what it needs first); fused hits carry their parts. A column not
   * prepared yet answers with the ranking saved for the same key when there is one (saved-rankings.ts), and
   * prepares in the background for the next query.
   */
  async rankQuery(collectionId: string, retriever: RetrieverConfig, query: RankQuery, options: RankOptions = {}): Promise<RankResult> {
    const depth = options.depth ?? RUN_DEPTH;
    const { saved } = this.options;
    const savedKey = saved?.key(collectionId, this.options.collectionVersion?.(collectionId), retriever, query, depth);
    if (saved !== undefined && savedKey !== undefined && !this.isPrepared(collectionId, retriever)) {
      const found = await raceAbort(saved.read(savedKey, retriever.kind), options.signal);
      if (found !== undefined) {
        // Work held back starts once the answer is drawn; the column prepares then, for its next ranking.
        (this.options.whenIdle ?? ((run) => setTimeout(run, 0)))(() => this.releaseWorkAhead());
        this.prepareAhead(collectionId, retriever);
        return { ...found, ms: 0, saved: true };
      }
    }
    await this.prepare(collectionId, retriever, options);
    // One ranking per column settings at a time: a request superseded while it waits never reaches a worker.
    // Each keystroke ranks at once, and on a large collection a worker would otherwise compute every one in turn.
    const lane = `${collectionId}\u0000${settingsKey(retriever)}`;
    const busy = this.#rankingNow.get(lane);
    if (busy !== undefined) await raceAbort(busy, options.signal);
    options.signal?.throwIfAborted();
    const started = performance.now();
    const work = rankOne(this.memo, collectionId, retriever, query, depth, options);
    const settled = work.then(
      () => undefined,
      () => undefined,
    );
    this.#rankingNow.set(lane, settled);
    void settled.then(() => {
      if (this.#rankingNow.get(lane) === settled) this.#rankingNow.delete(lane);
    });
    const result = await raceAbort(work, options.signal);
    if (savedKey !== undefined) saved?.save(savedKey, collectionId, retriever, result);
    return { ...result, ms: performance.now() - started };
  }

  /** Per collection and column settings: the ranking a worker computes now (settled when it has answered). */
  readonly #rankingNow = new Map<string, Promise<void>>();

  /**
   * Ranks every query with a column, `chunkSize` queries per worker call, reporting progress after each
   * chunk and rejecting as soon as `signal` aborts (the chunks already sent finish in the worker, unread).
   * Hits carry no parts. Queries need ids.
   */
  async rankQueries(
    collectionId: string,
    retriever: RetrieverConfig,
    queries: readonly (RankQuery & { id: string })[],
    options: RankQueriesOptions = {},
  ): Promise<RankedRun> {
    const depth = options.depth ?? RUN_DEPTH;
    const chunkSize = Math.max(1, options.chunkSize ?? 32);
    await this.prepare(collectionId, retriever, options);
    const started = performance.now();
    const run = new Map<string, RankedList>();
    const missing: string[] = [];
    options.onProgress?.(0, queries.length);
    // Several chunks in flight: a worker ranks the next ones while the page takes in the last one's rankings;
    // a cancel sends no further chunk (those in flight are dropped).
    const launch = (start: number) => {
      const chunk = queries.slice(start, start + chunkSize);
      const rankings = rankChunk(this.memo, collectionId, retriever, chunk, depth, options.signal, options.onExpanded);
      // A failure is thrown where the chunk is awaited, not as an unhandled rejection before that.
      rankings.catch(() => undefined);
      return { chunk, start, rankings };
    };
    const inFlight: Array<ReturnType<typeof launch>> = [];
    let next = 0;
    const fill = () => {
      while (inFlight.length < CHUNKS_IN_FLIGHT && next < queries.length) {
        inFlight.push(launch(next));
        next += chunkSize;
      }
    };
    options.signal?.throwIfAborted();
    fill();
    while (inFlight.length > 0) {
      const { chunk, start, rankings: pending } = inFlight.shift()!;
      // A cancel stops the wait at once: a chunk held in a busy worker must not keep the column running.
      const rankings = await raceAbort(pending, options.signal);
      chunk.forEach((query, i) => {
        const hits = rankings[i];
        if (hits === undefined) missing.push(query.id);
        else run.set(query.id, hits);
      });
      options.signal?.throwIfAborted();
      options.onProgress?.(Math.min(start + chunk.length, queries.length), queries.length);
      options.signal?.throwIfAborted();
      fill();
    }
    return { run, ms: performance.now() - started, missing };
  }

  /**
   * Tunes a column on a split (src/lib/tuning): its BM25 and dense searches run in the workers, each distinct
   * one once; fusions and measures run here. Stops between grid points when `signal` aborts.
   */
  async tune(collectionId: string, request: Omit<TuneRequest, 'search'>, options: PrepareOptions = {}): Promise<TuneResult> {
    await this.prepare(collectionId, request.base, options);
    return tune({ ...request, search: this.memo.forBatch(collectionId, request.signal) });
  }

  // ---- Explanations ----

  /** Why `docId` scores what it does in the column (BM25 terms, dense similarity, input ranks). */
  async explain(collectionId: string, retriever: RetrieverConfig, query: RankQuery, docId: string, options: Pick<RankOptions, 'signal'> = {}): Promise<HitExplanation> {
    await this.prepare(collectionId, retriever, options);
    return raceAbort(explainHit(this.memo.forQuery(collectionId), this.options.bm25, collectionId, retriever, query, docId), options.signal);
  }

  // ---- Housekeeping ----

  /** A BM25 worker died (bm25-workers.ts): columns using this analyzer prepare again on their next ranking. */
  lostBm25(analyzer: string): void {
    this.resources.lostBm25(analyzer);
  }

  /** A dense worker died (dense-workers.ts): its model and corpus vectors are gone; columns using them prepare again. */
  lostDense(settings: Pick<DenseSettings, 'model' | 'device' | 'dtype'>): void {
    this.resources.lostDense(settings);
  }

  /** A re-rank worker died: its cross-encoder is gone; Re-rank columns using it load it again. */
  lostReranker(settings: RerankSettings): void {
    this.resources.lostReranker(settings);
  }

  /** A dense model fell back from WebGPU to WASM while in use (dense-workers.ts): denseInfo says so from now on. */
  movedToWasm(settings: Pick<DenseSettings, 'model' | 'device' | 'dtype'>, reason: string): void {
    this.resources.movedToWasm(settings, reason);
  }

  /** Forgets what belongs to a collection (after it was deleted or re-imported). */
  forget(collectionId: string): void {
    this.resources.forget(collectionId);
    this.memo.forget(collectionId);
    this.options.saved?.forget(collectionId);
  }
}
