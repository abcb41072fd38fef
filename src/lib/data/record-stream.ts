import { ParseError } from './errors.ts';
import { readDecodedLineBatches, type ByteSource } from './lines.ts';

/**
 * The common driver of the line-per-record parsers (corpus, queries, qrels): blank lines, the error
 * policy, duplicate bookkeeping, progress and the empty-file check live here once.
 */

/** Where a parse stands, for progress bars. */
export interface ParseProgress {
  file: string;
  /** Lines read so far, blank ones included. */
  lines: number;
  /** Raw bytes consumed so far (compressed bytes for .gz input: compare with the file's size). */
  bytes: number;
}

/**
 * What to do with a line that cannot be turned into a record.
 * - `'throw'` (default): stop at the first bad line.
 * - `'skip'`: drop the line, keep its `ParseError` in `log.skipped`, continue. Only line-level problems
 *   are skippable (invalid UTF-8, invalid JSON, missing or mistyped fields, bad qrels columns or grades):
 *   the damage is confined to that one record and the log says which. Problems with the file as a whole
 *   (truncated or corrupted gzip, read failure, empty file, too many bad lines) always throw.
 */
export type ErrorPolicy = 'throw' | 'skip';

/** An id met again on a later line. The first occurrence is kept; this one was dropped. */
export interface DuplicateId {
  file: string;
  id: string;
  line: number;
  firstLine: number;
  /** The file of the first occurrence, when it differs from `file` (a corpus read from several files). */
  firstFile?: string;
}

/** What a parse noticed besides the records it produced; filled in by the parser as it goes. */
export interface ParseLog<Duplicate = DuplicateId> {
  /** The name used in messages (set by the parser). */
  file: string;
  /** Lines read, blank ones included. */
  lines: number;
  /** Records produced (duplicates and skipped lines not counted). */
  records: number;
  /** Lines dropped under `onError: 'skip'`, in file order. */
  skipped: ParseError[];
  /** Later occurrences of an id (or qrels pair) already seen, in file order; they were dropped. */
  duplicates: Duplicate[];
}

export function createParseLog<Duplicate = DuplicateId>(): ParseLog<Duplicate> {
  return { file: '', lines: 0, records: 0, skipped: [], duplicates: [] };
}

interface CommonParseOptions {
  /** Name used in messages; defaults to the conventional BEIR file name. */
  file?: string;
  /** `'auto'` (default) detects gzip by its magic bytes. */
  gzip?: boolean | 'auto';
  /** Cancels the parse: the generator throws the signal's reason (an `AbortError`), not a `ParseError`. */
  signal?: AbortSignal;
  /** Called about once per chunk read, and once at the end. */
  onProgress?: (progress: ParseProgress) => void;
  /** With `onError: 'skip'`: give up (a `too-many-errors` ParseError) after this many bad lines. Default 1000. */
  maxSkipped?: number;
}

/** Parser options; choosing `onError: 'skip'` requires a log, so skipped lines cannot go unseen. */
export type ParseOptions<Log> = CommonParseOptions &
  ({ onError?: 'throw'; log?: Log } | { onError: 'skip'; log: Log });

const DEFAULT_MAX_SKIPPED = 1000;

/** Turns one non-blank line into a record; `undefined` drops it silently (a header, a duplicate). */
export type LineParser<T> = (text: string, line: number) => T | undefined;

function isBlank(text: string): boolean {
  return text.trim().length === 0;
}

/** The log a parse writes to: the caller's, or a private one; `file` is set to the name used in messages. */
export function openLog<Log extends ParseLog<unknown>>(options: { file?: string; log?: Log }, defaultFile: string, create: () => Log): Log {
  const log = options.log ?? create();
  log.file = options.file ?? defaultFile;
  return log;
}

/**
 * Streams the records of a line-per-record file, writing to `log` (opened with `openLog`). `what` names
 * the records in the empty-file message ("documents", "queries", "judgments").
 */
export async function* parseRecords<T, D>(
  source: ByteSource,
  options: ParseOptions<ParseLog<D>>,
  log: ParseLog<D>,
  what: string,
  parseLine: LineParser<T>,
): AsyncGenerator<T> {
  for await (const batch of parseRecordBatches(source, options, log, what, parseLine)) yield* batch.records;
}

/** The records of one chunk of lines. */
export interface RecordBatch<T> {
  records: T[];
  /** What multi-byte characters add to the UTF-8 size of the chunk's lines over their UTF-16 length (see lines.ts). */
  utf8Surplus: number;
}

/**
 * `parseRecords` a chunk's records at a time (one await for many records: the importer's way, where a
 * corpus of half a million lines would otherwise pay a promise per record in each generator it passes).
 */
export async function* parseRecordBatches<T, D>(
  source: ByteSource,
  options: ParseOptions<ParseLog<D>>,
  log: ParseLog<D>,
  what: string,
  parseLine: LineParser<T>,
): AsyncGenerator<RecordBatch<T>> {
  const { file } = log;
  const skip = options.onError === 'skip';
  const maxSkipped = options.maxSkipped ?? DEFAULT_MAX_SKIPPED;
  let bytes = 0;
  const progress = () => options.onProgress?.({ file, lines: log.lines, bytes });

  const lines = readDecodedLineBatches(source, {
    file,
    gzip: options.gzip ?? 'auto',
    signal: options.signal,
    onBytes: (count) => {
      bytes = count;
    },
  });
  for await (const batch of lines) {
    const records: T[] = [];
    let number = batch.first - 1;
    for (const text of batch.lines) {
      number += 1;
      log.lines = number;
      let record: T | undefined;
      try {
        if (typeof text !== 'string') throw text;
        if (isBlank(text)) continue;
        record = parseLine(text, number);
      } catch (error) {
        const fatal = !skip || !(error instanceof ParseError);
        if (!fatal) log.skipped.push(error);
        const failure = fatal ? error : log.skipped.length > maxSkipped ? new ParseError(file, number, 'too-many-errors', `gave up after ${log.skipped.length} bad lines; is this the right file?`) : undefined;
        if (failure === undefined) continue;
        // The records before the failing line come first, as they would one by one.
        if (records.length > 0) yield { records, utf8Surplus: batch.utf8Surplus };
        throw failure;
      }
      if (record === undefined) continue;
      log.records += 1;
      records.push(record);
    }
    if (records.length > 0) yield { records, utf8Surplus: batch.utf8Surplus };
    progress();
  }
  progress();
  if (log.records === 0) {
    const skipped = log.skipped.length > 0 ? ` (${log.skipped.length} bad lines skipped)` : '';
    throw new ParseError(file, 0, 'empty-file', `the file holds no ${what}${skipped}`);
  }
}

/** Keeps the first line of each id and records later ones as duplicates (the documented policy). */
export class FirstOccurrences {
  /** Each id's first line: a number in the first file read, else with its file (no object per id of a one-file corpus). */
  private readonly firsts = new Map<string, number | { line: number; file: string }>();
  private firstFile: string | undefined;

  constructor(private readonly log: ParseLog<DuplicateId>) {}

  /** True when `id` is new; otherwise records the duplicate and returns false. */
  claim(id: string, line: number): boolean {
    const first = this.firsts.get(id);
    const file = this.log.file;
    if (first === undefined) {
      this.firstFile ??= file;
      this.firsts.set(id, file === this.firstFile ? line : { line, file });
      return true;
    }
    const [firstLine, firstFile] = typeof first === 'number' ? [first, this.firstFile!] : [first.line, first.file];
    this.log.duplicates.push({ file, id, line, firstLine, ...(firstFile === file ? {} : { firstFile }) });
    return false;
  }
}

/** One record's text and the line it starts on, or why its line could not be read. */
export type RecordText = { line: number; text: string } | { line: number; error: ParseError };

/**
 * `parseRecords` over records already split from their file (a JSON array's elements, one per item): the
 * same error policy, log and empty-file check. `log.lines` follows the items' lines.
 */
export async function* parseRecordTexts<T, D>(
  items: AsyncIterable<RecordText>,
  options: ParseOptions<ParseLog<D>>,
  log: ParseLog<D>,
  what: string,
  parseLine: LineParser<T>,
): AsyncGenerator<T> {
  const { file } = log;
  const skip = options.onError === 'skip';
  const maxSkipped = options.maxSkipped ?? DEFAULT_MAX_SKIPPED;
  let sinceProgress = 0;
  for await (const item of items) {
    options.signal?.throwIfAborted();
    log.lines = Math.max(log.lines, item.line);
    let record: T | undefined;
    try {
      if ('error' in item) throw item.error;
      if (isBlank(item.text)) continue;
      record = parseLine(item.text, item.line);
    } catch (error) {
      if (!skip || !(error instanceof ParseError)) throw error;
      log.skipped.push(error);
      if (log.skipped.length > maxSkipped) {
        throw new ParseError(file, item.line, 'too-many-errors', `gave up after ${log.skipped.length} bad lines; is this the right file?`);
      }
      continue;
    }
    if (++sinceProgress >= 256) {
      sinceProgress = 0;
      options.onProgress?.({ file, lines: log.lines, bytes: 0 });
    }
    if (record === undefined) continue;
    log.records += 1;
    yield record;
  }
  options.onProgress?.({ file, lines: log.lines, bytes: 0 });
  if (log.records === 0) {
    const skipped = log.skipped.length > 0 ? ` (${log.skipped.length} bad lines skipped)` : '';
    throw new ParseError(file, 0, 'empty-file', `the file holds no ${what}${skipped}`);
  }
}
