import { parseCorpusBatches, type CorpusParseOptions, type DocumentBatch } from '../data/corpus.ts';
import { ParseError } from '../data/errors.ts';
import type { ByteSource } from '../data/lines.ts';
import { createQrelsLog, parseQrels, type QrelsLog } from '../data/qrels.ts';
import { parseQueries } from '../data/queries.ts';
import { createParseLog, FirstOccurrences, type ErrorPolicy, type ParseLog } from '../data/record-stream.ts';
import type { Doc } from '../types.ts';
import type { CollectionRecords } from '../storage/collections.ts';
import { csvToLines } from './csv.ts';
import { countingSource, memoryRandomAccess, readAll, type ImportFile, type ImportPlan } from './import-file.ts';
import { parseJsonCollection } from './json-collection.ts';
import { readTextDocument } from './text-documents.ts';

/**
 * The record streams of an import plan, for `importCollection`: each file is opened when its turn comes,
 * turned into BEIR lines when it is CSV or parquet, and parsed by the data layer's streaming parsers, whose
 * logs feed the validation report.
 */

/** Where reading a file stands. */
export interface FileProgress {
  file: string;
  role: ImportFile['role'];
  /** Raw bytes read (downloaded) so far. */
  bytes: number;
  size?: number;
  /** Lines parsed so far. */
  lines: number;
  /** True once the file has been read to its end. */
  done: boolean;
}

export interface RecordsOptions {
  signal?: AbortSignal;
  /** `'throw'` (default) stops at the first bad line; `'skip'` drops bad lines and lists them in the report. */
  onError?: ErrorPolicy;
  maxSkipped?: number;
  onFile?: (progress: FileProgress) => void;
}

function wrapOpenError(error: unknown, file: ImportFile, signal: AbortSignal | undefined): unknown {
  signal?.throwIfAborted();
  if (error instanceof ParseError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new ParseError(file.name, 0, 'io', `could not open the file (${message})`, { cause: error });
}

/**
 * Under `onError: 'skip'`, a table row that cannot become a line (CSV, parquet) goes to the file's log as a
 * skipped line, with the same limit as the parsers' (`maxSkipped`, default 1000).
 */
function rowSkipper(log: ParseLog<unknown>, file: ImportFile, options: RecordsOptions): ((error: ParseError) => void) | undefined {
  if (options.onError !== 'skip') return undefined;
  const max = options.maxSkipped ?? 1000;
  return (error) => {
    log.skipped.push(error);
    if (log.skipped.length > max) throw new ParseError(file.name, error.line, 'too-many-errors', `gave up after ${log.skipped.length} bad lines; is this the right file?`);
  };
}

/**
 * CSV, and tab-separated documents or queries (classify.ts takes a .tsv whose header names a text column
 * for documents): tables, read by csv.ts, which finds the tab. A .tsv of judgments is BEIR's own line format.
 */
function isTable(file: ImportFile): boolean {
  return file.format === 'csv' || (file.format === 'tsv' && file.role !== 'qrels');
}

/** The file as BEIR lines, with its raw bytes counted. */
async function openAsLines(file: ImportFile, log: ParseLog<unknown>, options: RecordsOptions, report: (bytes: number) => void): Promise<ByteSource> {
  const { signal } = options;
  const skipRow = rowSkipper(log, file, options);
  const tableOptions = { role: file.role, file: file.name, signal, ...(skipRow === undefined ? {} : { skipRow }), ...(file.fields === undefined ? {} : { fields: file.fields }) };
  try {
    if (file.format === 'parquet') {
      // Loaded for parquet files only: hyparquet and its codecs are most of the importer's code, and the
      // starter's import (in the page, on a first visit) reads JSONL.
      const { parquetToLines } = await import('./parquet.ts');
      const random = file.random
        ? await file.random({ signal, onBytes: report })
        : memoryRandomAccess(await readAll(await file.open({ signal }), { signal, onBytes: report }));
      report(random.byteLength);
      return parquetToLines(random, tableOptions);
    }
    const raw = countingSource(await file.open({ signal }), report);
    return isTable(file) ? csvToLines(raw, tableOptions) : raw;
  } catch (error) {
    throw wrapOpenError(error, file, signal);
  }
}

function parserOptions<Log extends ParseLog<unknown>>(file: ImportFile, log: Log, options: RecordsOptions, onLines: (lines: number) => void) {
  const common = {
    file: file.name,
    signal: options.signal,
    maxSkipped: options.maxSkipped,
    onProgress: (progress: { lines: number }) => onLines(progress.lines),
  };
  return options.onError === 'skip' ? { ...common, onError: 'skip' as const, log } : { ...common, onError: 'throw' as const, log };
}

/** Reads one file through `parse`, reporting progress. */
async function* readFile<T, Log extends ParseLog<unknown>>(
  file: ImportFile,
  log: Log,
  options: RecordsOptions,
  parse: (source: ByteSource, parseOptions: ReturnType<typeof parserOptions<Log>>) => AsyncGenerator<T>,
): AsyncGenerator<T> {
  const progress: FileProgress = { file: file.name, role: file.role, bytes: 0, lines: 0, done: false, ...(file.size === undefined ? {} : { size: file.size }) };
  const emit = () => options.onFile?.({ ...progress });
  emit();
  const source = await openAsLines(file, log, options, (bytes) => {
    progress.bytes = bytes;
  });
  yield* parse(
    source,
    parserOptions(file, log, options, (lines) => {
      progress.lines = lines;
      emit();
    }),
  );
  progress.done = true;
  emit();
}

/** A JSON collection's documents one per batch (its parser reads array elements one by one). */
async function* jsonCollectionBatches(source: ByteSource, options: CorpusParseOptions): AsyncGenerator<DocumentBatch> {
  for await (const doc of parseJsonCollection(source, options)) yield { docs: [doc] };
}

/** One corpus file's documents in batches, by its format; `firsts` is shared by the parts of one corpus. */
function corpusFileDocuments(file: ImportFile, log: ParseLog, options: RecordsOptions, firsts: FirstOccurrences): AsyncGenerator<DocumentBatch> {
  if (file.format === 'text' || file.format === 'markdown') return textFileDocuments(file, log, options, firsts);
  const parse = file.format === 'json' ? jsonCollectionBatches : parseCorpusBatches;
  return readFile(file, log, options, (source, parseOptions) => {
    // Tables are turned into BEIR lines with the mapping already applied (tabular.ts); JSON is read with it.
    const fields = file.format === 'jsonl' || file.format === 'json' ? file.fields : undefined;
    const corpusOptions: CorpusParseOptions = { ...parseOptions, firsts, ...(fields === undefined ? {} : { fields }) };
    return parse(source, corpusOptions);
  });
}

/**
 * A text file as one document. Under `onError: 'skip'` an unreadable file (invalid UTF-8) is skipped like a
 * bad line, and the corpus gives up after `maxSkipped` of them.
 */
async function* textFileDocuments(file: ImportFile, log: ParseLog, options: RecordsOptions, firsts: FirstOccurrences): AsyncGenerator<DocumentBatch> {
  const progress: FileProgress = { file: file.name, role: file.role, bytes: 0, lines: 0, done: false, ...(file.size === undefined ? {} : { size: file.size }) };
  options.onFile?.({ ...progress });
  log.file = file.name;
  let doc: Doc | undefined;
  try {
    const source = await openAsLines(file, log, options, (bytes) => {
      progress.bytes = bytes;
    });
    doc = await readTextDocument(source, { file: file.name, kind: file.format === 'markdown' ? 'markdown' : 'text', ...(options.signal === undefined ? {} : { signal: options.signal }) });
  } catch (error) {
    if (options.onError !== 'skip' || !(error instanceof ParseError) || error.line === 0) throw error;
    log.skipped.push(error);
    if (log.skipped.length > (options.maxSkipped ?? 1000)) throw new ParseError(file.name, error.line, 'too-many-errors', `gave up after ${log.skipped.length} unreadable files; are these text files?`);
  }
  progress.lines = 1;
  progress.done = true;
  options.onFile?.({ ...progress });
  if (doc === undefined || !firsts.claim(doc.id, 1)) return;
  log.records += 1;
  yield { docs: [doc] };
}

/** The documents of the plan's corpus in batches, its parts one after the other, with one log and one duplicate rule. */
async function* corpusDocuments(plan: ImportPlan, log: ParseLog, options: RecordsOptions): AsyncGenerator<DocumentBatch> {
  const parts = [plan.corpus, ...(plan.corpusParts ?? [])];
  const firsts = new FirstOccurrences(log);
  for (const file of parts) yield* corpusFileDocuments(file, log, options, firsts);
  if (parts.length > 1) {
    log.file = corpusPartsName(parts);
    if (log.records === 0) throw new ParseError(log.file, 0, 'empty-file', `the files hold no documents${log.skipped.length > 0 ? ` (${log.skipped.length} skipped)` : ''}`);
  }
}

/** How the report names a corpus of several files: `notes/ (12 files)`. */
function corpusPartsName(parts: readonly ImportFile[]): string {
  const folders = parts.map((part) => part.name.split('/').slice(0, -1));
  const first = folders[0] ?? [];
  let depth = 0;
  while (depth < first.length && folders.every((folder) => folder[depth] === first[depth])) depth += 1;
  const folder = first.slice(0, depth).join('/');
  return `${folder === '' ? '' : `${folder}/`}(${parts.length} files)`;
}

/** The streams `importCollection` writes from, for `plan`. */
export function planRecords(plan: ImportPlan, options: RecordsOptions = {}): CollectionRecords {
  const corpusLog = createParseLog();
  const queriesLog = createParseLog();
  const qrelsLogs = new Map<string, QrelsLog>();
  const qrels = plan.qrels.map((file) => {
    const split = file.split ?? 'test';
    const log = createQrelsLog();
    qrelsLogs.set(split, log);
    return { split, judgments: readFile(file, log, options, parseQrels) };
  });
  return {
    documents: corpusDocuments(plan, corpusLog, options),
    ...(plan.queries === undefined ? {} : { queries: readFile(plan.queries, queriesLog, options, parseQueries) }),
    qrels,
    logs: () => {
      // Table rows are checked as they are converted, a little ahead of the parser: restore file order.
      for (const log of [corpusLog, queriesLog, ...qrelsLogs.values()]) log.skipped.sort((a, b) => a.line - b.line);
      return { corpus: corpusLog, ...(plan.queries === undefined ? {} : { queries: queriesLog }), qrels: qrelsLogs };
    },
  };
}
