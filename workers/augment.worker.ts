/**
 * Query-augmentation worker (comlink): applies a stored model (src/lib/augment) to query texts and answers
 * their weighted bags, which the page hands to the BM25 worker as any weighted query. The work is
 * `AugmentService` (src/lib/services/augment-service.ts); the encoder's table and the WordPiece vocabulary
 * are read from the app's own files as the Learn and BM25 workers read them (app-files.ts).
 */
import * as Comlink from 'comlink';
import { AnalyzerLoader } from '../src/lib/analysis/analyzer-loader.ts';
import { resolveModelSpec } from '../src/lib/dense/registry.ts';
import { AugmentService } from '../src/lib/services/augment-service.ts';
import { database } from '../src/lib/storage/db.ts';
import { loadAnalyzerFile, loadAppStaticTable } from './app-files.ts';
import './policy-violations.ts';

const service = new AugmentService({
  db: database(),
  analyzers: new AnalyzerLoader(loadAnalyzerFile),
  readTable: async (model) => {
    const spec = resolveModelSpec(model);
    if (spec.kind !== 'static-table') throw new Error(`The encoder ${model} is not a static table; only static-table encoders run in the page.`);
    if (spec.source !== 'local') throw new Error(`The encoder ${model} is not one of the app's own models; only those run in the page.`);
    return loadAppStaticTable(spec.id);
  },
});

const api = {
  /** Answers as soon as the worker's event loop is free (the page's liveness check). */
  ping: () => true,
  expand: (...args: Parameters<AugmentService['expand']>) => service.expand(...args),
  forget: (key: string) => service.forget(key),
};

export type AugmentWorkerApi = typeof api;

Comlink.expose(api);
