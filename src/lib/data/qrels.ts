import type { Qrels } from '../types.ts';
import { ParseError } from './errors.ts';
import type { ByteSource } from './lines.ts';
import { openLog, parseRecords, type ParseLog, type ParseOptions } from './record-stream.ts';

/**
 * BEIR `qrels/<split>.tsv` (plain or .gz): `query-id<TAB>corpus-id<TAB>score`, one judgment per line,
 * integer grades (0 or negative = judged non-relevant, as in trec_eval).
 *
 * - Header: BEIR files start with `query-id\tcorpus-id\tscore` and BEIR's loader skips line 1 blindly.
 *   Here the first non-blank line is a header when its last field is not a number (so `qid\tdocid\trel`
 *   works too), and files without a header lose no judgment. The header is kept in `log.header`.
 * - Exactly three tab-separated columns; ids are taken verbatim (not trimmed) and must be non-empty;
 *   the score may have surrounding spaces (Python's `int()` allows them) but must be an integer.
 * - The same (query, document) pair twice: the first line wins, later ones go to `log.duplicates`.
 *   trec_eval refuses such a file ("duplicate docs") and BEIR keeps the last; the report lists them.
 */

export interface Judgment {
  queryId: string;
  docId: string;
  grade: number;
}

/** A (query, document) pair judged again on a later line; the first judgment was kept. */
export interface DuplicateJudgment {
  file: string;
  queryId: string;
  docId: string;
  line: number;
  grade: number;
  firstLine: number;
  firstGrade: number;
}

export interface QrelsLog extends ParseLog<DuplicateJudgment> {
  /** The header line that was skipped, or null when the file has none. */
  header: string | null;
}

export function createQrelsLog(): QrelsLog {
  return { file: '', lines: 0, records: 0, skipped: [], duplicates: [], header: null };
}

export type QrelsParseOptions = ParseOptions<QrelsLog>;

export const QRELS_HEADER = 'query-id\tcorpus-id\tscore';

const NUMBER_LIKE = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
const INTEGER = /^[+-]?\d+$/;

/** A header names its columns; a data line ends with a numeric score. */
function looksLikeHeader(text: string): boolean {
  const fields = text.trim().split(/\s+/);
  return !NUMBER_LIKE.test(fields.at(-1) ?? '');
}

function columnsHint(text: string, count: number): string {
  if (count === 1 && /\S\s+\S/.test(text.trim())) return ' (the columns seem to be separated by spaces, not tabs)';
  if (count === 4) return ' (a TREC qrels line "query 0 document grade"? BEIR qrels have no second column)';
  return '';
}

function judgmentFromLine(text: string, file: string, line: number): Judgment {
  const fields = text.split('\t');
  if (fields.length !== 3) {
    const reason = `expected 3 tab-separated columns (query-id, corpus-id, score), found ${fields.length}${columnsHint(text, fields.length)}`;
    throw new ParseError(file, line, 'invalid-columns', reason);
  }
  const [queryId, docId, score] = fields as [string, string, string];
  if (queryId.length === 0) throw new ParseError(file, line, 'invalid-field', 'query-id is empty');
  if (docId.length === 0) throw new ParseError(file, line, 'invalid-field', 'corpus-id is empty');
  const trimmed = score.trim();
  if (trimmed.length === 0) throw new ParseError(file, line, 'invalid-number', 'score is empty');
  const grade = Number(trimmed);
  if (!INTEGER.test(trimmed) || !Number.isSafeInteger(grade)) {
    throw new ParseError(file, line, 'invalid-number', `score ${JSON.stringify(score)} is not an integer grade`);
  }
  // `-0` would print as 0 but compare differently in Object.is; grades are plain integers.
  return { queryId, docId, grade: grade === 0 ? 0 : grade };
}

/** Streams the judgments of a qrels file, the first judgment of each (query, document) pair only. */
export function parseQrels(source: ByteSource, options: QrelsParseOptions = {}): AsyncGenerator<Judgment> {
  const log = openLog(options, 'qrels.tsv', createQrelsLog);
  const seen = new Map<string, Map<string, { line: number; grade: number }>>();
  let first = true;
  return parseRecords(source, options, log, 'judgments', (text, line) => {
    if (first) {
      first = false;
      if (looksLikeHeader(text)) {
        log.header = text;
        return undefined;
      }
    }
    const judgment = judgmentFromLine(text, log.file, line);
    let docs = seen.get(judgment.queryId);
    if (docs === undefined) seen.set(judgment.queryId, (docs = new Map()));
    const earlier = docs.get(judgment.docId);
    if (earlier !== undefined) {
      log.duplicates.push({ file: log.file, ...judgment, line, firstLine: earlier.line, firstGrade: earlier.grade });
      return undefined;
    }
    docs.set(judgment.docId, { line, grade: judgment.grade });
    return judgment;
  });
}

/** Reads a whole qrels file: query id → document id → grade, in file order. */
export async function readQrels(source: ByteSource, options: QrelsParseOptions = {}): Promise<Qrels> {
  const qrels: Qrels = new Map();
  for await (const { queryId, docId, grade } of parseQrels(source, options)) {
    let docs = qrels.get(queryId);
    if (docs === undefined) qrels.set(queryId, (docs = new Map()));
    docs.set(docId, grade);
  }
  return qrels;
}
