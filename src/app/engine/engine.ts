/**
 * The page's retrieval engine: RetrievalEngine (retrieval-engine.ts) on the real workers, with its builds
 * shown in the jobs tray. Explore and Evaluate share it, so an index or embedding built for one view is
 * ready for the other. Nothing happens at import: the page starts it (`startEngine`, App.svelte) with an
 * `EngineHost` — where its jobs and messages show, what it knows of the collections — so the engine
 * imports no store of the shell or the views.
 *
 *   import { engine, rankQueriesWithJob } from '../engine/engine.ts';
 *   // one query, now (Explore):
 *   const { ranking, ms, note } = await engine().rankQuery(collectionId, retriever, { id, text }, { signal });
 *   // every query of a split (Evaluate), with a job in the tray that can cancel it:
 *   const { run, ms, missing } = await rankQueriesWithJob(collectionId, retriever, queries);
 *   // or without the job: engine().rankQueries(collectionId, retriever, queries, { signal, onProgress })
 */
import { retrieverLabel, type RetrieverConfig } from '../../lib/retrievers/config.ts';
import type { RankQuery } from '../../lib/retrievers/ranking.ts';
import { database } from '../../lib/storage/db.ts';
import { loadStoredRun } from '../../lib/storage/runs.ts';
import { readSavedRanking, saveRankings } from '../../lib/storage/saved-rankings.ts';
import { formatMs } from '../shell/format.ts';
import type { JobSink } from './backends.ts';
import { AugmentWorkers } from './augment-workers.ts';
import { Bm25Workers } from './bm25-workers.ts';
import { DenseWorkers } from './dense-workers.ts';
import { RerankWorkers } from './rerank-workers.ts';
import { RetrievalEngine, type RankedRun, type RankQueriesOptions } from './retrieval-engine.ts';
import { SavedRankings } from './saved-rankings.ts';

/** What the page gives its engine (App.svelte: the jobs tray, the notices, the collections store). */
export interface EngineHost {
  /** Where builds, downloads and evaluations show their progress (the jobs tray). */
  jobs: JobSink;
  /** A short message for the person (a worker restarted, a model moved to WASM). */
  info(message: string): void;
  /** A failure the person should read. */
  error(error: unknown): void;
  /** A stored collection's name (job titles) and import time (the keys of saved rankings). */
  collection(collectionId: string): { name: string; createdAt: number } | undefined;
}

/** The address whose rankings were saved last, and the build that saved them. */
const SAVED_SCREEN_KEY = 'retrieval-playground:saved-screen';
/** The longest a saved screen holds the workers back: a screen whose rankings were not saved must not wait long. */
const SAVED_SCREEN_HOLD_MS = 2000;

let started: { engine: RetrievalEngine; host: EngineHost } | undefined;

/** The page's engine; `startEngine` must have run (App.svelte starts it before any view is drawn). */
export function engine(): RetrievalEngine {
  if (started === undefined) throw new Error('the retrieval engine has not been started');
  return started.engine;
}

/**
 * Creates the page's engine and its worker hosts (the workers themselves start on first use), once: a second
 * call returns the first engine.
 */
export function startEngine(host: EngineHost): RetrievalEngine {
  if (started !== undefined) return started.engine;
  // A worker that dies is restarted on next use; the engine prepares its columns again (they show the
  // crash as their error, with Retry), and a notice says what happened.
  const bm25 = new Bm25Workers({
    onLost: (analyzer, error) => {
      engine.lostBm25(analyzer);
      host.info(error.message);
    },
  });
  const dense = new DenseWorkers({
    onLost: (settings, error) => {
      engine.lostDense(settings);
      host.info(error.message);
    },
    onFallback: (settings, reason) => {
      engine.movedToWasm(settings, reason);
      host.info(`${settings.model.split('/').pop() ?? settings.model} runs on WASM now: WebGPU failed (${reason}).`);
    },
    // A static table loading in the background failed: columns that ranked from stored vectors keep their
    // results; the next ranking prepares them again (and shows the failure if it needs the model).
    onModelFailed: (settings, error) => {
      engine.lostDense(settings);
      host.error(error);
    },
    jobs: host.jobs,
  });
  const augment = new AugmentWorkers({ onLost: (error) => host.info(error.message) });
  const rerank = new RerankWorkers({
    onLost: (settings, error) => {
      engine.lostReranker(settings);
      host.info(error.message);
    },
  });

  // The dev server's code changes under a running build name: there, every page load is a build of its own.
  const build = import.meta.env.DEV ? `dev ${performance.timeOrigin}` : import.meta.env.VITE_APP_BUILD;
  // Safari has no requestIdleCallback: a short timer stands in.
  const whenIdle = (run: () => void) => void (typeof requestIdleCallback === 'function' ? requestIdleCallback(run, { timeout: 500 }) : setTimeout(run, 50));
  const thisScreen = () => `${build} ${location.search}`;

  const savedRankings = new SavedRankings(
    {
      read: (key) => readSavedRanking(database(), key),
      async write(rankings) {
        await saveRankings(database(), rankings);
        try {
          localStorage.setItem(SAVED_SCREEN_KEY, thisScreen());
        } catch {
          // Storage disabled: a return visit only prepares its workers sooner.
        }
      },
    },
    build,
    whenIdle,
  );
  // A page closed within a moment of its last ranking still saves it.
  addEventListener('pagehide', () => void savedRankings.flush());

  const engine = new RetrievalEngine({
    bm25,
    dense,
    rerank,
    augment,
    runs: { load: (collectionId, runKey) => loadStoredRun(database(), collectionId, runKey) },
    jobs: host.jobs,
    collectionName: (collectionId) => host.collection(collectionId)?.name ?? collectionId,
    collectionVersion: (collectionId) => host.collection(collectionId)?.createdAt,
    onNotice: (message) => host.info(message),
    saved: savedRankings,
    whenIdle,
  });
  started = { engine, host };

  /** True when this page opens the address whose rankings were saved last (a reload, a browser restart). */
  const savedScreen = (): boolean => {
    try {
      return localStorage.getItem(SAVED_SCREEN_KEY) === thisScreen();
    } catch {
      return false;
    }
  };
  // Its columns will likely show saved rankings before any worker is needed: the workers wait for that.
  if (savedScreen()) engine.holdWorkAhead(SAVED_SCREEN_HOLD_MS);
  return engine;
}

/**
 * `engine().rankQueries` with a job in the tray ("Ranking 300 queries · BM25 (k1 0.9, b 0.4)") whose cancel
 * button stops it; index builds it needs get their own jobs first. Rejects with an AbortError when
 * cancelled (by the button or by `options.signal`).
 */
export async function rankQueriesWithJob(
  collectionId: string,
  retriever: RetrieverConfig,
  queries: readonly (RankQuery & { id: string })[],
  options: Omit<RankQueriesOptions, 'onProgress'> & { title?: string; onProgress?: (done: number, total: number) => void } = {},
): Promise<RankedRun> {
  const page = engine();
  const { jobs } = started!.host;
  await page.prepare(collectionId, retriever, options);
  const title = options.title ?? `Ranking ${queries.length.toLocaleString('en-US')} queries · ${retrieverLabel(retriever)}`;
  const job = jobs.start(title, { unit: 'queries', total: queries.length });
  const controller = new AbortController();
  const stop = () => controller.abort(job.signal.reason ?? options.signal?.reason);
  job.signal.addEventListener('abort', stop);
  options.signal?.addEventListener('abort', stop);
  if (options.signal?.aborted) stop();
  try {
    const result = await page.rankQueries(collectionId, retriever, queries, {
      ...options,
      signal: controller.signal,
      onProgress: (done, total) => {
        job.progress(done, total);
        options.onProgress?.(done, total);
      },
    });
    job.finish(`${formatMs(result.ms)}, ${formatMs(result.ms / Math.max(1, queries.length))} per query`);
    return result;
  } catch (error) {
    job.fail(error);
    throw error;
  } finally {
    job.signal.removeEventListener('abort', stop);
    options.signal?.removeEventListener('abort', stop);
  }
}
