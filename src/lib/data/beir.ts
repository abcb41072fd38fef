import type { Doc, Qrels, Query } from '../types.ts';
import { parseCorpus } from './corpus.ts';
import { ParseError } from './errors.ts';
import type { ByteSource } from './lines.ts';
import { createQrelsLog, readQrels, type QrelsLog } from './qrels.ts';
import { readQueries } from './queries.ts';
import { createParseLog, type ErrorPolicy, type ParseLog, type ParseProgress } from './record-stream.ts';
import { validateCollection, type ValidationReport } from './validate.ts';

/**
 * Loads a whole BEIR dataset (corpus, queries, one qrels file per split) from byte sources, without
 * knowing where the bytes come from: Node file streams (src/cli/dataset.ts), a browser `File.stream()`,
 * a `fetch` body. Files are read one after the other, each streamed once.
 */

/** One file of the dataset. `open` is called once, when the file's turn comes. */
export interface NamedByteSource {
  /** Name used in messages and in the report (a path, or the file's name). */
  file: string;
  /** Size in bytes when known, so progress can be shown as a fraction. */
  size?: number;
  open: () => ByteSource | Promise<ByteSource>;
}

export interface BeirSources {
  corpus: NamedByteSource;
  queries: NamedByteSource;
  /** Split name (e.g. "test") → its qrels file. */
  qrels: ReadonlyMap<string, NamedByteSource>;
}

export interface LoadProgress extends ParseProgress {
  part: 'corpus' | 'queries' | 'qrels';
  /** For qrels: the split being read. */
  split?: string;
  /** The file's size when the source knows it. */
  totalBytes?: number;
}

export interface LoadOptions {
  /** Applies to every file; see `ErrorPolicy`. Skipped lines end up in the report. Default `'throw'`. */
  onError?: ErrorPolicy;
  /** Per file, with `onError: 'skip'`. Default 1000. */
  maxSkipped?: number;
  signal?: AbortSignal;
  onProgress?: (progress: LoadProgress) => void;
}

export interface BeirCollection {
  /** In corpus order, first occurrence of each id. */
  docs: Doc[];
  /** Id → query, in file order. */
  queries: Map<string, Query>;
  /** Split → judgments. */
  qrels: Map<string, Qrels>;
  report: ValidationReport;
}

async function open(source: NamedByteSource, signal: AbortSignal | undefined): Promise<ByteSource> {
  signal?.throwIfAborted();
  try {
    return await source.open();
  } catch (error) {
    signal?.throwIfAborted();
    if (error instanceof ParseError) throw error;
    const message = error instanceof Error ? error.message : String(error);
    throw new ParseError(source.file, 0, 'io', `could not open the file (${message})`, { cause: error });
  }
}

function parseOptions<Log>(source: NamedByteSource, log: Log, options: LoadOptions, part: LoadProgress['part'], split?: string) {
  const { onProgress } = options;
  return {
    file: source.file,
    signal: options.signal,
    maxSkipped: options.maxSkipped,
    onError: options.onError ?? 'throw',
    log,
    onProgress: onProgress && ((p: ParseProgress) => onProgress({ ...p, part, split, totalBytes: source.size })),
  } as const;
}

/** Parses every file, then validates the whole (see `validateCollection`). */
export async function loadBeir(sources: BeirSources, options: LoadOptions = {}): Promise<BeirCollection> {
  const corpusLog: ParseLog = createParseLog();
  const docs: Doc[] = [];
  const corpusSource = await open(sources.corpus, options.signal);
  for await (const doc of parseCorpus(corpusSource, parseOptions(sources.corpus, corpusLog, options, 'corpus'))) docs.push(doc);

  const queriesLog: ParseLog = createParseLog();
  const queriesSource = await open(sources.queries, options.signal);
  const queries = await readQueries(queriesSource, parseOptions(sources.queries, queriesLog, options, 'queries'));

  const qrels = new Map<string, Qrels>();
  const qrelsLogs = new Map<string, QrelsLog>();
  for (const [split, source] of sources.qrels) {
    const log = createQrelsLog();
    qrelsLogs.set(split, log);
    qrels.set(split, await readQrels(await open(source, options.signal), parseOptions(source, log, options, 'qrels', split)));
  }

  const report = validateCollection({ docs, queries, qrels, logs: { corpus: corpusLog, queries: queriesLog, qrels: qrelsLogs } });
  return { docs, queries, qrels, report };
}

/**
 * The queries a split evaluates: those with at least one judgment in `qrels` and present in `queries`,
 * in queries-file order. (BEIR keeps exactly the queries that appear in the split's qrels.)
 */
export function judgedQueries(queries: ReadonlyMap<string, Query>, qrels: Qrels): Query[] {
  return [...queries.values()].filter((query) => qrels.has(query.id));
}
