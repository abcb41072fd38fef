import type { Doc } from '../types.ts';
import { readId, readMetadata, readOptionalText, readText, parseJsonObject, type JsonObject } from './jsonl-record.ts';
import type { ByteSource } from './lines.ts';
import { createParseLog, FirstOccurrences, openLog, parseRecordBatches, parseRecords, type LineParser, type ParseLog, type ParseOptions } from './record-stream.ts';

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

export type CorpusParseOptions = ParseOptions<ParseLog> & {
  /** Which fields hold the id, text and title (default BEIR's `_id`, `text`, `title`). */
  fields?: CorpusFields;
  /**
   * Shared when one corpus is read from several files (a folder of `.jsonl` parts), so an id repeated in a
   * later file is a duplicate too. Default: one per parse.
   */
  firsts?: FirstOccurrences;
};

/** Where a record keeps its parts; `title: null`: no title field. */
export interface CorpusFields {
  id: string;
  text: string;
  title: string | null;
}

export const CORPUS_FILE = 'corpus.jsonl';

export function docFromLine(text: string, file: string, line: number, fields?: CorpusFields): Doc {
  return docFromRecord(parseJsonObject(text, file, line), file, line, fields);
}

/** A document from a parsed record (see the module comment; `fields` renames the id, text and title). */
function docFromRecord(record: JsonObject, file: string, line: number, fields?: CorpusFields): Doc {
  const id = readId(record, file, line, fields?.id);
  const title = fields?.title === null ? '' : readOptionalText(record, fields?.title ?? 'title', file, line);
  const body = readText(record, fields?.text ?? 'text', file, line);
  const metadata = readMetadata(record, file, line);
  return metadata === undefined ? { id, title, text: body } : { id, title, text: body, metadata };
}

/**
 * Documents handed on together (a chunk of a corpus file's lines). `utf8Surplus`, when known: what their
 * multi-byte characters add to the UTF-8 size of their lines over the UTF-16 length, so their stored size is
 * counted without measuring every string.
 */
export interface DocumentBatch {
  docs: readonly Doc[];
  utf8Surplus?: number;
}

/** A document stream's item as documents: a batch's, or a single document as a batch of its own. */
export function documentsOf(item: Doc | DocumentBatch): readonly Doc[] {
  return 'docs' in item ? item.docs : [item];
}

/** Streams the documents of a corpus file, first occurrence of each id only. */
export function parseCorpus(source: ByteSource, options: CorpusParseOptions = {}): AsyncGenerator<Doc> {
  return parseRecords(source, options, ...corpusParser(options));
}

/** `parseCorpus` a chunk's documents at a time (the importer's way: one await for many documents). */
export async function* parseCorpusBatches(source: ByteSource, options: CorpusParseOptions = {}): AsyncGenerator<DocumentBatch> {
  for await (const { records, utf8Surplus } of parseRecordBatches(source, options, ...corpusParser(options))) yield { docs: records, utf8Surplus };
}

function corpusParser(options: CorpusParseOptions): [ParseLog, string, LineParser<Doc>] {
  const log = openLog(options, CORPUS_FILE, createParseLog);
  const firsts = options.firsts ?? new FirstOccurrences(log);
  const { fields } = options;
  return [
    log,
    'documents',
    (text, line) => {
      const doc = docFromLine(text, log.file, line, fields);
      return firsts.claim(doc.id, line) ? doc : undefined;
    },
  ];
}
