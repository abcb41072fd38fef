/**
 * What a collection will occupy in this browser, estimated before it is imported from what is known then
 * (the corpus file's size, compressed or not; for a catalog entry also its document count), and whether
 * that fits the origin's storage quota and the device's memory. The ratios are measured, not derived:
 * `npm run -s bench:app -- --large=100` (SciFact ×100, 518,300 documents) prints each of them, and the
 * figures here are that run's (bench/results), rounded up. Other collections differ (shorter documents
 * store more per byte), so every number shown from here is called an estimate.
 */
import type { StorageEstimateLike } from './quota.ts';

/** Stored bytes (documents, BM25 index, the static embedding's vectors) per byte of uncompressed JSON lines. */
export const STORED_PER_CORPUS_BYTE = 1.2;
/** The same per byte of gzip-compressed JSON lines (the catalog's downloads, `.jsonl.gz` files). */
export const STORED_PER_GZIP_BYTE = 3.4;
/** Stored bytes besides the vectors (documents, BM25 index) per gzip-compressed byte: with VECTOR_BYTES_PER_DOC, when the document count is known. */
export const REST_PER_GZIP_BYTE = 2.7;
/** The default static embedding's stored vector per document (100 float32 components). */
export const VECTOR_BYTES_PER_DOC = 400;
/** Peak memory of the tab (page, workers, WASM) per byte of uncompressed corpus, while it is imported, indexed and embedded. */
export const MEMORY_PER_CORPUS_BYTE = 1.9;
/** Uncompressed bytes per gzip byte of English JSON lines, for the memory of a compressed corpus. */
const GZIP_RATIO = 2.9;
/** A tab should not take more than this share of the device's memory (`navigator.deviceMemory`). */
const DEVICE_MEMORY_SHARE = 0.5;
const GIB = 1024 * 1024 * 1024;

export interface CorpusSize {
  /** Bytes of the corpus file as it is read or downloaded. */
  bytes: number;
  /** The file is gzip-compressed (`.gz`). */
  gzip: boolean;
  /** Documents, when known (the catalog's counts): the vectors then count per document. */
  docs?: number;
}

/** Bytes the collection is estimated to occupy once imported, indexed and embedded. */
export function storedEstimate(size: CorpusSize): number {
  if (size.gzip && size.docs !== undefined) return size.bytes * REST_PER_GZIP_BYTE + size.docs * VECTOR_BYTES_PER_DOC;
  return size.bytes * (size.gzip ? STORED_PER_GZIP_BYTE : STORED_PER_CORPUS_BYTE);
}

/** Peak memory the tab is estimated to need for the collection. */
export function memoryEstimate(size: CorpusSize): number {
  return size.bytes * (size.gzip ? GZIP_RATIO : 1) * MEMORY_PER_CORPUS_BYTE;
}

/** Corpus bytes (in the file's own form) whose collection would fit into `freeBytes`. */
export function corpusThatFits(freeBytes: number, gzip: boolean): number {
  return Math.max(0, freeBytes) / (gzip ? STORED_PER_GZIP_BYTE : STORED_PER_CORPUS_BYTE);
}

export interface StorageForecast {
  storedBytes: number;
  /** Quota left to this origin, when the browser says. */
  freeBytes?: number;
  memoryBytes: number;
  /** What the tab may use, when the browser reports the device's memory. */
  memoryBudget?: number;
  /** The estimate exceeds the free quota. */
  overQuota: boolean;
  /** The estimate exceeds the memory budget. */
  overMemory: boolean;
}

/**
 * The forecast for a corpus against the origin's storage estimate (`navigator.storage.estimate()`) and the
 * device's memory in GiB (`navigator.deviceMemory`, which Chromium rounds and caps at 8); either may be unknown.
 */
export function forecastStorage(size: CorpusSize, estimate: StorageEstimateLike | undefined, deviceMemoryGiB: number | undefined): StorageForecast {
  const storedBytes = storedEstimate(size);
  const memoryBytes = memoryEstimate(size);
  const freeBytes = estimate?.quota !== undefined ? estimate.quota - (estimate.usage ?? 0) : undefined;
  const memoryBudget = deviceMemoryGiB !== undefined && deviceMemoryGiB > 0 ? deviceMemoryGiB * GIB * DEVICE_MEMORY_SHARE : undefined;
  return {
    storedBytes,
    memoryBytes,
    ...(freeBytes === undefined ? {} : { freeBytes }),
    ...(memoryBudget === undefined ? {} : { memoryBudget }),
    overQuota: freeBytes !== undefined && storedBytes > freeBytes,
    overMemory: memoryBudget !== undefined && memoryBytes > memoryBudget,
  };
}

function megabytes(bytes: number): string {
  return bytes >= 10 * GIB ? `${(bytes / GIB).toFixed(0)} GB` : bytes >= GIB ? `${(bytes / GIB).toFixed(1)} GB` : `${Math.max(0, Math.round(bytes / (1024 * 1024)))} MB`;
}

/**
 * The warning shown before an import whose forecast exceeds the quota or the memory budget (undefined when
 * it fits or nothing is known): names the file, says what it would take and what would fit, and what to do.
 */
export function forecastWarning(fileName: string, size: CorpusSize, forecast: StorageForecast): string | undefined {
  const parts: string[] = [];
  if (forecast.overQuota) {
    const fits = corpusThatFits(forecast.freeBytes!, size.gzip);
    parts.push(
      `${fileName} (${megabytes(size.bytes)}) will take about ${megabytes(forecast.storedBytes)} stored (an estimate), but this browser lets this site store only ${megabytes(forecast.freeBytes!)} more: ` +
        `a corpus of about ${megabytes(fits)} would fit. Delete collections you no longer need, or allow this site more storage (a browser with more free disk space), or import a part of the corpus.`,
    );
  }
  if (forecast.overMemory) {
    parts.push(
      `${fileName} may need about ${megabytes(forecast.memoryBytes)} of memory while it is indexed and embedded (an estimate), more than this tab should take on this device (${megabytes(forecast.memoryBudget!)}): close other tabs, or import a part of the corpus.`,
    );
  }
  return parts.length === 0 ? undefined : parts.join(' ');
}
