import type { FileRole } from '../catalog/catalog.ts';
import { ParseError } from '../data/errors.ts';
import { readLines, type ByteSource } from '../data/lines.ts';
import type { FieldMapping } from './field-mapping.ts';
import { tableToLines, type TableRow } from './tabular.ts';

/**
 * CSV files (RFC 4180: fields separated by commas, or semicolons or tabs when the header uses those;
 * double-quoted fields may hold separators, doubled quotes and line breaks), turned into BEIR lines by
 * tabular.ts. Lines come from `readLines`, so gzip, a BOM, CRLF and invalid UTF-8 are handled as for every
 * other file. Corpus and queries files need a header naming their columns; a qrels file may go without
 * one (three columns: query id, document id, grade).
 */

interface CsvRecord {
  /** The line the record starts on. */
  line: number;
  fields: string[];
}

const SEPARATORS = [',', ';', '\t'] as const;

/** The separator used most often outside quotes on the first line. */
export function detectSeparator(text: string): string {
  let best: string = ',';
  let bestCount = 0;
  for (const separator of SEPARATORS) {
    let count = 0;
    let quoted = false;
    for (const char of text) {
      if (char === '"') quoted = !quoted;
      else if (char === separator && !quoted) count += 1;
    }
    if (count > bestCount) {
      best = separator;
      bestCount = count;
    }
  }
  return best;
}

/**
 * Splits one record. `more` supplies the next line when a quoted field runs past the end of a line;
 * returns the fields.
 */
async function splitRecord(first: string, separator: string, more: () => Promise<string | undefined>, file: string, line: number): Promise<string[]> {
  const fields: string[] = [];
  let field = '';
  let text = first;
  let i = 0;
  let quoted = false;
  let wasQuoted = false;
  for (;;) {
    if (i >= text.length) {
      if (!quoted) break;
      const next = await more();
      if (next === undefined) throw new ParseError(file, line, 'invalid-field', 'a quoted field is not closed before the end of the file');
      field += '\n';
      text = next;
      i = 0;
      continue;
    }
    const char = text[i]!;
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        field += '"';
        i += 2;
        continue;
      }
      if (char === '"') quoted = false;
      else field += char;
      i += 1;
      continue;
    }
    if (char === '"' && field.length === 0 && !wasQuoted) {
      quoted = true;
      wasQuoted = true;
    } else if (char === separator) {
      fields.push(field);
      field = '';
      wasQuoted = false;
    } else {
      field += char;
    }
    i += 1;
  }
  fields.push(field);
  return fields;
}

async function* csvRecords(source: ByteSource, file: string, signal: AbortSignal | undefined): AsyncGenerator<CsvRecord & { separator: string }> {
  const lines = readLines(source, { file, signal });
  let separator: string | undefined;
  const more = async () => {
    const next = await lines.next();
    return next.done ? undefined : next.value.text;
  };
  for (;;) {
    const next = await lines.next();
    if (next.done) return;
    const { number, text } = next.value;
    if (text.trim().length === 0) continue;
    separator ??= detectSeparator(text);
    yield { line: number, separator, fields: await splitRecord(text, separator, more, file, number) };
  }
}

const NUMBER_LIKE = /^\s*[+-]?\d+(?:\.\d*)?\s*$/;

/** A CSV file as the bytes of BEIR lines (corpus/queries JSON lines, or qrels TSV lines). */
export async function* csvToLines(
  source: ByteSource,
  options: {
    role: FileRole;
    file: string;
    signal?: AbortSignal;
    /** See `TableToLinesOptions.skipRow`. */
    skipRow?: (error: ParseError) => void;
    /** See `TableToLinesOptions.fields`. */
    fields?: FieldMapping;
  },
): AsyncGenerator<Uint8Array> {
  const { role, file, signal, skipRow, fields } = options;
  const records = csvRecords(source, file, signal);
  const first = await records.next();
  if (first.done) return; // the parser reports the empty file
  const header = first.value;
  const headless = role === 'qrels' && header.fields.length === 3 && NUMBER_LIKE.test(header.fields[2]!);
  const columns = headless ? ['query-id', 'corpus-id', 'score'] : header.fields.map((name) => name.trim());
  const separatorName = header.separator === '\t' ? 'tab' : header.separator === ';' ? 'semicolon' : 'comma';
  const toRow = ({ line, fields }: CsvRecord): TableRow | undefined => {
    if (fields.length !== columns.length) {
      const error = new ParseError(file, line, 'invalid-columns', `expected ${columns.length} ${separatorName}-separated fields (${columns.join(', ')}), found ${fields.length}`);
      if (skipRow === undefined) throw error;
      skipRow(error);
      return undefined;
    }
    return { line, record: Object.fromEntries(columns.map((column, index) => [column, fields[index]])) };
  };
  async function* rows(): AsyncGenerator<TableRow> {
    const first = headless ? toRow(header) : undefined;
    if (first !== undefined) yield first;
    for await (const record of records) {
      const row = toRow(record);
      if (row !== undefined) yield row;
    }
  }
  yield* tableToLines(rows(), { role, columns, file, headerLine: headless ? 0 : header.line, ...(skipRow === undefined ? {} : { skipRow }), ...(fields === undefined ? {} : { fields }) });
}
