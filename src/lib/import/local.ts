import type { CollectionMeta } from '../storage/collections.ts';
import { hasGzipMagic } from '../data/gzip.ts';
import { byteChunks } from '../data/lines.ts';
import { inspectFiles, type FileSample, type Inspection } from './classify.ts';
import { mappingProblems, type FieldMapping } from './field-mapping.ts';
import { blobImportFile, type ImportFile, type ImportPlan } from './import-file.ts';
import { readZipDirectory, zipEntryBytes } from './zip.ts';

/**
 * Files from this computer (dropped, picked one by one or as a folder): zips are opened (entries become
 * files named `<zip>/<path>`), every file's first bytes are sampled for classify.ts, and the recognised
 * files become an import plan. Works on Blobs, so it runs in the import worker (Files cross to workers).
 */

export interface LocalInput {
  /** Path relative to what was dropped or picked (`scifact/qrels/test.tsv`), or the file's name. */
  path: string;
  blob: Blob;
}

/** A file ready to be sampled and read: a plain file, or an entry of a zip. */
export interface LocalEntry {
  path: string;
  size: number;
  bytes(): AsyncIterable<Uint8Array>;
  /** Plain files only: random access and streaming straight from the Blob. */
  blob?: Blob;
}

const HEAD_BYTES = 16 * 1024;

async function isZip(input: LocalInput): Promise<boolean> {
  if (/\.zip$/i.test(input.path)) return true;
  const magic = new Uint8Array(await input.blob.slice(0, 4).arrayBuffer());
  return magic[0] === 0x50 && magic[1] === 0x4b && magic[2] === 0x03 && magic[3] === 0x04;
}

/** Plain files as they are, zips as their entries. */
export async function expandInputs(inputs: readonly LocalInput[]): Promise<LocalEntry[]> {
  const entries: LocalEntry[] = [];
  for (const input of inputs) {
    if (!(await isZip(input))) {
      entries.push({ path: input.path, size: input.blob.size, blob: input.blob, bytes: () => byteChunks(input.blob.stream() as ReadableStream<Uint8Array>) });
      continue;
    }
    for (const entry of await readZipDirectory(input.blob, input.path)) {
      if (entry.directory) continue;
      entries.push({ path: `${input.path}/${entry.name}`, size: entry.size, bytes: () => zipEntryBytes(input.blob, entry, input.path) });
    }
  }
  return entries;
}

async function headOf(entry: LocalEntry): Promise<Uint8Array> {
  if (entry.blob !== undefined) return new Uint8Array(await entry.blob.slice(0, HEAD_BYTES).arrayBuffer());
  const parts: Uint8Array[] = [];
  let length = 0;
  for await (const chunk of entry.bytes()) {
    parts.push(chunk);
    length += chunk.length;
    if (length >= HEAD_BYTES) break; // leaving the loop closes the entry's stream
  }
  const head = new Uint8Array(Math.min(length, HEAD_BYTES));
  let offset = 0;
  for (const part of parts) {
    const take = Math.min(part.length, head.length - offset);
    head.set(part.subarray(0, take), offset);
    offset += take;
    if (offset >= head.length) break;
  }
  return head;
}

/** The start of a gzip stream, decompressed as far as the bytes go. */
async function gunzipStart(bytes: Uint8Array): Promise<Uint8Array> {
  // fflate loads when a compressed file is met (as in src/lib/data/gzip.ts): most imports are plain text.
  const { Gunzip } = await import('fflate');
  const out: Uint8Array[] = [];
  try {
    new Gunzip((chunk) => out.push(chunk)).push(bytes, false);
  } catch {
    // A damaged start: the sample is what came out before the damage.
  }
  const length = out.reduce((sum, chunk) => sum + chunk.length, 0);
  const joined = new Uint8Array(length);
  let offset = 0;
  for (const chunk of out) {
    joined.set(chunk, offset);
    offset += chunk.length;
  }
  return joined;
}

/** What classify.ts looks at: the file's first lines (decompressed) and its magic bytes. */
async function sampleEntry(entry: LocalEntry): Promise<FileSample> {
  let raw: Uint8Array;
  try {
    raw = await headOf(entry);
  } catch {
    return { path: entry.path, size: entry.size, gzip: false, parquet: false };
  }
  const gzip = hasGzipMagic(raw);
  const parquet = raw.length >= 4 && raw[0] === 0x50 && raw[1] === 0x41 && raw[2] === 0x52 && raw[3] === 0x31;
  if (parquet) return { path: entry.path, size: entry.size, gzip, parquet };
  const text = new TextDecoder('utf-8').decode(gzip ? await gunzipStart(raw) : raw);
  const complete = text.includes('\n') ? text.slice(0, text.lastIndexOf('\n')) : text;
  return { path: entry.path, size: entry.size, gzip, parquet, head: complete };
}

export async function inspectEntries(entries: readonly LocalEntry[]): Promise<Inspection> {
  const samples: FileSample[] = [];
  for (const entry of entries) samples.push(await sampleEntry(entry));
  return inspectFiles(samples);
}

function entryImportFile(entry: LocalEntry, file: Omit<ImportFile, 'open' | 'random' | 'size'>): ImportFile {
  if (entry.blob !== undefined) return blobImportFile(entry.blob, file);
  return { ...file, size: entry.size, open: async () => entry.bytes() };
}

/**
 * The field mapping a corpus of records is read with: the person's choice, else the guess; an incomplete
 * one is refused here, before anything is read, with what to choose.
 */
function corpusFields(inspection: Inspection, chosen: FieldMapping | undefined): FieldMapping | undefined {
  const guess = inspection.fields;
  if (guess === undefined) return undefined;
  const mapping = chosen ?? guess.mapping;
  const problems = mappingProblems(mapping, guess.fields);
  if (problems.length > 0) throw new Error(`${inspection.plan?.corpus ?? 'the corpus'}: ${problems.join('; ')}`);
  return mapping;
}

/**
 * The import plan for an inspection that found a corpus (its `plan`); `fields` is the mapping chosen in the
 * preview (default: the inspection's guess).
 */
export function localImportPlan(entries: readonly LocalEntry[], inspection: Inspection, meta: CollectionMeta, fields?: FieldMapping): ImportPlan {
  const paths = inspection.plan;
  if (paths === undefined) throw new Error(inspection.problems.join('\n') || 'the files do not make a collection');
  const mapping = corpusFields(inspection, fields);
  const byPath = new Map(entries.map((entry) => [entry.path, entry]));
  const formatOf = new Map(inspection.files.map((file) => [file.path, file.format ?? 'jsonl']));
  const file = (path: string, role: ImportFile['role'], split?: string): ImportFile => {
    const entry = byPath.get(path);
    if (entry === undefined) throw new Error(`${path}: not among the files`);
    const format = formatOf.get(path) ?? 'jsonl';
    const mapped = role === 'corpus' && mapping !== undefined && (format === 'jsonl' || format === 'json' || format === 'csv');
    return entryImportFile(entry, { role, format, name: path, ...(split === undefined ? {} : { split }), ...(mapped ? { fields: mapping } : {}) });
  };
  const parts = (paths.corpusParts ?? []).map((path) => file(path, 'corpus'));
  return {
    meta,
    corpus: file(paths.corpus, 'corpus'),
    ...(parts.length === 0 ? {} : { corpusParts: parts }),
    ...(paths.queries === undefined ? {} : { queries: file(paths.queries, 'queries') }),
    qrels: paths.qrels.map(({ split, path }) => file(path, 'qrels', split)),
  };
}
