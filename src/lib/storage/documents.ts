import { Dexie } from 'dexie';
import type { Doc } from '../types.ts';
import type { PlaygroundDatabase } from './db.ts';
import { DocumentChunker, docFromRow, type DocumentChunkRow, type DocumentDirectoryRow, type DocumentRow } from './document-chunks.ts';

/**
 * A collection's documents in IndexedDB (the `documentChunks` and `documentDirectories` tables of db.ts).
 *
 * Documents are stored in chunks of consecutive ords, as columns (ids, titles, texts), cut at
 * `CHUNK_DOCS` documents or `CHUNK_TEXT_UNITS` UTF-16 units of text, whichever comes first. IndexedDB
 * charges per row — a structured clone and a key check on the writing side, a record and its index
 * entries in the browser's backing store — so an import of 51,830 documents writes about 150 rows instead
 * of 51,830, and the readers that go through the whole corpus (the BM25 build, the corpus embedding, the
 * length analysis) read as few. A directory row per collection keeps every id in ord order and each
 * chunk's first ord, for looking documents up by id (Explore shows the hits of a ranking); each realm keeps
 * the directory it read while the collection stays the same.
 *
 * The chunk size balances writes and whole-corpus reads, whose cost in Chromium is mostly per row, against
 * lookups, which read each chunk they touch whole (DESIGN.md, "Decisions"). Whole-corpus readers read 4
 * chunks per request; lookups keep the chunks they read
 * (`CACHED_CHUNKS`), so the hits of the next query often cost nothing, and a collection of SciFact's size
 * stays in memory whole. Readers never depend on the chunk size: batches are cut to what they ask for, and
 * collections stored in smaller chunks read as before.
 */

/** Documents of consecutive ords as columns: ords `start .. start + ids.length - 1`. */
export interface DocumentColumns {
  start: number;
  ids: string[];
  titles: string[];
  texts: string[];
  /** Each document's metadata (null: none); absent when none has any. */
  metadata?: Array<Record<string, unknown> | null>;
}


function chunkRange(db: PlaygroundDatabase, collectionId: string, from: number) {
  return db.documentChunks.where('[collectionId+start]').between([collectionId, from], [collectionId, Infinity], true, false);
}

/** The chunk holding `ord` (the last one starting at or before it), or undefined. */
async function chunkAt(db: PlaygroundDatabase, collectionId: string, ord: number): Promise<DocumentChunkRow | undefined> {
  return db.documentChunks.where('[collectionId+start]').between([collectionId, -Infinity], [collectionId, ord], true, true).last();
}

/** Chunks read per request: one round trip to the database for about 2 MB of text. */
const CHUNKS_PER_READ = 4;

/**
 * The collection's chunks in ord order from the one holding `fromOrd`, read `CHUNKS_PER_READ` at a time; the
 * next group is read while the caller works on the current one (IndexedDB reads on another thread, and a
 * round trip there takes long on a busy machine).
 */
async function* chunksFrom(db: PlaygroundDatabase, collectionId: string, fromOrd: number, signal: AbortSignal | undefined): AsyncGenerator<DocumentChunkRow> {
  signal?.throwIfAborted();
  const group = (from: number) => chunkRange(db, collectionId, from).limit(CHUNKS_PER_READ).toArray();
  let next: Promise<DocumentChunkRow[]> = chunkAt(db, collectionId, fromOrd).then(async (first) => {
    const rest = await group(first === undefined ? fromOrd : first.start + first.ids.length);
    return first === undefined ? rest : [first, ...rest];
  });
  for (;;) {
    const chunks = await next;
    signal?.throwIfAborted();
    if (chunks.length === 0) return;
    const last = chunks[chunks.length - 1]!;
    next = group(last.start + last.ids.length);
    // An unread prefetch must not surface as an unhandled rejection when the caller stops here.
    next.catch(() => undefined);
    yield* chunks;
  }
}

function sliceColumns(chunk: DocumentChunkRow, from: number, to: number): DocumentColumns {
  const whole = from === 0 && to === chunk.ids.length;
  const columns: DocumentColumns = {
    start: chunk.start + from,
    ids: whole ? chunk.ids : chunk.ids.slice(from, to),
    titles: whole ? chunk.titles : chunk.titles.slice(from, to),
    texts: whole ? chunk.texts : chunk.texts.slice(from, to),
  };
  if (chunk.metadata !== undefined) columns.metadata = whole ? chunk.metadata : chunk.metadata.slice(from, to);
  return columns;
}

function concatColumns(parts: readonly DocumentColumns[]): DocumentColumns {
  if (parts.length === 1) return parts[0]!;
  const columns: DocumentColumns = { start: parts[0]!.start, ids: [], titles: [], texts: [] };
  const withMetadata = parts.some((part) => part.metadata !== undefined);
  if (withMetadata) columns.metadata = [];
  for (const part of parts) {
    columns.ids.push(...part.ids);
    columns.titles.push(...part.titles);
    columns.texts.push(...part.texts);
    if (withMetadata) columns.metadata!.push(...(part.metadata ?? new Array<null>(part.ids.length).fill(null)));
  }
  return columns;
}

export interface ReadDocumentsOptions {
  /** Documents per batch (default: each stored chunk as it is). */
  batchSize?: number;
  signal?: AbortSignal;
  /** First ord to read (default 0). */
  fromOrd?: number;
}

/**
 * The documents in corpus order as columns, in batches of `batchSize` (the last one shorter), never
 * holding more than a batch and a chunk: the BM25 build and the corpus embedding read through this.
 */
export async function* readDocumentColumns(db: PlaygroundDatabase, collectionId: string, options: ReadDocumentsOptions = {}): AsyncGenerator<DocumentColumns> {
  const fromOrd = options.fromOrd ?? 0;
  const batchSize = options.batchSize ?? Infinity;
  let parts: DocumentColumns[] = [];
  let pending = 0;
  for await (const chunk of chunksFrom(db, collectionId, fromOrd, options.signal)) {
    let at = Math.max(0, fromOrd - chunk.start);
    if (batchSize === Infinity) {
      if (at < chunk.ids.length) yield sliceColumns(chunk, at, chunk.ids.length);
      continue;
    }
    while (at < chunk.ids.length) {
      const take = Math.min(batchSize - pending, chunk.ids.length - at);
      parts.push(sliceColumns(chunk, at, at + take));
      pending += take;
      at += take;
      if (pending === batchSize) {
        yield concatColumns(parts);
        parts = [];
        pending = 0;
      }
    }
  }
  if (pending > 0) yield concatColumns(parts);
}

/** The documents of `columns` as rows. */
function columnRows(collectionId: string, columns: DocumentColumns): DocumentRow[] {
  const rows: DocumentRow[] = new Array<DocumentRow>(columns.ids.length);
  for (let i = 0; i < columns.ids.length; i++) {
    const row: DocumentRow = { collectionId, ord: columns.start + i, id: columns.ids[i]!, title: columns.titles[i]!, text: columns.texts[i]! };
    const metadata = columns.metadata?.[i];
    if (metadata != null) row.metadata = metadata;
    rows[i] = row;
  }
  return rows;
}

/**
 * The documents in corpus order (`ord`), in batches of `batchSize` (default 1000), so a large corpus is
 * never held whole.
 */
export async function* readDocumentBatches(db: PlaygroundDatabase, collectionId: string, options: ReadDocumentsOptions = {}): AsyncGenerator<DocumentRow[]> {
  for await (const columns of readDocumentColumns(db, collectionId, { ...options, batchSize: options.batchSize ?? 1000 })) yield columnRows(collectionId, columns);
}

/** Every document in corpus order; index i is the document with ord i. */
export async function loadDocuments(db: PlaygroundDatabase, collectionId: string): Promise<Doc[]> {
  const docs: Doc[] = [];
  for await (const columns of readDocumentColumns(db, collectionId)) for (const row of columnRows(collectionId, columns)) docs.push(docFromRow(row));
  return docs;
}

/** A directory read in this realm, with its ids' ords. */
interface KnownDirectory {
  row: DocumentDirectoryRow;
  ordOf: Map<string, number>;
}

const directories = new WeakMap<PlaygroundDatabase, Map<string, KnownDirectory>>();

/** Chunks kept by `getDocuments` in this realm, least recently used first (about 8 MB of text). */
const CACHED_CHUNKS = 16;
const cachedChunks = new WeakMap<PlaygroundDatabase, Map<string, DocumentChunkRow>>();

function chunkCache(db: PlaygroundDatabase): Map<string, DocumentChunkRow> {
  let cache = cachedChunks.get(db);
  if (cache === undefined) cachedChunks.set(db, (cache = new Map()));
  return cache;
}

function knownDirectories(db: PlaygroundDatabase): Map<string, KnownDirectory> {
  let known = directories.get(db);
  if (known === undefined) directories.set(db, (known = new Map()));
  return known;
}

async function collectionCreatedAt(db: PlaygroundDatabase, collectionId: string): Promise<number | null> {
  return (await db.collections.get(collectionId))?.createdAt ?? null;
}

/**
 * The collection's directory, from this realm's memory while the collection row is the one it was written
 * for (a collection deleted and imported again under the same id has another `createdAt`).
 */
async function directoryOf(db: PlaygroundDatabase, collectionId: string): Promise<KnownDirectory | undefined> {
  const known = knownDirectories(db);
  const createdAt = await collectionCreatedAt(db, collectionId);
  const cached = known.get(collectionId);
  if (cached !== undefined && cached.row.collectionCreatedAt === createdAt) return cached;
  const row = await db.documentDirectories.get(collectionId);
  if (row === undefined) {
    known.delete(collectionId);
    return undefined;
  }
  const ordOf = new Map<string, number>();
  row.ids.forEach((id, ord) => ordOf.set(id, ord));
  const directory = { row, ordOf };
  if (row.collectionCreatedAt === createdAt) known.set(collectionId, directory);
  return directory;
}

/** Index of the chunk holding `ord` in ascending `starts`. */
function chunkIndex(starts: readonly number[], ord: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if (starts[mid]! <= ord) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** Documents by id (undefined where the id is unknown), in the order asked; reads only the chunks that hold them. */
export async function getDocuments(db: PlaygroundDatabase, collectionId: string, docIds: readonly string[]): Promise<Array<Doc | undefined>> {
  const directory = await directoryOf(db, collectionId);
  if (directory === undefined) return docIds.map(() => undefined);
  const { ordOf, row } = directory;
  const starts = new Set<number>();
  for (const id of docIds) {
    const ord = ordOf.get(id);
    if (ord !== undefined) starts.add(row.starts[chunkIndex(row.starts, ord)]!);
  }
  // Chunks are named by the collection row they belong to, so a collection imported again is read afresh.
  const cache = chunkCache(db);
  const cacheKey = (start: number) => `${collectionId}\u0000${row.collectionCreatedAt ?? ''}\u0000${start}`;
  const byStart = new Map<number, DocumentChunkRow>();
  const missing: number[] = [];
  for (const start of starts) {
    const cached = cache.get(cacheKey(start));
    if (cached === undefined) missing.push(start);
    else {
      cache.delete(cacheKey(start));
      cache.set(cacheKey(start), cached);
      byStart.set(start, cached);
    }
  }
  if (missing.length > 0) {
    const chunks = await db.documentChunks.bulkGet(missing.map((start) => [collectionId, start]));
    for (const chunk of chunks) {
      if (chunk === undefined) continue;
      byStart.set(chunk.start, chunk);
      if (row.collectionCreatedAt === null) continue; // no collection row to tell a later import apart
      cache.set(cacheKey(chunk.start), chunk);
      while (cache.size > CACHED_CHUNKS) cache.delete(cache.keys().next().value!);
    }
  }
  return docIds.map((id) => {
    const ord = ordOf.get(id);
    if (ord === undefined) return undefined;
    const chunk = byStart.get(row.starts[chunkIndex(row.starts, ord)]!);
    const at = chunk === undefined ? -1 : ord - chunk.start;
    if (chunk === undefined || chunk.ids[at] !== id) return undefined;
    const metadata = chunk.metadata?.[at];
    return metadata == null ? { id, title: chunk.titles[at]!, text: chunk.texts[at]! } : { id, title: chunk.titles[at]!, text: chunk.texts[at]!, metadata };
  });
}

/** How many documents the collection has stored (0 when none). */
export async function countDocuments(db: PlaygroundDatabase, collectionId: string): Promise<number> {
  const directory = await directoryOf(db, collectionId);
  return directory?.row.ids.length ?? 0;
}

/** Writes the directory of a collection whose chunks are written (ids in ord order, chunk starts ascending). */
export async function writeDirectory(db: PlaygroundDatabase, collectionId: string, ids: string[], starts: number[]): Promise<void> {
  knownDirectories(db).delete(collectionId);
  await db.documentDirectories.put({ collectionId, ids, starts, collectionCreatedAt: await collectionCreatedAt(db, collectionId) });
}

/** Deletes a collection's documents (call inside a transaction over both document tables for atomicity). */
export async function deleteDocuments(db: PlaygroundDatabase, collectionId: string): Promise<void> {
  knownDirectories(db).delete(collectionId);
  await db.documentChunks.where('[collectionId+start]').between([collectionId, Dexie.minKey], [collectionId, Dexie.maxKey], true, true).delete();
  await db.documentDirectories.delete(collectionId);
}

/**
 * Stores `docs` as the whole corpus of `collectionId` (ords 0 … n-1), replacing what was there: for tests,
 * benchmarks and self-tests that set up a collection without an import.
 */
export async function putDocuments(db: PlaygroundDatabase, collectionId: string, docs: readonly Doc[]): Promise<void> {
  await db.transaction('rw', [db.collections, db.documentChunks, db.documentDirectories], async () => {
    await deleteDocuments(db, collectionId);
    const chunker = new DocumentChunker(collectionId);
    const rows: DocumentChunkRow[] = [];
    for (const doc of docs) {
      const row = chunker.add(doc);
      if (row !== undefined) rows.push(row);
    }
    const last = chunker.flush();
    if (last !== undefined) rows.push(last);
    await db.documentChunks.bulkAdd(rows);
    await writeDirectory(db, collectionId, docs.map((doc) => doc.id), chunker.starts);
  });
}
