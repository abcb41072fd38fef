import type { EngineJob } from './backends.ts';

/**
 * A background model load's job, shown from its first download progress on (a load deferred by the worker
 * shows nothing until it starts): bytes summed over the model's files, reported at most every REPORT_MS.
 *
 * Comlink posts download progress on a port of its own, so the load's end can arrive before its last
 * progress messages, or before all of them: the end settles the job, and progress after it is ignored
 * rather than opening a job that would never finish.
 */
export class ModelLoadJob {
  private static readonly REPORT_MS = 100;
  private readonly files = new Map<string, { loaded: number; total: number }>();
  private reported = 0;
  private job: EngineJob | undefined;
  private settled = false;

  constructor(private readonly start: () => EngineJob) {}

  progress(e: { file: string; loaded: number; total: number }): void {
    if (this.settled) return;
    this.job ??= this.start();
    this.files.set(e.file, { loaded: e.loaded, total: e.total });
    const now = performance.now();
    const complete = e.total > 0 && e.loaded >= e.total;
    if (!complete && now - this.reported < ModelLoadJob.REPORT_MS) return;
    this.reported = now;
    let loaded = 0;
    let total = 0;
    for (const file of this.files.values()) {
      loaded += file.loaded;
      total += file.total;
    }
    this.job.progress(Math.round(loaded / 1024), total > 0 ? Math.round(total / 1024) : undefined);
  }

  /** The model loaded: its job shows as done, even when none of its progress has arrived yet. */
  finish(loadMs: number): void {
    this.settled = true;
    this.job ??= this.start();
    this.job.finish(`${Math.round(loadMs)} ms`);
  }

  /** The load failed: a job already shown says so (the column shows the error either way). */
  fail(error: unknown): void {
    this.settled = true;
    this.job?.fail(error);
  }
}
