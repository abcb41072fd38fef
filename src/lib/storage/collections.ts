import { Dexie, type Table } from 'dexie';
import { LanguageSample, type Language } from '../analysis/language.ts';
import { packedRunBytes } from '../data/packed-run.ts';
import type { Judgment } from '../data/qrels.ts';
import { documentsOf, type DocumentBatch } from '../data/corpus.ts';
import { validateCollection, type CollectionToValidate, type ValidationReport } from '../data/validate.ts';
import type { Doc, Qrels, Query } from '../types.ts';
import type { CollectionRow, PlaygroundDatabase, QrelsRow, QueryRow } from './db.ts';
import { DocumentChunker, type DocumentChunkRow } from './document-chunks.ts';
import { deleteDocuments, loadDocuments, writeDirectory } from './documents.ts';

export { docFromRow } from './document-chunks.ts';
export { getDocuments, loadDocuments, readDocumentBatches } from './documents.ts';
import { embeddingSetBytes } from './embedding-sets.ts';
import { Fingerprint } from '../data/fingerprint.ts';
import { collectionGraphPrefix, deleteGraphFiles } from './hnsw-files.ts';
import { defaultImportLocks, ifImportIdle, withImportLock, type ImportLocks } from './import-locks.ts';
import { isQuotaError, StorageFullError, type StorageEstimateLike } from './quota.ts';
import { defaultLocks, lockNames, withWorkLock, type WorkLocks } from './work-locks.ts';

/**
 * Collections in IndexedDB (the `collections`, `documents`, `queries` and `qrels` tables of db.ts): atomic
 * import, listing, loading for the engines, deletion, and what each one occupies. No DOM: runs in the import
 * worker, in the page and in Node tests (fake-indexeddb).
 *
 * ## Atomic import
 * 1. The `collections` row is written first with `status: 'importing'`; lists show ready rows only, so
 *    nobody reads a half-written collection.
 * 2. Documents (with `ord` = position in the corpus), queries (with `ord` = position in the queries file)
 *    and judgments (one row per split) are written in batches as they stream in. Only ids (for validation)
 *    and the queries and judgments (small) are kept in memory; document texts go straight to the database.
 * 3. The row flips to `'ready'` with its counts, size and validation report, in one transaction that first
 *    checks the row is still the one this import created.
 * 4. Any failure, a cancel (AbortSignal) or a full disk deletes everything written under the id (rollback).
 *    A full disk becomes a `StorageFullError` naming what did not fit.
 *
 * ## Interrupted imports
 * A tab closed mid-import leaves an `'importing'` row and part of its data. `recoverInterruptedImports`
 * (called on start-up) rolls such rows back, unless another tab is importing that id right now: an import
 * holds a Web Lock named after the collection (import-locks.ts), and recovery only touches ids whose lock is
 * free. Imports are not resumed: they start again from the first byte (downloads of the catalog's sizes
 * take seconds to minutes, and a resumed import would need the source to be byte-identical).
 */

export interface CollectionMeta {
  id: string;
  name: string;
  source: CollectionRow['source'];
  /** Known language (a catalog entry's); absent: detected from the documents as they are stored. */
  language?: Language;
}

/** A query as stored: its position in the queries file keeps file order (the table is keyed by id). */
export interface StoredQueryRow extends QueryRow {
  ord: number;
}

/** What an import writes, as streams read one after the other (documents, queries, then each split). */
export interface CollectionRecords {
  /** One by one or in batches (a parser's chunk of lines: one await for many documents). */
  documents: AsyncIterable<Doc | DocumentBatch>;
  /** Absent: a collection without queries (an own corpus to explore). */
  queries?: AsyncIterable<Query>;
  /** Read in this order; no entry: a collection without judgments (no splits). */
  qrels: ReadonlyArray<{ split: string; judgments: AsyncIterable<Judgment> }>;
  /** The parsers' logs, read once every stream has ended (skipped lines and duplicates for the report). */
  logs?: () => CollectionToValidate['logs'];
}

export type ImportPhase = 'documents' | 'queries' | 'qrels' | 'finishing';

export interface StoreProgress {
  phase: ImportPhase;
  documents: number;
  queries: number;
  judgments: number;
  /** The split being written, in phase `qrels`. */
  split?: string;
}

export interface ImportOptions {
  signal?: AbortSignal;
  onProgress?: (progress: StoreProgress) => void;
  /** Documents (default 1024) or queries (default 1000) per write transaction; a batch is also cut at `batchBytes`. */
  batchSize?: number;
  /** Approximate text bytes per write transaction (default 2 MiB for documents, 4 MiB for queries), so long documents make smaller batches. */
  batchBytes?: number;
  /** Web Locks (default: the origin's, when there are any); `null` runs without locks. */
  locks?: ImportLocks | null;
  /** For the quota message; default `navigator.storage.estimate()` where it exists. */
  estimate?: () => Promise<StorageEstimateLike | undefined>;
}

/** The id is taken by a ready collection: open it, or delete it before importing again. */
export class CollectionExistsError extends Error {
  override readonly name = 'CollectionExistsError';

  constructor(readonly collection: CollectionRow) {
    super(`"${collection.name}" is already stored in this browser: open it, or delete it first to import it again.`);
  }
}

const DEFAULT_BATCH = 1000;
/**
 * Documents per write transaction (and at most DEFAULT_DOC_BATCH_BYTES of them): a few chunk rows each, so
 * the rows are few while progress still moves, and a cancel or a reload stops within a second.
 */
const DEFAULT_DOC_BATCH = 1024;
const DEFAULT_DOC_BATCH_BYTES = 2 * 1024 * 1024;
const DEFAULT_BATCH_BYTES = 4 * 1024 * 1024;
/** Bytes counted per stored row besides its strings (keys, field names, structured-clone framing). */
const ROW_OVERHEAD = 48;

/** Where `utf8Length` has TextEncoder write strings short enough to fit (3 bytes per UTF-16 unit at most). */
const utf8Scratch = new Uint8Array(1 << 20);
const utf8Encoder = new TextEncoder();

const NON_ASCII = /[^\x00-\x7f]/;

/**
 * UTF-8 length of a string (a lone surrogate counts as the 3 bytes of U+FFFD). An ASCII string is its
 * length: the regular expression's scan is cheaper than Chromium's `encodeInto`. Others are written into
 * a scratch buffer by the engine's encoder, several times faster than counting in JavaScript; strings too
 * long for the buffer are counted.
 */
export function utf8Length(text: string): number {
  if (!NON_ASCII.test(text)) return text.length;
  if (text.length * 3 <= utf8Scratch.length) return utf8Encoder.encodeInto(text, utf8Scratch).written;
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 4; // a surrogate pair: one 4-byte character
      i += 1;
    } else bytes += 3;
  }
  return bytes;
}

function metadataBytes(metadata: Record<string, unknown> | undefined): number {
  return metadata === undefined ? 0 : utf8Length(JSON.stringify(metadata));
}

/** Whether a document has neither title nor text (validateCollection lists those). */
function isEmptyDocument(doc: Doc): boolean {
  return doc.title.trim().length === 0 && doc.text.trim().length === 0;
}

/**
 * What validateCollection needs of the documents, made once they are all stored: ids and which are empty,
 * not their texts (and no object per document held while half a million stream in).
 */
function validationStubs(ids: readonly string[], empty: ReadonlySet<number>): Doc[] {
  return ids.map((id, ord) => ({ id, title: '', text: empty.has(ord) ? '' : '.' }));
}

async function browserEstimate(): Promise<StorageEstimateLike | undefined> {
  const storage = (globalThis as { navigator?: { storage?: { estimate?: () => Promise<StorageEstimateLike> } } }).navigator?.storage;
  try {
    return await storage?.estimate?.();
  } catch {
    return undefined;
  }
}

/** Primary-key range of every row of a collection in a table keyed `[collectionId+…]`. */
function collectionRange<T, K>(table: Table<T, K>, index: string, collectionId: string) {
  return table.where(index).between([collectionId, Dexie.minKey], [collectionId, Dexie.maxKey], true, true);
}

export interface DeleteOptions {
  /** Web Locks for hnswlib's file system (default: the origin's); `null` runs without. */
  locks?: WorkLocks | null;
  /** Where hnswlib's file system lives (default: `globalThis.indexedDB`). */
  indexedDB?: IDBFactory;
}

/**
 * Deletes a collection and everything derived from it: documents, queries, judgments, built indexes,
 * embedding sets with their chunks, and stored runs, in one transaction (all of it or nothing); then its saved
 * HNSW graphs, which live in hnswlib's own database (hnsw-files.ts). Resolves with the graph files removed.
 */
export async function deleteCollection(db: PlaygroundDatabase, collectionId: string, options: DeleteOptions = {}): Promise<string[]> {
  await deleteCollectionRows(db, collectionId);
  const locks = options.locks === null ? undefined : (options.locks ?? defaultLocks());
  return withWorkLock(locks, lockNames.hnswFiles, () => deleteGraphFiles(collectionGraphPrefix(collectionId), options.indexedDB));
}

async function deleteCollectionRows(db: PlaygroundDatabase, collectionId: string): Promise<void> {
  const tables = [db.collections, db.documentChunks, db.documentDirectories, db.queries, db.qrels, db.indexes, db.embeddingSets, db.embeddingChunks, db.runs, db.judgmentEdits, db.savedRankings];
  await db.transaction('rw', tables, async () => {
    const setKeys = (await db.embeddingSets.where('collectionId').equals(collectionId).primaryKeys()) as string[];
    for (const setKey of setKeys) {
      await db.embeddingChunks.where('[setKey+start]').between([setKey, Dexie.minKey], [setKey, Dexie.maxKey], true, true).delete();
    }
    await db.embeddingSets.where('collectionId').equals(collectionId).delete();
    await db.indexes.where('collectionId').equals(collectionId).delete();
    await db.runs.where('collectionId').equals(collectionId).delete();
    await db.judgmentEdits.where('collectionId').equals(collectionId).delete();
    await db.savedRankings.where('collectionId').equals(collectionId).delete();
    await collectionRange(db.qrels, '[collectionId+split]', collectionId).delete();
    await collectionRange(db.queries, '[collectionId+id]', collectionId).delete();
    await deleteDocuments(db, collectionId);
    await db.collections.delete(collectionId);
  });
}

/** Counters of an import in progress, shared by the writers so the quota message can say how far it got. */
interface ImportTally extends StoreProgress {
  bytes: number;
  /** Of the documents' ids, titles and texts, in corpus order. */
  fingerprint: Fingerprint;
  /** What is being written, for the quota message. */
  writing: string;
  /** The documents' text, for the language when the import does not name one. */
  language: LanguageSample;
}

class BatchWriter<Row> {
  private rows: Row[] = [];
  private bytes = 0;

  constructor(
    private readonly write: (rows: Row[]) => Promise<unknown>,
    private readonly maxRows: number,
    private readonly maxBytes: number,
  ) {}

  /** Queues a row; returns true when the batch was written. */
  async add(row: Row, bytes: number): Promise<boolean> {
    this.rows.push(row);
    this.bytes += bytes;
    if (this.rows.length < this.maxRows && this.bytes < this.maxBytes) return false;
    await this.flush();
    return true;
  }

  async flush(): Promise<void> {
    if (this.rows.length === 0) return;
    const rows = this.rows;
    this.rows = [];
    this.bytes = 0;
    await this.write(rows);
  }
}

async function writeDocuments(db: PlaygroundDatabase, id: string, records: CollectionRecords, tally: ImportTally, options: ImportOptions): Promise<Doc[]> {
  const empty = new Set<number>();
  const ids: string[] = [];
  const fingerprint = tally.fingerprint;
  const batchSize = options.batchSize ?? DEFAULT_DOC_BATCH;
  const batchBytes = options.batchBytes ?? DEFAULT_DOC_BATCH_BYTES;
  // Documents go into chunk rows (documents.ts); a transaction writes the chunks of `batchSize` documents
  // or `batchBytes`, the last one cut short. One transaction stays in flight while the next batch is parsed:
  // the browser commits it on another thread, and a failed one fails the next `write` (or the last).
  const chunker = new DocumentChunker(id);
  let pending: DocumentChunkRow[] = [];
  let pendingDocs = 0;
  let pendingBytes = 0;
  let inFlight: Promise<void> | undefined;
  const write = async () => {
    const rest = chunker.flush();
    if (rest !== undefined) pending.push(rest);
    if (pending.length === 0) return;
    const rows = pending;
    const docs = pendingDocs;
    pending = [];
    pendingDocs = 0;
    pendingBytes = 0;
    const previous = inFlight;
    const attempt = db.documentChunks.bulkAdd(rows);
    attempt.catch(() => undefined);
    // Counted in order, and only while every earlier write succeeded: the documents stored before a failure.
    inFlight = (previous ?? Promise.resolve())
      .then(() => attempt)
      .then(() => {
        tally.documents += docs;
      });
    // Awaited by the next write or at the end; until then a rejection must not count as unhandled.
    inFlight.catch(() => undefined);
    await previous;
  };
  const written = async () => {
    await write();
    await inFlight;
  };
  tally.writing = 'documents';
  for await (const item of records.documents) {
    // A batch that knows what its multi-byte characters add is counted by lengths, without a pass over its strings.
    const surplus = 'docs' in item ? item.utf8Surplus : undefined;
    if (surplus !== undefined) tally.bytes += surplus;
    for (const doc of documentsOf(item)) {
      options.signal?.throwIfAborted();
      const bytes = surplus === undefined ? utf8Length(doc.id) + utf8Length(doc.title) + utf8Length(doc.text) + metadataBytes(doc.metadata) : doc.id.length + doc.title.length + doc.text.length + metadataBytes(doc.metadata);
      tally.bytes += bytes + ROW_OVERHEAD;
      if (isEmptyDocument(doc)) empty.add(ids.length);
      ids.push(doc.id);
      fingerprint.add(doc.id).add(doc.title).add(doc.text);
      if (!tally.language.full) tally.language.add(`${doc.title}\n${doc.text}\n`);
      const chunk = chunker.add(doc);
      if (chunk !== undefined) pending.push(chunk);
      pendingDocs += 1;
      pendingBytes += bytes;
      if (pendingDocs >= batchSize || pendingBytes >= batchBytes) {
        await write();
        options.onProgress?.({ ...progressOf(tally) });
      }
    }
  }
  await written();
  await writeDirectory(db, id, ids, chunker.starts);
  options.onProgress?.(progressOf(tally));
  return validationStubs(ids, empty);
}

async function writeQueries(db: PlaygroundDatabase, id: string, records: CollectionRecords, tally: ImportTally, options: ImportOptions): Promise<Map<string, Query>> {
  const queries = new Map<string, Query>();
  if (records.queries === undefined) return queries;
  tally.phase = 'queries';
  tally.writing = 'queries';
  let stored = 0;
  const writer = new BatchWriter<StoredQueryRow>(
    async (rows) => {
      await db.queries.bulkAdd(rows);
      stored += rows.length;
    },
    options.batchSize ?? DEFAULT_BATCH,
    options.batchBytes ?? DEFAULT_BATCH_BYTES,
  );
  for await (const query of records.queries) {
    options.signal?.throwIfAborted();
    const row: StoredQueryRow = { collectionId: id, ord: queries.size, id: query.id, text: query.text };
    if (query.metadata !== undefined) row.metadata = query.metadata;
    queries.set(query.id, query);
    const bytes = utf8Length(query.id) + utf8Length(query.text) + metadataBytes(query.metadata);
    tally.bytes += bytes + ROW_OVERHEAD;
    if (await writer.add(row, bytes)) {
      tally.queries = stored;
      options.onProgress?.(progressOf(tally));
    }
  }
  await writer.flush();
  tally.queries = stored;
  options.onProgress?.(progressOf(tally));
  return queries;
}

async function writeQrels(db: PlaygroundDatabase, id: string, records: CollectionRecords, tally: ImportTally, options: ImportOptions): Promise<Map<string, Qrels>> {
  const qrels = new Map<string, Qrels>();
  tally.phase = 'qrels';
  for (const { split, judgments } of records.qrels) {
    if (qrels.has(split)) throw new Error(`two qrels files for the split "${split}"`);
    tally.split = split;
    tally.writing = `judgments (${split})`;
    const bySplit: Qrels = new Map();
    const triples: Array<[string, string, number]> = [];
    for await (const { queryId, docId, grade } of judgments) {
      options.signal?.throwIfAborted();
      let docs = bySplit.get(queryId);
      if (docs === undefined) bySplit.set(queryId, (docs = new Map()));
      docs.set(docId, grade);
      triples.push([queryId, docId, grade]);
      tally.bytes += utf8Length(queryId) + utf8Length(docId) + 12;
    }
    const row: QrelsRow = { collectionId: id, split, judgments: triples };
    await db.qrels.add(row);
    qrels.set(split, bySplit);
    tally.judgments += triples.length;
    options.onProgress?.(progressOf(tally));
  }
  return qrels;
}

function progressOf(tally: ImportTally): StoreProgress {
  const { phase, documents, queries, judgments, split } = tally;
  return split === undefined ? { phase, documents, queries, judgments } : { phase, documents, queries, judgments, split };
}

/** Flips the row to ready, unless it is no longer the row this import created (deleted meanwhile). */
async function finish(db: PlaygroundDatabase, row: CollectionRow): Promise<void> {
  await db.transaction('rw', db.collections, async () => {
    const current = await db.collections.get(row.id);
    if (current === undefined || current.status !== 'importing' || current.createdAt !== row.createdAt) {
      throw new Error(`the import of "${row.name}" was removed while it ran (by another tab?)`);
    }
    await db.collections.put(row);
  });
}

/** Rolls back this import's rows, unless the id now belongs to someone else. */
async function rollback(db: PlaygroundDatabase, row: CollectionRow): Promise<void> {
  const current = await db.collections.get(row.id);
  if (current !== undefined && current.createdAt !== row.createdAt) return;
  await deleteCollectionRows(db, row.id);
}

async function writeCollection(db: PlaygroundDatabase, meta: CollectionMeta, records: CollectionRecords, options: ImportOptions): Promise<CollectionRow> {
  options.signal?.throwIfAborted();
  const existing = await db.collections.get(meta.id);
  if (existing?.status === 'ready') throw new CollectionExistsError(existing);
  // An 'importing' row while we hold the id's lock: left behind by a closed tab.
  if (existing !== undefined) await deleteCollectionRows(db, meta.id);

  const row: CollectionRow = {
    id: meta.id,
    name: meta.name,
    status: 'importing',
    source: meta.source,
    docCount: 0,
    queryCount: 0,
    splits: [],
    createdAt: Date.now(),
    bytes: 0,
  };
  await db.collections.add(row);
  const tally: ImportTally = { phase: 'documents', documents: 0, queries: 0, judgments: 0, bytes: 0, writing: 'documents', fingerprint: new Fingerprint(), language: new LanguageSample() };
  try {
    const docs = await writeDocuments(db, meta.id, records, tally, options);
    const queries = await writeQueries(db, meta.id, records, tally, options);
    const qrels = await writeQrels(db, meta.id, records, tally, options);
    tally.phase = 'finishing';
    delete tally.split;
    options.onProgress?.(progressOf(tally));
    const report: ValidationReport = validateCollection({ docs, queries, qrels, logs: records.logs?.() });
    const ready: CollectionRow = {
      ...row,
      status: 'ready',
      docCount: docs.length,
      queryCount: queries.size,
      splits: [...qrels.keys()],
      bytes: tally.bytes,
      report,
      fingerprint: `${docs.length}:${tally.fingerprint.hex()}`,
      language: meta.language ?? tally.language.language,
    };
    options.signal?.throwIfAborted();
    await finish(db, ready);
    return ready;
  } catch (error) {
    await rollback(db, row).catch(() => undefined);
    if (isQuotaError(error)) {
      const stored = tally.phase === 'documents' ? tally.documents : tally.phase === 'queries' ? tally.queries : tally.judgments;
      throw new StorageFullError(meta.name, tally.writing, stored, await (options.estimate ?? browserEstimate)(), { cause: error, storedBytes: tally.bytes });
    }
    throw error;
  }
}

/**
 * Imports a collection atomically (see the module comment). Resolves with the ready row; rejects with the
 * parsers' `ParseError`, the signal's `AbortError`, `StorageFullError`, or `CollectionExistsError`, and in
 * every case leaves nothing of this import behind.
 */
export function importCollection(
  db: PlaygroundDatabase,
  meta: CollectionMeta,
  records: CollectionRecords,
  options: ImportOptions = {},
): Promise<CollectionRow> {
  const locks = options.locks === null ? undefined : (options.locks ?? defaultImportLocks());
  return withImportLock(locks, meta.id, () => writeCollection(db, meta, records, options));
}

/** Whether any collection is left `'importing'` (a closed tab's, or one running now): what recoverInterruptedImports looks at. */
export async function hasUnfinishedImports(db: PlaygroundDatabase): Promise<boolean> {
  return (await db.collections.where('status').equals('importing').count()) > 0;
}

/**
 * Rolls back the rows left `'importing'` by a tab that was closed mid-import (see the module comment);
 * returns their ids. Imports running right now in another tab or worker are left alone.
 */
export async function recoverInterruptedImports(db: PlaygroundDatabase, options: { locks?: ImportLocks | null } = {}): Promise<string[]> {
  const locks = options.locks === null ? undefined : (options.locks ?? defaultImportLocks());
  const stale = await db.collections.where('status').equals('importing').toArray();
  const recovered: string[] = [];
  for (const row of stale) {
    const done = await ifImportIdle(locks, row.id, async () => {
      const current = await db.collections.get(row.id);
      if (current?.status !== 'importing') return false;
      await deleteCollectionRows(db, row.id);
      return true;
    });
    if (done === true) recovered.push(row.id);
  }
  return recovered;
}

/** Changes a ready collection's language (the Datasets view); indexes are keyed by analyzer, so none is lost. */
export async function setCollectionLanguage(db: PlaygroundDatabase, collectionId: string, language: Language): Promise<void> {
  const updated = await db.collections.where('id').equals(collectionId).and((row) => row.status === 'ready').modify({ language });
  if (updated === 0) throw new Error(`no stored collection "${collectionId}"`);
}

// ---- Reading ----

/** Ready collections, oldest first. */
export async function listCollections(db: PlaygroundDatabase): Promise<CollectionRow[]> {
  const rows = await db.collections.where('status').equals('ready').toArray();
  return rows.sort((a, b) => a.createdAt - b.createdAt || a.id.localeCompare(b.id));
}

/** A ready collection, or undefined (missing, or still importing). */
export async function getCollection(db: PlaygroundDatabase, collectionId: string): Promise<CollectionRow | undefined> {
  const row = await db.collections.get(collectionId);
  return row?.status === 'ready' ? row : undefined;
}

function queryFromRow(row: QueryRow): Query {
  return row.metadata === undefined ? { id: row.id, text: row.text } : { id: row.id, text: row.text, metadata: row.metadata };
}

/** The queries, id → query, in queries-file order. */
export async function loadQueries(db: PlaygroundDatabase, collectionId: string): Promise<Map<string, Query>> {
  const rows = (await collectionRange(db.queries, '[collectionId+id]', collectionId).toArray()) as StoredQueryRow[];
  rows.sort((a, b) => (a.ord ?? 0) - (b.ord ?? 0));
  return new Map(rows.map((row) => [row.id, queryFromRow(row)]));
}

function qrelsFromRow(row: QrelsRow): Qrels {
  const qrels: Qrels = new Map();
  for (const [queryId, docId, grade] of row.judgments) {
    let docs = qrels.get(queryId);
    if (docs === undefined) qrels.set(queryId, (docs = new Map()));
    docs.set(docId, grade);
  }
  return qrels;
}

/** The judgments of one split (query → document → grade, file order), or undefined when there is no such split. */
export async function loadQrels(db: PlaygroundDatabase, collectionId: string, split: string): Promise<Qrels | undefined> {
  const row = await db.qrels.get([collectionId, split]);
  return row === undefined ? undefined : qrelsFromRow(row);
}

/** Every split's judgments. */
export async function loadAllQrels(db: PlaygroundDatabase, collectionId: string): Promise<Map<string, Qrels>> {
  const rows = await collectionRange(db.qrels, '[collectionId+split]', collectionId).toArray();
  return new Map(rows.map((row) => [row.split, qrelsFromRow(row)]));
}

export interface LoadedCollection {
  collection: CollectionRow;
  /** Corpus order: docs[ord]. */
  docs: Doc[];
  queries: Map<string, Query>;
  qrels: Map<string, Qrels>;
}

/** A whole ready collection in memory (for the engines of small collections and for tests). */
export async function loadCollection(db: PlaygroundDatabase, collectionId: string): Promise<LoadedCollection> {
  const collection = await getCollection(db, collectionId);
  if (collection === undefined) throw new Error(`collection "${collectionId}" is not stored in this browser`);
  const [docs, queries, qrels] = await Promise.all([
    loadDocuments(db, collectionId),
    loadQueries(db, collectionId),
    loadAllQrels(db, collectionId),
  ]);
  return { collection, docs, queries, qrels };
}

// ---- Usage ----

export interface CollectionUsage {
  collectionId: string;
  /** Documents, queries and judgments (approximate: UTF-8 text plus a fixed overhead per row). */
  data: number;
  /** Built indexes (exact serialized sizes). */
  indexes: number;
  /** Embedding vectors stored, complete and partial sets (rows × dimensions × bytes per component). */
  embeddings: number;
  /** Embedding runs stopped part-way (resumed when their column opens again). */
  partialEmbeddings: number;
  /** Stored evaluation runs (their TREC text). */
  runs: number;
  total: number;
}

/** What a collection occupies, by kind. Reads index and run rows (their sizes), not the documents. */
export async function collectionUsage(db: PlaygroundDatabase, collectionId: string): Promise<CollectionUsage> {
  const row = await db.collections.get(collectionId);
  let indexes = 0;
  await db.indexes.where('collectionId').equals(collectionId).each((index) => {
    indexes += index.bytes;
  });
  let embeddings = 0;
  let partialEmbeddings = 0;
  await db.embeddingSets.where('collectionId').equals(collectionId).each((set) => {
    embeddings += embeddingSetBytes(set);
    if (set.done < set.docCount) partialEmbeddings += 1;
  });
  let runs = 0;
  await db.runs.where('collectionId').equals(collectionId).each((run) => {
    runs += run.packed !== undefined ? packedRunBytes(run.packed) : utf8Length(run.trec ?? '');
  });
  const data = row?.bytes ?? 0;
  return { collectionId, data, indexes, embeddings, partialEmbeddings, runs, total: data + indexes + embeddings + runs };
}
