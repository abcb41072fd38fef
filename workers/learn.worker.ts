/**
 * Learn worker (comlink): trains a query-augmentation model on a stored collection's judged split and stores
 * it. The work is `AugmentTrainingService` (src/lib/services/augment-training-service.ts), over a BM25
 * service of its own (the stored index is loaded, or built and stored, as the BM25 worker does); this file
 * only wires it to the worker's realm. One run at a time; `cancel` stops it within a step.
 *
 * Page side (src/app/learn/learn-run.svelte.ts, through a WorkerHost of src/app/workers):
 *   const result = await host.call((api) => api.train(request, Comlink.proxy((event) => show(event)), appModelSource()));
 *   await host.call((api) => api.cancel());
 */
import * as Comlink from 'comlink';
import { fetchBm25Kernel } from '../src/lib/bm25-wasm/kernel-url.ts';
import { AugmentTrainingService, type LearnEvent, type LearnRequest, type LearnResult } from '../src/lib/services/augment-training-service.ts';
import { Bm25Service } from '../src/lib/services/bm25-service.ts';
import type { ModelSourceConfig } from '../src/lib/dense/model-source.ts';
import { database } from '../src/lib/storage/db.ts';
import { loadAnalyzerFile } from './app-files.ts';
import { appEncoderSources } from './encoder-sources.ts';
import './policy-violations.ts';

const db = database();
/** Where a transformer encoder loads from: the page's, given with each run. */
let modelSource: ModelSourceConfig = { localModelPath: `${import.meta.env.BASE_URL}models/` };
const service = new AugmentTrainingService({
  db,
  bm25: new Bm25Service({ db, loadKernel: () => fetchBm25Kernel(), loadAnalyzerFile }),
  encoders: appEncoderSources(() => modelSource),
});
let running: AbortController | undefined;

const api = {
  /** Answers as soon as the worker's event loop is free (training yields after every step). */
  ping: () => true,
  /** Trains and stores the model; every report goes to `onEvent`, the last one handled before this answers. */
  async train(request: LearnRequest, onEvent: (event: LearnEvent) => unknown, source: ModelSourceConfig): Promise<LearnResult> {
    modelSource = source;
    running?.abort(new DOMException('superseded by a new training run', 'AbortError'));
    const controller = new AbortController();
    running = controller;
    let last: unknown;
    try {
      return await service.train(request, (event) => (last = onEvent(event)), controller.signal);
    } finally {
      await Promise.resolve(last).catch(() => undefined);
      if (running === controller) running = undefined;
    }
  },
  cancel: () => running?.abort(new DOMException('training cancelled', 'AbortError')),
};

export type LearnWorkerApi = typeof api;

Comlink.expose(api);
