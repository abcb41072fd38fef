import type { Transaction } from 'dexie';
import type { Doc } from '../types.ts';

/**
 * The rows a collection's documents are stored in (the `documentChunks` and `documentDirectories` tables of
 * db.ts) and how a stream of documents is cut into them; documents.ts reads and writes them.
 */

/** A document as readers see it: its position in the corpus (`ord`) and its fields. */
export interface DocumentRow {
  collectionId: string;
  /** Position in the corpus file: the internal document number every index refers to. */
  ord: number;
  id: string;
  title: string;
  text: string;
  metadata?: Record<string, unknown>;
}

/**
 * Consecutive documents of a collection, stored as columns (ords `start .. start + ids.length - 1`). One row
 * holds a few hundred documents: IndexedDB's cost is per row (a structured clone, a key check, index
 * entries), so a 50,000-document corpus is a few hundred writes and reads instead of 50,000.
 */
export interface DocumentChunkRow {
  collectionId: string;
  /** Ord of the chunk's first document. */
  start: number;
  ids: string[];
  titles: string[];
  texts: string[];
  /** Each document's metadata (null: none); absent when no document of the chunk has any. */
  metadata?: Array<Record<string, unknown> | null>;
}

/** Every document id of a collection in ord order, and the first ord of each chunk (for lookups by id). */
export interface DocumentDirectoryRow {
  collectionId: string;
  ids: string[];
  /** `start` of each chunk, ascending. */
  starts: number[];
  /** The collection row's `createdAt` when the directory was written: an in-memory copy is valid while it matches. */
  collectionCreatedAt: number | null;
}

export const CHUNK_DOCS = 512;
/** ≈ 512 kB of ASCII text; a chunk always takes at least one document, however long. */
export const CHUNK_TEXT_UNITS = 512 * 1024;

/** Cuts a stream of documents into chunk rows of a collection, ords counted from `start`. */
export class DocumentChunker {
  private ids: string[] = [];
  private titles: string[] = [];
  private texts: string[] = [];
  private metadata: Array<Record<string, unknown> | null> | undefined;
  private units = 0;
  private start: number;
  /** First ord of every chunk made so far. */
  readonly starts: number[] = [];

  constructor(
    private readonly collectionId: string,
    start = 0,
  ) {
    this.start = start;
  }

  /** Ord of the next document added. */
  get nextOrd(): number {
    return this.start + this.ids.length;
  }

  /** Adds a document; returns the chunk it completed, if it completed one. */
  add(doc: Doc): DocumentChunkRow | undefined {
    if (doc.metadata !== undefined) {
      this.metadata ??= new Array<Record<string, unknown> | null>(this.ids.length).fill(null);
      this.metadata.push(doc.metadata);
    } else this.metadata?.push(null);
    this.ids.push(doc.id);
    this.titles.push(doc.title);
    this.texts.push(doc.text);
    this.units += doc.title.length + doc.text.length;
    return this.ids.length >= CHUNK_DOCS || this.units >= CHUNK_TEXT_UNITS ? this.flush() : undefined;
  }

  /** The chunk of the documents added since the last one (undefined when there are none). */
  flush(): DocumentChunkRow | undefined {
    if (this.ids.length === 0) return undefined;
    const row: DocumentChunkRow = { collectionId: this.collectionId, start: this.start, ids: this.ids, titles: this.titles, texts: this.texts };
    if (this.metadata !== undefined) row.metadata = this.metadata;
    this.starts.push(this.start);
    this.start += this.ids.length;
    this.ids = [];
    this.titles = [];
    this.texts = [];
    this.metadata = undefined;
    this.units = 0;
    return row;
  }
}

export function docFromRow(row: DocumentRow): Doc {
  return row.metadata === undefined
    ? { id: row.id, title: row.title, text: row.text }
    : { id: row.id, title: row.title, text: row.text, metadata: row.metadata };
}

/**
 * The version-3 upgrade (db.ts): each collection's one-row-per-document `documents` become chunks and a
 * directory, in ord order, within the upgrade's transaction.
 */
export async function chunkDocumentRows(transaction: Transaction): Promise<void> {
  const documents = transaction.table<DocumentRow, [string, number]>('documents');
  const chunks = transaction.table<DocumentChunkRow, [string, number]>('documentChunks');
  const directories = transaction.table<DocumentDirectoryRow, string>('documentDirectories');
  const collections = transaction.table<{ id: string; createdAt: number }, string>('collections');
  const collectionIds = [...new Set((await documents.orderBy('collectionId').uniqueKeys()) as string[])];
  for (const collectionId of collectionIds) {
    const chunker = new DocumentChunker(collectionId);
    const ids: string[] = [];
    let nextOrd = 0;
    for (;;) {
      const rows = await documents.where('[collectionId+ord]').between([collectionId, nextOrd], [collectionId, Infinity], true, false).limit(1000).toArray();
      if (rows.length === 0) break;
      const made: DocumentChunkRow[] = [];
      for (const row of rows) {
        // Ords were positions in the corpus with no gaps; a gap (never written by an import) closes up here.
        const row2 = chunker.add(docFromRow(row));
        ids.push(row.id);
        if (row2 !== undefined) made.push(row2);
      }
      if (made.length > 0) await chunks.bulkAdd(made);
      nextOrd = rows[rows.length - 1]!.ord + 1;
    }
    const last = chunker.flush();
    if (last !== undefined) await chunks.add(last);
    const createdAt = (await collections.get(collectionId))?.createdAt ?? null;
    await directories.put({ collectionId, ids, starts: chunker.starts, collectionCreatedAt: createdAt });
  }
}
