import type { FileRole } from '../catalog/catalog.ts';
import { ParseError } from '../data/errors.ts';
import { FIELD_NAMES, type FieldMapping } from './field-mapping.ts';

/**
 * Tables (parquet files, CSV files) re-expressed as BEIR lines, so that one set of parsers decides what a
 * valid record is, and the same messages, duplicate rules and validation report apply to every format:
 * corpus and queries rows become `corpus.jsonl` / `queries.jsonl` lines, judgments become `qrels.tsv`
 * lines. Each row keeps its line number: the row of line L is emitted as line L of the text (blank lines
 * pad the gaps, which the parsers skip), so an error names the CSV line, or for parquet the row (1-based).
 *
 * Column names accepted (first match wins), covering BEIR's own and the common variants on the hub:
 */
const COLUMN_NAMES = {
  corpusId: FIELD_NAMES.id,
  queryId: ['_id', 'id', 'query_id', 'query-id', 'qid'],
  title: ['title'],
  text: FIELD_NAMES.text,
  queryText: ['text', 'query'],
  qrelsQuery: ['query-id', 'query_id', 'qid', 'query'],
  qrelsDoc: ['corpus-id', 'corpus_id', 'doc_id', 'docid', 'doc-id'],
  qrelsScore: ['score', 'relevance', 'grade', 'label', 'rel'],
} as const;

/** One row of a table, with the line (CSV) or 1-based row number (parquet) it came from. */
export interface TableRow {
  line: number;
  record: Record<string, unknown>;
}

function pick(columns: readonly string[], names: readonly string[]): string | undefined {
  const lower = new Map(columns.map((column) => [column.toLowerCase(), column]));
  for (const name of names) {
    const found = lower.get(name);
    if (found !== undefined) return found;
  }
  return undefined;
}

function need(columns: readonly string[], names: readonly string[], what: string, file: string, line: number): string {
  const found = pick(columns, names);
  if (found === undefined) {
    throw new ParseError(file, line, 'missing-field', `no ${what} column (looked for ${names.join(', ')}; found ${columns.join(', ') || 'none'})`);
  }
  return found;
}

/** A cell as text: typed integers (parquet int64 arrives as bigint) become their decimal digits. */
function cellText(value: unknown): string | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value === 'string') return value;
  if (typeof value === 'bigint' || typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

const NUMBER_LIKE = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

type LineMaker = (record: Record<string, unknown>, line: number) => string;

function jsonLineMaker(role: 'corpus' | 'queries', columns: readonly string[], file: string, headerLine: number, fields: FieldMapping | undefined): LineMaker {
  // A mapping chosen in the import preview names the columns exactly; otherwise the conventions above.
  const mapped = role === 'corpus' ? fields : undefined;
  const id = need(columns, mapped === undefined ? (role === 'corpus' ? COLUMN_NAMES.corpusId : COLUMN_NAMES.queryId) : [mapped.id.toLowerCase()], 'id', file, headerLine);
  const text = need(columns, mapped === undefined ? (role === 'corpus' ? COLUMN_NAMES.text : COLUMN_NAMES.queryText) : [mapped.text.toLowerCase()], 'text', file, headerLine);
  const title = role !== 'corpus' ? undefined : mapped === undefined ? pick(columns, COLUMN_NAMES.title) : mapped.title === null ? undefined : need(columns, [mapped.title.toLowerCase()], 'title', file, headerLine);
  return (record) => {
    const line: Record<string, string> = {};
    const idText = cellText(record[id]);
    if (idText !== undefined) line._id = idText;
    if (title !== undefined) line.title = cellText(record[title]) ?? '';
    const body = cellText(record[text]);
    if (body !== undefined) line.text = body;
    return JSON.stringify(line);
  };
}

function qrelsLineMaker(columns: readonly string[], file: string, headerLine: number): LineMaker {
  const query = need(columns, COLUMN_NAMES.qrelsQuery, 'query id', file, headerLine);
  const doc = need(columns, COLUMN_NAMES.qrelsDoc, 'document id', file, headerLine);
  const score = pick(columns, COLUMN_NAMES.qrelsScore);
  return (record, line) => {
    const fields = [cellText(record[query]) ?? '', cellText(record[doc]) ?? ''];
    for (const [index, field] of fields.entries()) {
      if (/[\t\r\n]/.test(field)) {
        throw new ParseError(file, line, 'invalid-field', `${index === 0 ? 'query-id' : 'corpus-id'} contains a tab or a line break`);
      }
    }
    // No score column (NanoBEIR): every listed pair is relevant.
    const grade = score === undefined ? '1' : (cellText(record[score]) ?? '').trim();
    // Checked here, not left to the qrels parser: a first line whose score is not a number would look
    // like a header to it and be dropped, and tables have no header line in their data.
    if (!NUMBER_LIKE.test(grade)) throw new ParseError(file, line, 'invalid-number', `score ${JSON.stringify(grade)} is not a number`);
    return `${fields[0]}\t${fields[1]}\t${grade}`;
  };
}

export interface TableToLinesOptions {
  role: FileRole;
  /** The table's column names (CSV header, parquet schema). */
  columns: readonly string[];
  file: string;
  /** Where the column names were read (CSV: the header's line; parquet: 0). */
  headerLine: number;
  /**
   * Corpus tables: the columns holding the id, text and title (the import preview's field mapping);
   * absent: found by the names in `COLUMN_NAMES`.
   */
  fields?: FieldMapping;
  /**
   * Under the parsers' `onError: 'skip'`: takes a row that cannot become a line (its error names the row),
   * which is then left out like a skipped line. Absent: the error is thrown. Problems with the table as a
   * whole (a missing column) are always thrown.
   */
  skipRow?: (error: ParseError) => void;
}

/** The rows of a table as the bytes of BEIR lines, line numbers kept (see the module comment). */
export async function* tableToLines(rows: AsyncIterable<TableRow>, options: TableToLinesOptions): AsyncGenerator<Uint8Array> {
  const { role, columns, file, headerLine, skipRow, fields } = options;
  const make = role === 'qrels' ? qrelsLineMaker(columns, file, headerLine) : jsonLineMaker(role, columns, file, headerLine, fields);
  const encoder = new TextEncoder();
  let emitted = 0;
  let pending: string[] = [];
  let pendingLength = 0;
  for await (const { line, record } of rows) {
    while (emitted < line - 1) {
      pending.push('');
      emitted += 1;
    }
    let text: string;
    try {
      text = make(record, line);
    } catch (error) {
      if (skipRow === undefined || !(error instanceof ParseError)) throw error;
      skipRow(error);
      text = '';
    }
    pending.push(text);
    pendingLength += text.length;
    emitted += 1;
    if (pendingLength >= 64 * 1024) {
      yield encoder.encode(pending.join('\n') + '\n');
      pending = [];
      pendingLength = 0;
    }
  }
  if (pending.length > 0) yield encoder.encode(pending.join('\n') + '\n');
}
