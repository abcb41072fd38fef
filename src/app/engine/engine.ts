/**
 * The page's retrieval engine: RetrievalEngine (retrieval-engine.ts) on the real workers, with its builds
 * shown in the jobs tray. Explore and Evaluate share it, so an index or embedding built for one view is
 * ready for the other.
 *
 *   import { engine, rankQueriesWithJob } from '../engine/engine.ts';
 *   // one query, now (Explore):
 *   const { ranking, ms, note } = await engine.rankQuery(collectionId, retriever, { id, text }, { signal });
 *   // every query of a split (Evaluate), with a job in the tray that can cancel it:
 *   const { run, ms, missing } = await rankQueriesWithJob(collectionId, retriever, queries);
 *   // or without the job: engine.rankQueries(collectionId, retriever, queries, { signal, onProgress })
 */
import { retrieverLabel, type RetrieverConfig } from '../../lib/retrievers/config.ts';
import { database } from '../../lib/storage/db.ts';
import { loadStoredRun } from '../../lib/storage/runs.ts';
import { readSavedRanking, saveRankings } from '../../lib/storage/saved-rankings.ts';
import { collections } from '../collection/collections.svelte.ts';
import { formatMs } from '../shell/format.ts';
import { jobs } from '../shell/jobs.svelte.ts';
import { notices } from '../shell/notices.svelte.ts';
import { Bm25Workers } from './bm25-workers.ts';
import type { QueryInput } from './column-ranking.ts';
import { DenseWorkers } from './dense-workers.ts';
import { RerankWorkers } from './rerank-workers.ts';
import { RetrievalEngine, type RankedRun, type RankQueriesOptions } from './retrieval-engine.ts';
import { SavedRankings } from './saved-rankings.ts';

// A worker that dies is restarted on next use; the engine prepares its columns again (they show the
// crash as their error, with Retry), and a notice says what happened.
const bm25 = new Bm25Workers({
  onLost: (analyzer, error) => {
    engine.lostBm25(analyzer);
    notices.info(error.message);
  },
});
const dense = new DenseWorkers({
  onLost: (settings, error) => {
    engine.lostDense(settings);
    notices.info(error.message);
  },
  onFallback: (settings, reason) => {
    engine.movedToWasm(settings, reason);
    notices.info(`${settings.model.split('/').pop() ?? settings.model} runs on WASM now: WebGPU failed (${reason}).`);
  },
  // A static table loading in the background failed: columns that ranked from stored vectors keep their
  // results; the next ranking prepares them again (and shows the failure if it needs the model).
  onModelFailed: (settings, error) => {
    engine.lostDense(settings);
    notices.error(error);
  },
  jobs,
});

const rerank = new RerankWorkers({
  onLost: (settings, error) => {
    engine.lostReranker(settings);
    notices.info(error.message);
  },
});

// The dev server's code changes under a running build name: there, every page load is a build of its own.
const build = import.meta.env.DEV ? `dev ${performance.timeOrigin}` : import.meta.env.VITE_APP_BUILD;
// Safari has no requestIdleCallback: a short timer stands in.
const whenIdle = (run: () => void) => void (typeof requestIdleCallback === 'function' ? requestIdleCallback(run, { timeout: 500 }) : setTimeout(run, 50));

/** The address whose rankings were saved last, and the build that saved them. */
const SAVED_SCREEN_KEY = 'retrieval-playground:saved-screen';
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

export const engine = new RetrievalEngine({
  bm25,
  dense,
  rerank,
  runs: { load: (collectionId, runKey) => loadStoredRun(database(), collectionId, runKey) },
  jobs,
  collectionName: (collectionId) => collections.list.find((c) => c.id === collectionId)?.name ?? collectionId,
  collectionVersion: (collectionId) => collections.list.find((c) => c.id === collectionId)?.createdAt,
  onNotice: (message) => notices.info(message),
  saved: savedRankings,
  whenIdle,
});

/** True when this page opens the address whose rankings were saved last (a reload, a browser restart). */
function savedScreen(): boolean {
  try {
    return localStorage.getItem(SAVED_SCREEN_KEY) === thisScreen();
  } catch {
    return false;
  }
}

// Its columns will likely show saved rankings before any worker is needed: the workers wait (2 s at most).
if (savedScreen()) engine.holdWorkAhead(2000);

/**
 * `engine.rankQueries` with a job in the tray ("Ranking 300 queries · BM25 (k1 0.9, b 0.4)") whose cancel
 * button stops it; index builds it needs get their own jobs first. Rejects with an AbortError when
 * cancelled (by the button or by `options.signal`).
 */
export async function rankQueriesWithJob(
  collectionId: string,
  retriever: RetrieverConfig,
  queries: readonly (QueryInput & { id: string })[],
  options: Omit<RankQueriesOptions, 'onProgress'> & { title?: string; onProgress?: (done: number, total: number) => void } = {},
): Promise<RankedRun> {
  await engine.prepare(collectionId, retriever, options);
  const title = options.title ?? `Ranking ${queries.length.toLocaleString('en-US')} queries · ${retrieverLabel(retriever)}`;
  const job = jobs.start(title, { unit: 'queries', total: queries.length });
  const controller = new AbortController();
  const stop = () => controller.abort(job.signal.reason ?? options.signal?.reason);
  job.signal.addEventListener('abort', stop);
  options.signal?.addEventListener('abort', stop);
  if (options.signal?.aborted) stop();
  try {
    const result = await engine.rankQueries(collectionId, retriever, queries, {
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
