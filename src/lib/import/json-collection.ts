import { createParseLog, openLog, parseRecordTexts, FirstOccurrences, type RecordText } from '../data/record-stream.ts';
import { docFromLine, type CorpusParseOptions } from '../data/corpus.ts';
import { ParseError } from '../data/errors.ts';
import { decodeLine, readLineBatches, type ByteSource } from '../data/lines.ts';
import type { Doc } from '../types.ts';
import { JsonArraySplitter, startsWithArray } from './json-array.ts';

/**
 * Pyserini's JSON collection as one `.json` file: either an array of documents (`[{"id": …, "contents":
 * …}, …]`, possibly over many lines or all on one) or one object per line, decided by the first non-blank
 * character. Records are read with the import's field mapping (`options.fields`) and the corpus rules of
 * data/corpus.ts (string ids, first occurrence wins, the error policy). An error in an array names the
 * line its element starts on and the element's position; a broken array structure (a missing "]", text
 * after the end) fails the file whatever the policy. `.jsonl` files go through `parseCorpus` directly.
 */

const DEFAULT_FILE = 'corpus.json';

/** The file's records, one per array element or per line; bad UTF-8 and structure errors as described. */
async function* recordTexts(source: ByteSource, file: string, options: CorpusParseOptions): AsyncGenerator<RecordText & { index?: number }> {
  let splitter: JsonArraySplitter | undefined;
  let mode: 'unknown' | 'lines' | 'array' = 'unknown';
  const batches = readLineBatches(source, { file, gzip: options.gzip ?? 'auto', ...(options.signal === undefined ? {} : { signal: options.signal }) });
  for await (const batch of batches) {
    for (const raw of batch) {
      let text: string;
      try {
        text = decodeLine(raw, file).text;
      } catch (error) {
        // Inside an array an unreadable line breaks the element it belongs to, and with it the structure.
        if (mode === 'array' || !(error instanceof ParseError)) throw error;
        yield { line: raw.number, error };
        continue;
      }
      if (mode === 'unknown') {
        if (text.trim().replace(/^\uFEFF/, '').length === 0) continue;
        mode = startsWithArray(text) ? 'array' : 'lines';
        if (mode === 'array') splitter = new JsonArraySplitter(file);
      }
      if (splitter === undefined) {
        yield { line: raw.number, text };
        continue;
      }
      for (const element of splitter.push(text, raw.number)) yield element;
    }
  }
  splitter?.finish();
}

/** Streams the documents of a JSON collection file (see the module comment). */
export function parseJsonCollection(source: ByteSource, options: CorpusParseOptions = {}): AsyncGenerator<Doc> {
  const log = openLog(options, DEFAULT_FILE, createParseLog);
  const firsts = options.firsts ?? new FirstOccurrences(log);
  const { fields } = options;
  // The parser takes each item before the next is read, so the element being parsed is the last one handed on.
  let element: number | undefined;
  const texts = (async function* () {
    for await (const item of recordTexts(source, log.file, options)) {
      element = item.index;
      yield item;
    }
  })();
  return parseRecordTexts(texts, options, log, 'documents', (text, line) => {
    let doc: Doc;
    try {
      doc = docFromLine(text, log.file, line, fields);
    } catch (error) {
      if (!(error instanceof ParseError) || element === undefined) throw error;
      throw new ParseError(error.file, error.line, error.kind, `${error.reason} (array element ${element})`, { cause: error });
    }
    return firsts.claim(doc.id, line) ? doc : undefined;
  });
}
