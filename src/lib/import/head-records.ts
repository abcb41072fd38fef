import { detectSeparator } from './csv.ts';
import type { ImportFormat } from './import-file.ts';
import { JsonArraySplitter, startsWithArray } from './json-array.ts';

/**
 * The first records of a file, read from the sample classify.ts gets (its first kilobytes, cut at a line
 * end): what the field-mapping guess and the content checks look at. Tolerant by design: a record that does
 * not parse, or is cut off by the end of the sample, is left out; the import itself reports bad lines.
 */

export interface HeadRecords {
  records: Array<Record<string, unknown>>;
  /** A CSV header's column names (records may be fewer than the columns say). */
  columns?: string[];
  /** For `json`: whether the file is one JSON array rather than one object per line. */
  array?: boolean;
}

const MAX_RECORDS = 20;

function objectOf(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function lines(head: string): string[] {
  return head.split('\n').map((line) => line.replace(/\r$/, '').replace(/^\uFEFF/, ''));
}

function jsonLines(head: string): Array<Record<string, unknown>> {
  const records: Array<Record<string, unknown>> = [];
  for (const line of lines(head)) {
    if (records.length >= MAX_RECORDS) break;
    if (line.trim().length === 0) continue;
    const record = objectOf(line);
    if (record !== undefined) records.push(record);
  }
  return records;
}

function jsonArray(head: string): Array<Record<string, unknown>> {
  const splitter = new JsonArraySplitter('sample');
  const records: Array<Record<string, unknown>> = [];
  try {
    for (const [index, line] of lines(head).entries()) {
      for (const element of splitter.push(line, index + 1)) {
        const record = objectOf(element.text);
        if (record !== undefined) records.push(record);
        if (records.length >= MAX_RECORDS) return records;
      }
    }
  } catch {
    // A structure error: what came before it is the sample.
  }
  return records;
}

/** One CSV line split on `separator`, quotes honoured within the line (a sample needs no more). */
function splitCsvLine(line: string, separator: string): string[] {
  const fields: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const char = line[i]!;
    if (quoted) {
      if (char === '"' && line[i + 1] === '"') {
        field += '"';
        i += 1;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"' && field.length === 0) quoted = true;
    else if (char === separator) {
      fields.push(field);
      field = '';
    } else field += char;
  }
  fields.push(field);
  return fields;
}

function csvRecords(head: string): HeadRecords {
  const rows = lines(head).filter((line) => line.trim().length > 0);
  const header = rows[0];
  if (header === undefined) return { records: [] };
  const separator = detectSeparator(header);
  const columns = splitCsvLine(header, separator).map((name) => name.trim());
  const records: Array<Record<string, unknown>> = [];
  for (const row of rows.slice(1, MAX_RECORDS + 1)) {
    const fields = splitCsvLine(row, separator);
    if (fields.length === columns.length) records.push(Object.fromEntries(columns.map((column, index) => [column, fields[index]])));
  }
  return { records, columns };
}

/** The first records of a sampled file of the given format (empty for formats without records). */
export function headRecords(head: string | undefined, format: ImportFormat): HeadRecords {
  if (head === undefined) return { records: [] };
  if (format === 'jsonl') return { records: jsonLines(head) };
  if (format === 'json') return startsWithArray(head) ? { records: jsonArray(head), array: true } : { records: jsonLines(head), array: false };
  if (format === 'csv') return csvRecords(head);
  return { records: [] };
}
