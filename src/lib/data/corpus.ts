import type { Doc } from '../types.ts';
import { readId, readMetadata, readOptionalText, readText, parseJsonObject } from './jsonl-record.ts';
import type { ByteSource } from './lines.ts';
import { createParseLog, FirstOccurrences, openLog, parseRecords, type ParseLog, type ParseOptions } from './record-stream.ts';

/**
 * BEIR `corpus.jsonl` (plain or .gz): one `{"_id", "title", "text", "metadata"?}` object per line.
 *
 * - `_id`: required non-empty string; a numeric id is rejected (see `readId` for why).
 * - `text`: required string, may be empty. `title`: optional string; absent or null reads as "".
 * - `metadata`: optional object, kept only when non-empty. Other fields are ignored.
 * - Duplicate `_id`: the first line wins; later ones are dropped and listed in `log.duplicates` (BEIR's
 *   own Python loader silently keeps the last, so a corpus with duplicates differs there and the
 *   validation report says so).
 */

export type CorpusParseOptions = ParseOptions<ParseLog>;

export const CORPUS_FILE = 'corpus.jsonl';

export function docFromLine(text: string, file: string, line: number): Doc {
  const record = parseJsonObject(text, file, line);
  const id = readId(record, file, line);
  const title = readOptionalText(record, 'title', file, line);
  const body = readText(record, 'text', file, line);
  const metadata = readMetadata(record, file, line);
  return metadata === undefined ? { id, title, text: body } : { id, title, text: body, metadata };
}

/** Streams the documents of a corpus file, first occurrence of each id only. */
export function parseCorpus(source: ByteSource, options: CorpusParseOptions = {}): AsyncGenerator<Doc> {
  const log = openLog(options, CORPUS_FILE, createParseLog);
  const firsts = new FirstOccurrences(log);
  return parseRecords(source, options, log, 'documents', (text, line) => {
    const doc = docFromLine(text, log.file, line);
    return firsts.claim(doc.id, line) ? doc : undefined;
  });
}
