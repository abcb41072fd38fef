/**
 * Long-running work (imports, downloads, index builds, embedding, evaluations) shown in one tray with a
 * progress bar and a cancel button each. Whoever starts the work reports progress through the handle; the
 * tray only presents, at most PROGRESS_INTERVAL_MS apart (the latest report wins, the last is never lost).
 */
import { LatestThrottle } from './latest-throttle.ts';

export type JobStatus = 'running' | 'done' | 'failed' | 'cancelled';

export interface Job {
  id: number;
  title: string;
  /** What `done`/`total` count: "docs", "queries", "bytes"… */
  unit: string;
  done: number;
  /** Unknown totals show an indeterminate bar. */
  total: number | undefined;
  /** Items per second, when known. */
  rate: number | undefined;
  status: JobStatus;
  /** One-line detail (e.g. "on WebGPU", the error message). */
  detail: string;
  startedAt: number;
  cancel: (() => void) | undefined;
}

export interface JobHandle {
  readonly signal: AbortSignal;
  progress(done: number, total?: number, detail?: string): void;
  finish(detail?: string): void;
  fail(error: unknown): void;
}

/** Finished jobs (done or cancelled) kept for the tray's "n done" list; older ones are dropped. */
const KEEP_FINISHED = 20;

/** The shortest time between two progress redraws of a job (latest-throttle.ts says why). */
export const PROGRESS_INTERVAL_MS = 250;

export class Jobs {
  list = $state<Job[]>([]);
  #nextId = 1;

  /** Registers a job; its handle's `signal` aborts when the user presses cancel. */
  start(title: string, options: { unit?: string; total?: number; cancellable?: boolean } = {}): JobHandle {
    const controller = new AbortController();
    const id = this.#nextId++;
    const startedAt = performance.now();
    this.list.push({
      id,
      title,
      unit: options.unit ?? '',
      done: 0,
      total: options.total,
      rate: undefined,
      status: 'running',
      detail: '',
      startedAt,
      cancel: options.cancellable === false ? undefined : () => controller.abort(new DOMException(`${title}: cancelled`, 'AbortError')),
    });
    const job = () => this.list.find((j) => j.id === id);
    // What the reports so far say (a report without a total or detail keeps the last one given).
    const reported: { done: number; total?: number; detail?: string } = { done: 0 };
    const progress = new LatestThrottle<typeof reported>(({ done, total, detail }) => {
      const j = job();
      if (!j || j.status !== 'running') return;
      j.done = done;
      if (total !== undefined) j.total = total;
      if (detail !== undefined) j.detail = detail;
      const seconds = (performance.now() - startedAt) / 1000;
      j.rate = seconds > 0.2 ? done / seconds : undefined;
    }, PROGRESS_INTERVAL_MS);
    const settle = (status: JobStatus, detail: string) => {
      progress.flush();
      const j = job();
      if (!j || j.status !== 'running') return;
      j.status = status;
      j.detail = detail;
      j.cancel = undefined;
      // A failure stays until dismissed; done and cancelled jobs go to the tray's collapsed list.
      if (status !== 'failed') this.#trimFinished();
    };
    return {
      signal: controller.signal,
      progress: (done, total, detail) => {
        reported.done = done;
        if (total !== undefined) reported.total = total;
        if (detail !== undefined) reported.detail = detail;
        progress.push(reported);
      },
      finish: (detail = '') => settle('done', detail),
      fail: (error) => {
        // Stopped by its own cancel button or by the work it belongs to (an evaluation cancelled elsewhere).
        if (controller.signal.aborted || (error instanceof DOMException && error.name === 'AbortError')) settle('cancelled', '');
        else settle('failed', error instanceof Error ? error.message : String(error));
      },
    };
  }

  /** Jobs that ended without failing, oldest first. */
  get finished(): Job[] {
    return this.list.filter((j) => j.status === 'done' || j.status === 'cancelled');
  }

  /** Drops every done or cancelled job (the tray's "Clear"). */
  clearFinished(): void {
    this.list = this.list.filter((j) => j.status === 'running' || j.status === 'failed');
  }

  #trimFinished(): void {
    const finished = this.finished;
    for (const job of finished.slice(0, Math.max(0, finished.length - KEEP_FINISHED))) this.dismiss(job.id);
  }

  dismiss(id: number): void {
    const index = this.list.findIndex((j) => j.id === id);
    if (index >= 0) this.list.splice(index, 1);
  }
}

export const jobs = new Jobs();
