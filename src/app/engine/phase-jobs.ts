import type { EngineJob, JobSink } from './backends.ts';

/** What late progress messages report to: nothing. */
const SETTLED_JOB: EngineJob = {
  signal: new AbortController().signal,
  progress: () => undefined,
  finish: () => undefined,
  fail: () => undefined,
};

/**
 * The jobs of one preparation (an index build, a corpus embedding…), one per phase that does work. A job
 * appears only when its phase starts, so loading a stored index or cached vectors shows nothing in the
 * tray; entering the next phase finishes the previous job. Cancelling any of them aborts the preparation.
 */
export class PhaseJobs {
  private current: { phase: string; job: EngineJob } | undefined;
  private readonly stops: Array<() => void> = [];
  /** Set by finish/fail: a progress message arriving late (workers post asynchronously) opens no new job. */
  private settled = false;

  constructor(
    private readonly sink: JobSink,
    private readonly abort: (reason: unknown) => void,
  ) {}

  /**
   * The job of `phase`, started now (finishing the previous phase's job) or the one already running;
   * a job that shows nothing once the preparation has finished or failed.
   */
  enter(phase: string, title: string, options: { unit?: string; total?: number } = {}): EngineJob {
    if (this.settled) return SETTLED_JOB;
    if (this.current?.phase === phase) return this.current.job;
    this.current?.job.finish();
    const job = this.sink.start(title, { ...options, cancellable: true });
    const stop = () => this.abort(job.signal.reason);
    job.signal.addEventListener('abort', stop, { once: true });
    this.stops.push(() => job.signal.removeEventListener('abort', stop));
    this.current = { phase, job };
    return job;
  }

  /** The phase running now, if any job was started. */
  get phase(): string | undefined {
    return this.current?.phase;
  }

  finish(detail?: string): void {
    this.current?.job.finish(detail);
    this.release();
  }

  fail(error: unknown): void {
    this.current?.job.fail(error);
    this.release();
  }

  private release(): void {
    this.settled = true;
    this.current = undefined;
    for (const stop of this.stops.splice(0)) stop();
  }
}
