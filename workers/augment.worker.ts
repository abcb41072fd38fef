/**
 * Query-augmentation worker (comlink): applies a stored model (src/lib/augment) to query texts and answers
 * their weighted bags, which the page hands to the BM25 worker as any weighted query. The work is
 * `AugmentService` (src/lib/services/augment-service.ts); the encoder (a static table, or a transformer:
 * encoder-sources.ts) and the WordPiece vocabulary are read as the Learn and BM25 workers read them.
 */
import * as Comlink from 'comlink';
import { AnalyzerLoader } from '../src/lib/analysis/analyzer-loader.ts';
import type { Bm25AnalyzerName } from '../src/lib/analysis/analyzers.ts';
import { AugmentService } from '../src/lib/services/augment-service.ts';
import type { ModelSourceConfig } from '../src/lib/dense/model-source.ts';
import type { AugmenterRef } from '../src/lib/retrievers/config.ts';
import { database } from '../src/lib/storage/db.ts';
import { loadAnalyzerFile } from './app-files.ts';
import { appEncoderSources } from './encoder-sources.ts';
import './policy-violations.ts';

/** Where a transformer encoder loads from: the page's, given with each request. */
let modelSource: ModelSourceConfig = { localModelPath: `${import.meta.env.BASE_URL}models/` };
const service = new AugmentService({
  db: database(),
  analyzers: new AnalyzerLoader(loadAnalyzerFile),
  encoders: appEncoderSources(() => modelSource),
});

const api = {
  /** Answers as soon as the worker's event loop is free (the page's liveness check). */
  ping: () => true,
  expand(augmenter: AugmenterRef, analyzer: Bm25AnalyzerName, texts: readonly string[], source: ModelSourceConfig) {
    modelSource = source;
    return service.expand(augmenter, analyzer, texts);
  },
  forget: (key: string) => service.forget(key),
};

export type AugmentWorkerApi = typeof api;

Comlink.expose(api);
