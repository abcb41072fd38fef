import { Zip, ZipDeflate } from 'fflate';
import type { Doc, Qrels, Query } from '../types.ts';
import { CORPUS_FILE } from './corpus.ts';
import { formatBeirQrels } from './qrels-writers.ts';
import { QUERIES_FILE } from './queries.ts';

/**
 * A collection as a BEIR zip, laid out as BEIR's own downloads are (and as `GenericDataLoader` reads them):
 *
 *     <folder>/corpus.jsonl        {"_id", "title", "text"[, "metadata"]} per line, corpus order
 *     <folder>/queries.jsonl       {"_id", "text"[, "metadata"]} per line, query order
 *     <folder>/qrels/<split>.tsv   query-id<TAB>corpus-id<TAB>score, with BEIR's header line
 *
 * so the playground's importer (and BEIR's loader) read it back as it was. A collection without queries
 * gets no queries.jsonl, and an empty split no qrels file: both readers refuse an empty file, while a
 * missing one is simply "no queries" / "no judgments". Entries are deflated as they stream (fflate's
 * Zip), so the corpus is never held as one string.
 */

export interface BeirZipContent {
  /** The top folder inside the zip (BEIR names it after the dataset). */
  folder: string;
  /** Corpus order; read once, batch by batch. */
  documents: AsyncIterable<readonly Doc[]>;
  queries: Iterable<Query>;
  /** Split name → judgments, in the order the files are written. */
  qrels: ReadonlyMap<string, Qrels>;
}

/** Lines per chunk pushed to the deflater. */
const LINES_PER_CHUNK = 500;

function corpusLine(doc: Doc): string {
  const record: Record<string, unknown> = { _id: doc.id, title: doc.title, text: doc.text };
  if (doc.metadata !== undefined && Object.keys(doc.metadata).length > 0) record['metadata'] = doc.metadata;
  return `${JSON.stringify(record)}\n`;
}

function queryLine(query: Query): string {
  const record: Record<string, unknown> = { _id: query.id, text: query.text };
  if (query.metadata !== undefined && Object.keys(query.metadata).length > 0) record['metadata'] = query.metadata;
  return `${JSON.stringify(record)}\n`;
}

/** Writes the zip; resolves with its bytes in chunks (a Blob's parts). */
export async function writeBeirZip(content: BeirZipContent, options: { signal?: AbortSignal } = {}): Promise<Uint8Array[]> {
  const chunks: Uint8Array[] = [];
  let failure: Error | null = null;
  let finished = false;
  const zip = new Zip((error, data, final) => {
    if (error !== null) failure = error;
    else chunks.push(data);
    if (final) finished = true;
  });
  const encoder = new TextEncoder();

  const add = (path: string) => {
    const entry = new ZipDeflate(path, { level: 6 });
    zip.add(entry);
    return entry;
  };

  const corpus = add(`${content.folder}/${CORPUS_FILE}`);
  for await (const batch of content.documents) {
    options.signal?.throwIfAborted();
    for (let i = 0; i < batch.length; i += LINES_PER_CHUNK) {
      corpus.push(encoder.encode(batch.slice(i, i + LINES_PER_CHUNK).map(corpusLine).join('')));
    }
    if (failure !== null) throw failure;
  }
  corpus.push(new Uint8Array(0), true);

  const queries = [...content.queries];
  if (queries.length > 0) {
    const file = add(`${content.folder}/${QUERIES_FILE}`);
    for (let i = 0; i < queries.length; i += LINES_PER_CHUNK) file.push(encoder.encode(queries.slice(i, i + LINES_PER_CHUNK).map(queryLine).join('')));
    file.push(new Uint8Array(0), true);
  }

  for (const [split, qrels] of content.qrels) {
    let judged = 0;
    for (const docs of qrels.values()) judged += docs.size;
    if (judged === 0) continue;
    const file = add(`${content.folder}/qrels/${split}.tsv`);
    file.push(encoder.encode(formatBeirQrels(qrels)), true);
  }
  zip.end();
  if (failure !== null) throw failure;
  if (!finished) throw new Error('the zip was not finished');
  return chunks;
}
