import type { Query } from '../types.ts';
import { readId, readMetadata, readText, parseJsonObject } from './jsonl-record.ts';
import type { ByteSource } from './lines.ts';
import { createParseLog, FirstOccurrences, openLog, parseRecords, type ParseLog, type ParseOptions } from './record-stream.ts';

/**
 * BEIR `queries.jsonl` (plain or .gz): one `{"_id", "text", "metadata"?}` object per line. Same rules as
 * the corpus: `_id` a non-empty string, `text` a string, `metadata` kept when non-empty, first occurrence
 * of a duplicate id wins and later ones go to `log.duplicates`.
 */

export type QueriesParseOptions = ParseOptions<ParseLog>;

export const QUERIES_FILE = 'queries.jsonl';

function queryFromLine(text: string, file: string, line: number): Query {
  const record = parseJsonObject(text, file, line);
  const id = readId(record, file, line);
  const body = readText(record, 'text', file, line);
  const metadata = readMetadata(record, file, line);
  return metadata === undefined ? { id, text: body } : { id, text: body, metadata };
}

/** Streams the queries of a queries file, first occurrence of each id only. */
export function parseQueries(source: ByteSource, options: QueriesParseOptions = {}): AsyncGenerator<Query> {
  const log = openLog(options, QUERIES_FILE, createParseLog);
  const firsts = new FirstOccurrences(log);
  return parseRecords(source, options, log, 'queries', (text, line) => {
    const query = queryFromLine(text, log.file, line);
    return firsts.claim(query.id, line) ? query : undefined;
  });
}

/** Reads a whole queries file into a map, id → query, in file order. */
export async function readQueries(source: ByteSource, options: QueriesParseOptions = {}): Promise<Map<string, Query>> {
  const queries = new Map<string, Query>();
  for await (const query of parseQueries(source, options)) queries.set(query.id, query);
  return queries;
}
