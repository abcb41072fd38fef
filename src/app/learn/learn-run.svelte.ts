/**
 * One training run of the Learn view at a time, in the Learn worker: its phase, its progress per step, the
 * loss of every step, each epoch's held-out measure next to plain BM25's, the stored model it ended with,
 * Cancel. The run lives in this page only: a reload loses it (the models it stored stay).
 */
import * as Comlink from 'comlink';
import type { EpochReport, HeldOutMeasure } from '../../lib/augment/train.ts';
import type { LearnEvent, LearnPhase, LearnRequest, LearnResult } from '../../lib/services/augment-training-service.ts';
import { jobs, type JobHandle } from '../shell/jobs.svelte.ts';
import { appModelSource } from '../workers/app-model-source.ts';
import { WorkerHost } from '../workers/worker-host.ts';
import { createLearnWorker } from '../workers/worker-scripts.ts';
import type { LearnWorkerApi } from '../../../workers/learn.worker.ts';

type Status = 'idle' | 'running' | 'done' | 'cancelled' | 'failed';

const PHASES: Record<LearnPhase, string> = {
  reading: 'Reading',
  indexing: 'Opening',
  encoder: 'Loading the encoder',
  training: 'Training on',
  storing: 'Storing',
};

class LearnRun {
  status = $state<Status>('idle');
  /** What the run is doing now, in words. */
  phase = $state('');
  step = $state(0);
  steps = $state(0);
  /** The loss of every step so far. */
  losses = $state.raw<number[]>([]);
  epochs = $state.raw<EpochReport[]>([]);
  baseline = $state.raw<HeldOutMeasure | undefined>(undefined);
  request = $state.raw<LearnRequest | undefined>(undefined);
  result = $state.raw<LearnResult | undefined>(undefined);
  error = $state<string | undefined>(undefined);
  #host: WorkerHost<LearnWorkerApi> | undefined;
  #job: JobHandle | undefined;
  #run = 0;

  get running(): boolean {
    return this.status === 'running';
  }

  private host(): WorkerHost<LearnWorkerApi> {
    // Pings are answered between steps; a long step (a large collection's held-out ranking) may delay one.
    this.#host ??= new WorkerHost<LearnWorkerApi>({ label: 'The Learn worker', create: createLearnWorker, ping: (api) => api.ping(), unresponsiveMs: 300_000 });
    return this.#host;
  }

  private onEvent(run: number, event: LearnEvent): void {
    if (run !== this.#run) return;
    switch (event.kind) {
      case 'phase':
        this.phase = `${PHASES[event.phase]} ${event.detail}`;
        break;
      case 'index':
        this.phase = `Opening the BM25 index: ${event.progress.docsDone} of ${event.progress.docsTotal} documents`;
        break;
      case 'step':
        Object.assign(this, { step: event.step, steps: event.steps, losses: [...this.losses, event.loss] });
        this.#job?.progress(event.step, event.steps, `loss ${event.loss.toFixed(3)}`);
        break;
      case 'baseline':
        this.baseline = event.measure;
        break;
      case 'epoch':
        this.epochs = [...this.epochs, event.report];
        break;
    }
  }

  /** Trains `request` in the worker; resolves with the stored model's result, or undefined (cancelled, failed). */
  async start(request: LearnRequest): Promise<LearnResult | undefined> {
    this.cancel();
    const run = ++this.#run;
    Object.assign(this, { status: 'running', phase: 'Starting the Learn worker', step: 0, steps: 0, losses: [], epochs: [], baseline: undefined, request, result: undefined, error: undefined });
    const job = jobs.start(`Learn: ${request.collectionId} ${request.split}`, { unit: 'steps' });
    this.#job = job;
    const stop = () => void this.#host?.callIfRunning((api) => api.cancel());
    job.signal.addEventListener('abort', stop);
    try {
      const result = await this.host().call((api) => api.train(request, Comlink.proxy((event: LearnEvent) => this.onEvent(run, event)), appModelSource()));
      if (run !== this.#run) return undefined;
      Object.assign(this, { status: 'done', result, phase: '' });
      job.finish(`stored "${result.name}"`);
      return result;
    } catch (error) {
      if (run !== this.#run) return undefined;
      if (job.signal.aborted || (error instanceof Error && error.name === 'AbortError') || /cancelled/.test(String(error))) {
        Object.assign(this, { status: 'cancelled', phase: '' });
        // A Cancel from the tray settles the job as cancelled; one from the view ends it with that said.
        if (job.signal.aborted) job.fail(error);
        else job.finish('cancelled: nothing stored');
      } else {
        const message = error instanceof Error ? error.message : String(error);
        Object.assign(this, { status: 'failed', error: message, phase: '' });
        job.fail(error);
      }
      return undefined;
    } finally {
      job.signal.removeEventListener('abort', stop);
      if (this.#job === job) this.#job = undefined;
    }
  }

  /** Stops the run within a step; nothing is stored. */
  cancel(): void {
    if (!this.running) return;
    void this.#host?.callIfRunning((api) => api.cancel());
  }
}

export const learnRun = new LearnRun();
