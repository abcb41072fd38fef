/**
 * The query-augmentation backend of the page: one worker (workers/augment.worker.ts) that reads stored models
 * from IndexedDB and turns query texts into weighted bags; the BM25 worker ranks them. Hosted like the BM25
 * workers: a crash rejects the calls in flight with a message naming it, and the next call starts a fresh one
 * (which loads the model again).
 */
import type { AugmentWorkerApi } from '../../../workers/augment.worker.ts';
import type { Bm25AnalyzerName } from '../../lib/analysis/analyzers.ts';
import type { AugmenterRef } from '../../lib/retrievers/config.ts';
import type { ExpandedTerm } from '../../lib/retrievers/ranking.ts';
import { appModelSource } from '../workers/app-model-source.ts';
import { WorkerHost, type HostedWorker } from '../workers/worker-host.ts';
import { createAugmentWorker } from '../workers/worker-scripts.ts';
import type { WorkerCrashedError } from '../workers/worker-watch.ts';
import type { AugmentBackend } from './backends.ts';

export interface AugmentWorkersOptions {
  onLost?: (error: WorkerCrashedError) => void;
  createWorker?: () => HostedWorker;
}

export class AugmentWorkers implements AugmentBackend {
  private readonly host: WorkerHost<AugmentWorkerApi>;

  constructor(options: AugmentWorkersOptions = {}) {
    this.host = new WorkerHost<AugmentWorkerApi>({
      label: 'The query-augmentation worker',
      create: options.createWorker ?? createAugmentWorker,
      ping: (api) => api.ping(),
      onCrash: (error) => options.onLost?.(error),
    });
  }

  expand(augmenter: AugmenterRef, analyzer: Bm25AnalyzerName, texts: readonly string[]): Promise<ExpandedTerm[][]> {
    // Plain copies: a Svelte state proxy cannot cross to a worker.
    const ref: AugmenterRef = { key: augmenter.key, name: augmenter.name, collection: augmenter.collection, split: augmenter.split };
    return this.host.call((api) => api.expand(ref, analyzer, [...texts], appModelSource()));
  }

  forget(key: string): void {
    void this.host.callIfRunning((api) => api.forget(key))?.catch(() => undefined);
  }
}
