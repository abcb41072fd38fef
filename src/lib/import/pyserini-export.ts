import { indexedText } from '../bm25/bm25-corpus.ts';
import { folderName } from '../data/folder-name.ts';
import { docFromRow, getCollection, readDocumentBatches } from '../storage/collections.ts';
import type { PlaygroundDatabase } from '../storage/db.ts';
import type { Doc, Query } from '../types.ts';

/**
 * A collection for the tools that scale: Pyserini's JsonCollection, one `{"id", "contents"}` per line, the
 * contents being the text the playground's BM25 indexes (title + " " + text, as Pyserini's BEIR "flat"
 * corpora join them), so `python -m pyserini.index.lucene` and `python -m pyserini.encode` read what the
 * page ranks. Line breaks become spaces: Pyserini's encoder splits `contents` into its `--fields` at line
 * breaks (a document with one would not encode), and the analyzers split at either alike. Queries go the same way (`{"id", "contents"}`, for encoding them), and as the TSV topics
 * (`id<TAB>text`) `pyserini.search` takes.
 */

/** Line breaks as spaces (see above). */
function oneLine(text: string): string {
  return text.replace(/\r\n|[\r\n]/g, ' ');
}

/** One JsonCollection line (with its newline). */
export function pyseriniDocLine(doc: Pick<Doc, 'id' | 'title' | 'text'>): string {
  return `${JSON.stringify({ id: doc.id, contents: oneLine(indexedText(doc)) })}\n`;
}

/** One query as a JsonCollection line, for `pyserini.encode` (with its newline). */
export function pyseriniQueryLine(query: Pick<Query, 'id' | 'text'>): string {
  return `${JSON.stringify({ id: query.id, contents: oneLine(query.text) })}\n`;
}

/** One line of Pyserini's TSV topics; tabs and newlines in the text become spaces. */
export function topicLine(query: Pick<Query, 'id' | 'text'>): string {
  return `${query.id}\t${query.text.replace(/[\t\r\n]+/g, ' ')}\n`;
}

const encoder = new TextEncoder();

/** A stored collection's documents as a Pyserini JSON collection file (bytes, one chunk per batch read). */
export async function collectionPyseriniJsonl(
  db: PlaygroundDatabase,
  collectionId: string,
  options: { signal?: AbortSignal; onDocuments?: (done: number) => void } = {},
): Promise<{ fileName: string; chunks: Uint8Array[]; documents: number }> {
  const collection = await getCollection(db, collectionId);
  if (collection === undefined) throw new Error(`collection "${collectionId}" is not stored in this browser`);
  const chunks: Uint8Array[] = [];
  let documents = 0;
  for await (const rows of readDocumentBatches(db, collectionId, options.signal === undefined ? {} : { signal: options.signal })) {
    chunks.push(encoder.encode(rows.map((row) => pyseriniDocLine(docFromRow(row))).join('')));
    documents += rows.length;
    options.onDocuments?.(documents);
  }
  return { fileName: `${folderName(collection.name)}.pyserini.jsonl`, chunks, documents };
}
