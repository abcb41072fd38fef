/**
 * Import worker (comlink): downloads and local files are parsed and written to IndexedDB here, off the
 * page's thread. The work is in src/lib/import (runImport, hub and local plans) and src/lib/storage
 * (atomic import); this file only wires it to the worker's realm and keeps one AbortController per import
 * so the page can cancel by id (an AbortSignal cannot cross the worker boundary).
 *
 * Page side (src/app/collection/import-client.ts, a WorkerHost):
 *   const importer = importWorkerHost();
 *   const outcome = await importer.call((api) => api.importHub({ importId, entryId: 'beir/scifact', hubUrl, onError: 'throw' }, Comlink.proxy(show)));
 *   importer.callIfRunning((api) => api.cancel(importId));
 */
import * as Comlink from 'comlink';
import { catalogEntry } from '../src/lib/catalog/index.ts';
import type { ErrorPolicy } from '../src/lib/data/record-stream.ts';
import type { Inspection } from '../src/lib/import/classify.ts';
import type { FieldMapping } from '../src/lib/import/field-mapping.ts';
import { hubFileSizes, hubImportPlan } from '../src/lib/import/hub.ts';
import { importFailure, type ImportFailure } from '../src/lib/import/import-failure.ts';
import { runImport, type ImportOutcome, type ImportProgress } from '../src/lib/import/importer.ts';
import { expandInputs, inspectEntries, localImportPlan, type LocalInput } from '../src/lib/import/local.ts';
import { recoverInterruptedImports } from '../src/lib/storage/collections.ts';
import { blobVectorInput } from '../src/lib/import/vector-file.ts';
import { importVectorFiles, type StoredImportedVectors, type VectorImportProgress } from '../src/lib/import/vector-import.ts';
import { database } from '../src/lib/storage/db.ts';
import { explainBlocked, violationCount, violationsSettled } from './policy-violations.ts';

const running = new Map<string, AbortController>();

/** How a vector import ended. */
export type VectorImportOutcome = { status: 'done'; stored: StoredImportedVectors } | { status: 'failed'; error: ImportFailure } | { status: 'cancelled' };

/** A failed download that the Content-Security-Policy blocked says so (policy-violations.ts). */
async function explained(outcome: ImportOutcome, since: number): Promise<ImportOutcome> {
  if (outcome.status !== 'failed') return outcome;
  await violationsSettled();
  const { error } = outcome;
  const explanation = explainBlocked(new Error(error.reason ?? error.message), since);
  if (!(explanation instanceof Error) || explanation.cause === undefined) return outcome;
  return { status: 'failed', error: { ...error, message: explanation.message, ...(error.reason === undefined ? {} : { reason: explanation.message }) } };
}

async function tracked(importId: string, work: (signal: AbortSignal) => Promise<ImportOutcome>): Promise<ImportOutcome> {
  const controller = new AbortController();
  running.set(importId, controller);
  const since = violationCount();
  try {
    return await explained(await work(controller.signal), since);
  } catch (error) {
    return controller.signal.aborted ? { status: 'cancelled' } : await explained({ status: 'failed', error: importFailure(error) }, since);
  } finally {
    running.delete(importId);
  }
}

function localId(): string {
  return `local/${typeof crypto.randomUUID === 'function' ? crypto.randomUUID() : `${Date.now()}-${Math.random().toString(36).slice(2)}`}`;
}

function describeInputs(inputs: readonly LocalInput[]): string {
  const tops = [...new Set(inputs.map((input) => input.path.split('/')[0] ?? input.path))];
  return tops.length <= 3 ? tops.join(', ') : `${tops.slice(0, 3).join(', ')} and ${tops.length - 3} more`;
}

type Progress = (progress: ImportProgress) => void;

const api = {
  /** Answers as soon as the worker's event loop is free (the page's liveness check). */
  ping: () => true,

  /** Downloads a catalog entry from `hubUrl` and imports it. */
  importHub(request: { importId: string; entryId: string; hubUrl: string; onError: ErrorPolicy }, onProgress?: Progress): Promise<ImportOutcome> {
    return tracked(request.importId, async (signal) => {
      const entry = catalogEntry(request.entryId);
      if (entry === undefined) return { status: 'failed', error: { name: 'Error', message: `unknown catalog entry "${request.entryId}"` } };
      const options = { hubUrl: request.hubUrl };
      const sizes = await hubFileSizes(entry, { ...options, signal });
      return runImport(database(), hubImportPlan(entry, options), { signal, sizes, onError: request.onError, ...(onProgress ? { onProgress } : {}) });
    });
  },

  /** What the dropped or picked files are, before importing them. */
  async inspectLocal(inputs: LocalInput[]): Promise<{ inspection: Inspection } | { error: ImportFailure }> {
    try {
      return { inspection: await inspectEntries(await expandInputs(inputs)) };
    } catch (error) {
      return { error: importFailure(error) };
    }
  },

  /** Imports local files as a new collection named `name`; `fields`: the corpus's field mapping as chosen in the preview. */
  importLocal(request: { importId: string; inputs: LocalInput[]; name: string; onError: ErrorPolicy; fields?: FieldMapping }, onProgress?: Progress): Promise<ImportOutcome> {
    return tracked(request.importId, async (signal) => {
      const entries = await expandInputs(request.inputs);
      const inspection = await inspectEntries(entries);
      const meta = { id: localId(), name: request.name, source: { kind: 'local' as const, detail: describeInputs(request.inputs) } };
      const plan = localImportPlan(entries, inspection, meta, request.fields);
      return runImport(database(), plan, { signal, onError: request.onError, ...(onProgress ? { onProgress } : {}) });
    });
  },

  /**
   * Reads vector files and stores them as a collection's embedding sets (src/lib/import/vector-import.ts:
   * checked first, all or nothing); cancelled by `cancel(importId)`.
   */
  async importVectors(
    request: { importId: string; collectionId: string; files: { corpus: File; corpusIds?: File | undefined; queries: File; queryIds?: File | undefined } },
    onProgress?: (progress: VectorImportProgress) => void,
  ): Promise<VectorImportOutcome> {
    const controller = new AbortController();
    running.set(request.importId, controller);
    const { corpus, corpusIds, queries, queryIds } = request.files;
    const input = (file: File | undefined) => (file === undefined ? undefined : blobVectorInput(file, file.name));
    try {
      const files = { corpus: input(corpus)!, queries: input(queries)!, ...(corpusIds === undefined ? {} : { corpusIds: input(corpusIds)! }), ...(queryIds === undefined ? {} : { queryIds: input(queryIds)! }) };
      const stored = await importVectorFiles(database(), request.collectionId, files, { signal: controller.signal, ...(onProgress === undefined ? {} : { onProgress }) });
      return { status: 'done', stored };
    } catch (error) {
      return controller.signal.aborted ? { status: 'cancelled' } : { status: 'failed', error: importFailure(error) };
    } finally {
      running.delete(request.importId);
    }
  },

  /** Cancels an import: it rolls back and resolves `{ status: 'cancelled' }`. */
  cancel(importId: string): void {
    running.get(importId)?.abort(new DOMException('import cancelled', 'AbortError'));
  },

  /** Rolls back imports left unfinished by a closed tab; returns their ids. */
  recover(): Promise<string[]> {
    return recoverInterruptedImports(database());
  },
};

export type ImportWorkerApi = typeof api;

Comlink.expose(api);
