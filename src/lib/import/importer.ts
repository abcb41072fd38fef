import { importFailure, type ImportFailure } from './import-failure.ts';
import type { ErrorPolicy } from '../data/record-stream.ts';
import type { CollectionRow, PlaygroundDatabase } from '../storage/db.ts';
import { importCollection, type StoreProgress } from '../storage/collections.ts';
import type { ImportLocks } from '../storage/import-locks.ts';
import { planFiles, type ImportFile, type ImportPlan } from './import-file.ts';
import { megabytes, StorageFullError } from '../storage/quota.ts';
import { corpusThatFits } from '../storage/storage-forecast.ts';
import { planRecords, type FileProgress } from './records.ts';

/**
 * Runs one import plan end to end (read, parse, store atomically) and reports one progress stream that a
 * progress bar can show: bytes over all files (downloads), records stored, documents per second. The
 * result is plain data, never a thrown error, so it crosses a worker boundary intact (comlink would keep
 * only an error's message, and the UI needs the file and line).
 */

export interface ImportProgress {
  phase: StoreProgress['phase'];
  /** The file being read. */
  file: string;
  /** Raw bytes read so far, all files together. */
  bytes: number;
  /** Sum of the files' sizes, when every size is known. */
  totalBytes?: number;
  documents: number;
  queries: number;
  judgments: number;
  elapsedMs: number;
  /** Documents stored per second so far (phase `documents`). */
  docsPerSecond?: number;
}

export type ImportOutcome =
  | { status: 'done'; collection: CollectionRow; elapsedMs: number }
  | { status: 'cancelled' }
  | { status: 'failed'; error: ImportFailure };

export interface RunImportOptions {
  signal?: AbortSignal;
  onProgress?: (progress: ImportProgress) => void;
  onError?: ErrorPolicy;
  maxSkipped?: number;
  /** Exact sizes (file name → bytes) learned beforehand, e.g. from HEAD requests. */
  sizes?: ReadonlyMap<string, number>;
  locks?: ImportLocks | null;
  /** Minimum time between progress reports (default 100 ms); phase changes are always reported. */
  progressIntervalMs?: number;
}

function isAbort(error: unknown, signal: AbortSignal | undefined): boolean {
  return (signal?.aborted ?? false) || (error instanceof Error && error.name === 'AbortError') || (error instanceof DOMException && error.name === 'AbortError');
}

function totalOf(plan: ImportPlan, sizes: ReadonlyMap<string, number> | undefined): number | undefined {
  let total = 0;
  for (const file of planFiles(plan)) {
    const size = sizes?.get(file.name) ?? file.size;
    if (size === undefined) return undefined;
    total += size;
  }
  return total;
}

/**
 * The refused import's file and what would have fitted: the documents' text stored before the refusal was
 * the room there was, and a collection needs about STORED_PER_CORPUS_BYTE × its corpus once indexed and embedded.
 */
function whatFits(corpus: ImportFile, error: StorageFullError): string {
  const size = corpus.size === undefined ? '' : ` (${megabytes(corpus.size)})`;
  return `${corpus.name}${size} did not fit; about ${megabytes(corpusThatFits(error.storedBytes, false))} of uncompressed JSON lines would fit in the room this site had (an estimate), or import a part of the file.`;
}

export async function runImport(db: PlaygroundDatabase, plan: ImportPlan, options: RunImportOptions = {}): Promise<ImportOutcome> {
  const started = performance.now();
  const interval = options.progressIntervalMs ?? 100;
  const totalBytes = totalOf(plan, options.sizes);
  const finishedBytes = new Map<string, number>();
  let current: FileProgress | undefined;
  let store: StoreProgress = { phase: 'documents', documents: 0, queries: 0, judgments: 0 };
  let lastEmit = -Infinity;
  let lastPhase = '';

  const emit = (force = false) => {
    const now = performance.now();
    if (!force && store.phase === lastPhase && now - lastEmit < interval) return;
    lastEmit = now;
    lastPhase = store.phase;
    let bytes = 0;
    for (const value of finishedBytes.values()) bytes += value;
    if (current !== undefined && !finishedBytes.has(current.file)) bytes += current.bytes;
    const elapsedMs = now - started;
    const progress: ImportProgress = {
      phase: store.phase,
      file: current?.file ?? plan.corpus.name,
      bytes,
      documents: store.documents,
      queries: store.queries,
      judgments: store.judgments,
      elapsedMs,
    };
    if (totalBytes !== undefined) progress.totalBytes = totalBytes;
    if (store.documents > 0 && elapsedMs > 0) progress.docsPerSecond = (store.documents * 1000) / elapsedMs;
    options.onProgress?.(progress);
  };

  const records = planRecords(plan, {
    signal: options.signal,
    onError: options.onError,
    maxSkipped: options.maxSkipped,
    onFile: (file) => {
      current = file;
      if (file.done) finishedBytes.set(file.file, file.bytes);
      emit(file.done);
    },
  });
  try {
    const collection = await importCollection(db, plan.meta, records, {
      signal: options.signal,
      locks: options.locks,
      onProgress: (progress) => {
        store = progress;
        emit();
      },
    });
    emit(true);
    return { status: 'done', collection, elapsedMs: performance.now() - started };
  } catch (error) {
    if (isAbort(error, options.signal)) return { status: 'cancelled' };
    if (error instanceof StorageFullError) return { status: 'failed', error: { ...importFailure(error), message: `${error.message} ${whatFits(plan.corpus, error)}` } };
    return { status: 'failed', error: importFailure(error) };
  }
}
