/**
 * Query-augmentation worker (comlink): applies a stored model (src/lib/augment) to query texts and answers
 * their weighted bags, which the page hands to the BM25 worker as any weighted query. The work is
 * `AugmentService` (src/lib/services/augment-service.ts); the encoder's table is read from the app's model
 * folder as the dense worker reads it, the WordPiece vocabulary as the BM25 worker reads it.
 */
import * as Comlink from 'comlink';
import { AnalyzerLoader } from '../src/lib/analysis/analyzer-loader.ts';
import { loadStaticTableModel } from '../src/lib/dense/embedder.ts';
import { configureModelSource } from '../src/lib/dense/model-source.ts';
import { resolveModelSpec } from '../src/lib/dense/registry.ts';
import { AugmentService } from '../src/lib/services/augment-service.ts';
import { database } from '../src/lib/storage/db.ts';
import { loadAnalyzerFile } from './analyzer-file.ts';
import './policy-violations.ts';

const service = new AugmentService({
  db: database(),
  analyzers: new AnalyzerLoader(loadAnalyzerFile),
  readTable: async (model) => {
    const spec = resolveModelSpec(model);
    if (spec.kind !== 'static-table') throw new Error(`The encoder ${model} is not a static table; only static-table encoders run in the page.`);
    configureModelSource(spec, { localModelPath: `${import.meta.env.BASE_URL}models/`, allowRemote: false });
    return loadStaticTableModel(spec);
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
