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

/** The file as BEIR lines, with its raw bytes counted. */
async function openAsLines(file: ImportFile, options: RecordsOptions, report: (bytes: number) => void): Promise<ByteSource> {
  const { signal } = options;
  try {
    if (file.format === 'parquet') {
      const random = file.random
        ? await file.random({ signal, onBytes: report })
        : memoryRandomAccess(await readAll(await file.open({ signal }), { signal, onBytes: report }));
      report(random.byteLength);
      return parquetToLines(random, { role: file.role, file: file.name, signal });
    }
    const raw = countingSource(await file.open({ signal }), report);
    return file.format === 'csv' ? csvToLines(raw, { role: file.role, file: file.name, signal }) : raw;
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
  const source = await openAsLines(file, options, (bytes) => {
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
    logs: () => ({ corpus: corpusLog, ...(plan.queries === undefined ? {} : { queries: queriesLog }), qrels: qrelsLogs }),
  };
}
