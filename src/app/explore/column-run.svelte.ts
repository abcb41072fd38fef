/**
 * One column's ranking of the current query, kept up to date as the query and the settings change:
 * - a new query or collection, and every keystroke of a typed query, rank at once (answers as you type);
 *   settings changes wait until the input rests (DEBOUNCE_MS), so a slider drag makes one ranking, not
 *   fifty, and so does typing into a Re-rank column (a cross-encoder scores a hundred pairs a keystroke);
 * - a newer request supersedes the running one (its result is dropped, also when it waits for the other
 *   columns' answers in the batch), so the column never shows a ranking of an older query (LatestRequest);
 * - the previous ranking stays on screen, marked as updating, while the next one is computed.
 */
import type { RetrieverConfig } from '../../lib/retrievers/config.ts';
import { settingsKey } from '../../lib/settings-key.ts';
import type { RankQuery } from '../../lib/retrievers/ranking.ts';
import { queryKey, type RankResult } from '../engine/column-ranking.ts';
import { engine } from '../engine/engine.ts';
import { DEBOUNCE_MS, LatestRequest } from '../engine/latest-request.ts';
import type { RerankScoreProgress } from '../engine/backends.ts';
import type { PrepareStatus } from '../engine/retrieval-engine.ts';
import { ResultBatch } from './result-batch.ts';

export type ColumnStatus = 'idle' | 'preparing' | 'ranking' | 'ready' | 'error';

export interface ColumnRequest {
  collectionId: string;
  retriever: RetrieverConfig;
  query: RankQuery;
}

/**
 * The columns' answers to one change land together (result-batch.ts); a column that takes longer than this
 * after another has answered (an index build, a cross-encoder) is drawn on its own.
 */
const RESULT_WAIT_MS = 100;
const results = new ResultBatch(RESULT_WAIT_MS);

function isAbort(error: unknown): boolean {
  return error instanceof DOMException ? error.name === 'AbortError' : (error as { name?: unknown } | null)?.name === 'AbortError';
}

export class ColumnRun {
  status = $state<ColumnStatus>('idle');
  result = $state.raw<RankResult | null>(null);
  /** The query the result ranks (it may lag behind the box while a new ranking is computed). */
  resultQuery = $state.raw<RankQuery | null>(null);
  error = $state<string | null>(null);
  prepare = $state.raw<PrepareStatus | null>(null);
  /** A Re-rank column's scoring of the query's pairs while it runs. */
  scoring = $state.raw<RerankScoreProgress | null>(null);
  #last: ColumnRequest | undefined;
  #latest = new LatestRequest<ColumnRequest, RankResult>(
    (request, signal) =>
      engine().rankQuery(request.collectionId, request.retriever, request.query, {
        signal,
        onPrepare: (status) => {
          if (!signal.aborted) this.prepare = status;
        },
        onScore: (progress) => {
          if (!signal.aborted) this.scoring = progress;
        },
      }),
    {
      // Shown as updating from the moment it is asked, debounce included: the ranking on screen is not its.
      onScheduled: (request) => {
        // The other columns' answers wait for this one from the moment it is asked, debounce included. Each
        // column's debounce ends in a task of its own, and a first answer arriving between them would be
        // drawn alone before the other columns could even start.
        results.started(this);
        this.status = engine().isPrepared(request.collectionId, request.retriever) ? 'ranking' : 'preparing';
      },
      onStart: () => {
        results.started(this);
        this.error = null;
        this.scoring = null;
      },
      onResult: (request, result) =>
        results.finished(this, () => {
          // Superseded while it waited for the other columns: a newer answer is coming.
          if (request !== this.#last) return;
          this.scoring = null;
          this.result = result;
          this.resultQuery = request.query;
          this.status = 'ready';
          this.prepare = null;
        }),
      onError: (request, error) =>
        results.finished(this, () => {
          if (request !== this.#last) return;
          this.prepare = null;
          this.scoring = null;
          this.status = 'error';
          this.error = isAbort(error) ? 'Cancelled.' : error instanceof Error ? error.message : String(error);
          // A failed build must not leave a ranking of other settings on screen as if it were this one.
          this.result = null;
        }),
    },
    DEBOUNCE_MS,
  );

  /** Asks for the ranking of `request` (nothing happens when it is the one shown or being computed). */
  request(request: ColumnRequest): void {
    const key = `${request.collectionId}\u0000${settingsKey(request.retriever)}\u0000${queryKey(request.query)}`;
    const previous = this.#last;
    // Only the typed text changed (same query, same settings): ranked at once, unless a cross-encoder reads it.
    const typed = previous !== undefined && request.retriever.kind !== 'rerank' && settingsKey(previous.retriever) === settingsKey(request.retriever);
    const immediate =
      typed ||
      previous === undefined ||
      previous.collectionId !== request.collectionId ||
      previous.query.id !== request.query.id ||
      previous.retriever.kind !== request.retriever.kind ||
      !engine().isPrepared(request.collectionId, request.retriever);
    if (this.#latest.ask(key, request, immediate)) this.#last = request;
  }

  /** Runs the last request again (after a failed or cancelled build). */
  retry(): void {
    this.#latest.retry();
  }

  /** Stops the running ranking (a Re-rank column's scoring): the column shows "Cancelled." and Retry. */
  cancel(): void {
    this.#latest.cancel();
  }

  /** Stops waiting for the running request (the column is leaving the screen). */
  stop(): void {
    this.#latest.stop();
    this.#last = undefined;
    results.idle(this);
  }
}

/** The runs of the columns, by column id (they outlive a switch to another view). */
const runs = new Map<string, ColumnRun>();

export function columnRun(columnId: string): ColumnRun {
  let run = runs.get(columnId);
  if (run === undefined) runs.set(columnId, (run = new ColumnRun()));
  return run;
}

/** The run of a column if it has one (never creates one). */
export function peekColumnRun(columnId: string): ColumnRun | undefined {
  return runs.get(columnId);
}

export function dropColumnRun(columnId: string): void {
  runs.get(columnId)?.stop();
  runs.delete(columnId);
}
