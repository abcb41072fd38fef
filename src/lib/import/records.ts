import { parseCorpus } from '../data/corpus.ts';
import { ParseError } from '../data/errors.ts';
import type { ByteSource } from '../data/lines.ts';
import { createQrelsLog, parseQrels, type QrelsLog } from '../data/qrels.ts';
import { parseQueries } from '../data/queries.ts';
import { createParseLog, type ErrorPolicy, type ParseLog } from '../data/record-stream.ts';
import type { CollectionRecords } from '../storage/collections.ts';
import { csvToLines } from './csv.ts';
import { countingSource, memoryRandomAccess, readAll, type ImportFile, type ImportPlan } from './import-file.ts';
import { parquetToLines } from './parquet.ts';

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

/** The file as BEIR lines, with its raw bytes counted. */
async function openAsLines(file: ImportFile, log: ParseLog<unknown>, options: RecordsOptions, report: (bytes: number) => void): Promise<ByteSource> {
  const { signal } = options;
  const skipRow = rowSkipper(log, file, options);
  const tableOptions = { role: file.role, file: file.name, signal, ...(skipRow === undefined ? {} : { skipRow }) };
  try {
    if (file.format === 'parquet') {
      const random = file.random
        ? await file.random({ signal, onBytes: report })
        : memoryRandomAccess(await readAll(await file.open({ signal }), { signal, onBytes: report }));
      report(random.byteLength);
      return parquetToLines(random, tableOptions);
    }
    const raw = countingSource(await file.open({ signal }), report);
    return file.format === 'csv' ? csvToLines(raw, tableOptions) : raw;
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
    documents: readFile(plan.corpus, corpusLog, options, parseCorpus),
    ...(plan.queries === undefined ? {} : { queries: readFile(plan.queries, queriesLog, options, parseQueries) }),
    qrels,
    logs: () => {
      // Table rows are checked as they are converted, a little ahead of the parser: restore file order.
      for (const log of [corpusLog, queriesLog, ...qrelsLogs.values()]) log.skipped.sort((a, b) => a.line - b.line);
      return { corpus: corpusLog, ...(plan.queries === undefined ? {} : { queries: queriesLog }), qrels: qrelsLogs };
    },
  };
}
