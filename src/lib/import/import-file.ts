import type { FileRole } from '../catalog/catalog.ts';
import { byteChunks, type ByteSource } from '../data/lines.ts';
import type { CollectionMeta } from '../storage/collections.ts';
import type { FieldMapping } from './field-mapping.ts';

/**
 * One file of an import, wherever it comes from (a download, a dropped file, a zip entry, an embedded
 * string): what it holds and how to read it. Opening is lazy: a file is opened when its turn comes, so a
 * download starts only after the previous file is stored.
 */

export type { FileRole };

/**
 * What the bytes are; gzip is detected from the bytes themselves, whatever the name says. `json`: a JSON
 * array of records or one record per line (Pyserini's JSON collection); `text` / `markdown`: the whole file
 * is one document (text-documents.ts).
 */
export type ImportFormat = 'jsonl' | 'json' | 'tsv' | 'csv' | 'parquet' | 'text' | 'markdown';

/** Random access to a file's bytes, in the shape hyparquet reads (its `AsyncBuffer`). */
export interface RandomAccess {
  byteLength: number;
  slice(start: number, end?: number): ArrayBuffer | Promise<ArrayBuffer>;
}

export interface OpenOptions {
  signal?: AbortSignal;
  /** Raw bytes received so far (downloads report as they go). */
  onBytes?: (bytes: number) => void;
}

export interface ImportFile {
  role: FileRole;
  /** For qrels: the split the file judges. */
  split?: string;
  format: ImportFormat;
  /** Corpus files other than BEIR's: which record field holds the id, the text and the title. */
  fields?: FieldMapping;
  /** Name used in messages and in the report: a path, a zip entry, or a URL's path. */
  name: string;
  /** Size in bytes when known. */
  size?: number;
  open(options?: OpenOptions): Promise<ByteSource>;
  /** Random access for parquet; files without it are read whole through `open`. */
  random?(options?: OpenOptions): Promise<RandomAccess>;
}

/** Everything one import reads: the collection's identity and its files. */
export interface ImportPlan {
  meta: CollectionMeta;
  corpus: ImportFile;
  /**
   * More files of the same corpus, read after `corpus` as one corpus (a folder of Pyserini `.jsonl` parts,
   * a folder of text files): an id repeated in a later file is a duplicate.
   */
  corpusParts?: ImportFile[];
  /** Absent: a corpus without queries. */
  queries?: ImportFile;
  /** Empty: a collection without judgments (no splits). */
  qrels: ImportFile[];
}

export function planFiles(plan: ImportPlan): ImportFile[] {
  return [plan.corpus, ...(plan.corpusParts ?? []), ...(plan.queries === undefined ? [] : [plan.queries]), ...plan.qrels];
}

/** A byte source over bytes already in memory, in chunks of `chunkSize`. */
export async function* bytesSource(bytes: Uint8Array, chunkSize = 64 * 1024): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < bytes.length; at += chunkSize) yield bytes.subarray(at, at + chunkSize);
}

/** An import file over a string (the embedded starter collection, tests). */
export function textImportFile(text: string, file: Omit<ImportFile, 'open' | 'size'>): ImportFile {
  const bytes = new TextEncoder().encode(text);
  return { ...file, size: bytes.length, open: async () => bytesSource(bytes) };
}

/** An import file over a Blob or File: streamed for text, sliced for parquet (nothing read twice). */
export function blobImportFile(blob: Blob, file: Omit<ImportFile, 'open' | 'random' | 'size'>): ImportFile {
  return {
    ...file,
    size: blob.size,
    open: async () => blob.stream() as ReadableStream<Uint8Array>,
    random: async () => ({ byteLength: blob.size, slice: (start, end) => blob.slice(start, end).arrayBuffer() }),
  };
}

/** Reads a byte source whole (parquet files without random access). */
export async function readAll(source: ByteSource, options: OpenOptions = {}): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  let length = 0;
  const iterable = byteChunks(source);
  for await (const chunk of iterable) {
    options.signal?.throwIfAborted();
    parts.push(chunk);
    length += chunk.length;
    options.onBytes?.(length);
  }
  const whole = new Uint8Array(length);
  let offset = 0;
  for (const part of parts) {
    whole.set(part, offset);
    offset += part.length;
  }
  return whole;
}

/** Passes a source's chunks on, reporting the running byte count. */
export async function* countingSource(source: ByteSource, onBytes: (bytes: number) => void): AsyncGenerator<Uint8Array> {
  let total = 0;
  const iterable = byteChunks(source);
  for await (const chunk of iterable) {
    total += chunk.length;
    onBytes(total);
    yield chunk;
  }
}

/** Random access over bytes in memory. */
export function memoryRandomAccess(bytes: Uint8Array): RandomAccess {
  return {
    byteLength: bytes.length,
    slice: (start, end) => bytes.slice(start, end).buffer as ArrayBuffer,
  };
}
