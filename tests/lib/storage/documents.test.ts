import 'fake-indexeddb/auto';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { PlaygroundDatabase } from '../../../src/lib/storage/db.ts';
import { CHUNK_DOCS, CHUNK_TEXT_UNITS, DocumentChunker } from '../../../src/lib/storage/document-chunks.ts';
import {
  countDocuments,
  deleteDocuments,
  getDocuments,
  loadDocuments,
  putDocuments,
  readDocumentBatches,
  readDocumentColumns,
} from '../../../src/lib/storage/documents.ts';
import type { Doc } from '../../../src/lib/types.ts';

let dbCount = 0;
const opened: PlaygroundDatabase[] = [];
function freshDb(): PlaygroundDatabase {
  const db = new PlaygroundDatabase(`documents-test-${dbCount++}`);
  opened.push(db);
  return db;
}
afterEach(() => {
  for (const db of opened.splice(0)) db.close();
  vi.restoreAllMocks();
});

function corpus(count: number, prefix = 'd'): Doc[] {
  return Array.from({ length: count }, (_, i) => ({ id: `${prefix}${i}`, title: `Title ${i}`, text: `text of ${prefix}${i}` }));
}

describe('DocumentChunker', () => {
  test('cuts at CHUNK_DOCS documents, keeps ords consecutive, and records each chunk start', () => {
    const chunker = new DocumentChunker('c');
    const rows = corpus(CHUNK_DOCS * 2 + 3).flatMap((doc) => chunker.add(doc) ?? []);
    rows.push(chunker.flush()!);
    expect(rows.map((row) => [row.start, row.ids.length])).toEqual([
      [0, CHUNK_DOCS],
      [CHUNK_DOCS, CHUNK_DOCS],
      [2 * CHUNK_DOCS, 3],
    ]);
    expect(chunker.starts).toEqual([0, CHUNK_DOCS, 2 * CHUNK_DOCS]);
    expect(chunker.flush()).toBeUndefined();
  });

  test('cuts long texts into smaller chunks, one document at least per chunk', () => {
    const chunker = new DocumentChunker('c');
    const long = 'x'.repeat(CHUNK_TEXT_UNITS);
    const rows = [{ id: 'a', title: '', text: long }, { id: 'b', title: 'short', text: 'y' }, { id: 'c', title: '', text: long }].flatMap((doc) => chunker.add(doc) ?? []);
    expect(rows.map((row) => row.ids)).toEqual([['a'], ['b', 'c']]);
  });

  test('metadata is a column only in chunks that have some, null where a document has none', () => {
    const chunker = new DocumentChunker('c');
    chunker.add({ id: 'a', title: '', text: '' });
    chunker.add({ id: 'b', title: '', text: '', metadata: { url: 'u' } });
    chunker.add({ id: 'c', title: '', text: '' });
    expect(chunker.flush()!.metadata).toEqual([null, { url: 'u' }, null]);
    chunker.add({ id: 'd', title: '', text: '' });
    expect(chunker.flush()).not.toHaveProperty('metadata');
  });
});

describe('stored documents', () => {
  test('read back in corpus order, in batches of any size across chunks, from any ord', async () => {
    const db = freshDb();
    const docs = corpus(CHUNK_DOCS * 3 + 10);
    const withMetadata = CHUNK_DOCS + 16;
    docs[withMetadata]!.metadata = { source: 'x' };
    await putDocuments(db, 'c', docs);
    expect(await loadDocuments(db, 'c')).toEqual(docs);
    const batches: number[][] = [];
    // Batches longer than a chunk, from an ord inside the first chunk.
    const batchSize = CHUNK_DOCS + 44;
    for await (const rows of readDocumentBatches(db, 'c', { batchSize, fromOrd: 5 })) batches.push(rows.map((row) => row.ord));
    const rest = docs.length - 5;
    expect(batches.map((batch) => batch.length)).toEqual([batchSize, batchSize, rest - 2 * batchSize]);
    expect(batches.flat()).toEqual(Array.from({ length: rest }, (_, i) => i + 5));
    const columns = [];
    for await (const batch of readDocumentColumns(db, 'c', { fromOrd: CHUNK_DOCS + 5 })) columns.push([batch.start, batch.ids.length]);
    expect(columns).toEqual([
      [CHUNK_DOCS + 5, CHUNK_DOCS - 5],
      [2 * CHUNK_DOCS, CHUNK_DOCS],
      [3 * CHUNK_DOCS, 10],
    ]);
    const rows = [];
    for await (const batch of readDocumentBatches(db, 'c', { fromOrd: withMetadata - 1, batchSize: 2 })) {
      rows.push(...batch);
      break;
    }
    const before = withMetadata - 1;
    expect(rows).toEqual([
      { collectionId: 'c', ord: before, id: `d${before}`, title: `Title ${before}`, text: `text of d${before}` },
      { collectionId: 'c', ord: withMetadata, id: `d${withMetadata}`, title: `Title ${withMetadata}`, text: `text of d${withMetadata}`, metadata: { source: 'x' } },
    ]);
    expect(await countDocuments(db, 'c')).toBe(docs.length);
  });

  test('looked up by id, reading only the chunks that hold them; unknown ids and collections give undefined', async () => {
    const db = freshDb();
    await putDocuments(db, 'c', corpus(CHUNK_DOCS * 2));
    await putDocuments(db, 'other', corpus(3, 'o'));
    const last = CHUNK_DOCS * 2 - 1;
    expect(await getDocuments(db, 'c', [`d${last}`, 'nope', 'd0', 'o1'])).toEqual([
      { id: `d${last}`, title: `Title ${last}`, text: `text of d${last}` },
      undefined,
      { id: 'd0', title: 'Title 0', text: 'text of d0' },
      undefined,
    ]);
    expect(await getDocuments(db, 'missing', ['d0'])).toEqual([undefined]);
    expect(await countDocuments(db, 'missing')).toBe(0);
  });

  test('a collection deleted and stored again under the same id is read afresh, not from the remembered directory', async () => {
    const db = freshDb();
    const row = { id: 'c', name: 'C', status: 'ready' as const, source: { kind: 'local' as const, detail: '' }, docCount: 2, queryCount: 0, splits: [], createdAt: 1, bytes: 0 };
    await db.collections.put(row);
    await putDocuments(db, 'c', corpus(2));
    expect(await getDocuments(db, 'c', ['d1'])).toEqual([{ id: 'd1', title: 'Title 1', text: 'text of d1' }]);
    // Another realm (a worker) replaces the collection: this realm's remembered directory must not be used.
    const other = new PlaygroundDatabase(db.name);
    await other.transaction('rw', [other.collections, other.documentChunks, other.documentDirectories], async () => {
      await deleteDocuments(other, 'c');
      await other.collections.put({ ...row, createdAt: 2 });
    });
    await putDocuments(other, 'c', corpus(3, 'e'));
    other.close();
    expect(await getDocuments(db, 'c', ['d1', 'e2'])).toEqual([undefined, { id: 'e2', title: 'Title 2', text: 'text of e2' }]);
    expect(await countDocuments(db, 'c')).toBe(3);
  });

  test('lookups keep the chunks they read: the hits of a next query in the same chunks cost no read', async () => {
    const db = freshDb();
    await db.collections.put({ id: 'c', name: 'C', status: 'ready', source: { kind: 'local', detail: '' }, docCount: 3 * CHUNK_DOCS, queryCount: 0, splits: [], createdAt: 7, bytes: 0 });
    await putDocuments(db, 'c', corpus(3 * CHUNK_DOCS));
    const reads = vi.spyOn(db.documentChunks, 'bulkGet');
    await getDocuments(db, 'c', ['d0', `d${CHUNK_DOCS}`]);
    expect(reads).toHaveBeenCalledTimes(1);
    expect(await getDocuments(db, 'c', ['d1', `d${CHUNK_DOCS + 1}`])).toEqual([
      { id: 'd1', title: 'Title 1', text: 'text of d1' },
      { id: `d${CHUNK_DOCS + 1}`, title: `Title ${CHUNK_DOCS + 1}`, text: `text of d${CHUNK_DOCS + 1}` },
    ]);
    expect(reads).toHaveBeenCalledTimes(1);
    await getDocuments(db, 'c', [`d${2 * CHUNK_DOCS}`]);
    expect(reads).toHaveBeenCalledTimes(2);
    expect(reads.mock.calls[1]![0]).toEqual([['c', 2 * CHUNK_DOCS]]);
  });

  test('deleteDocuments removes the chunks and the directory of one collection only', async () => {
    const db = freshDb();
    await putDocuments(db, 'a', corpus(CHUNK_DOCS + 1));
    await putDocuments(db, 'b', corpus(2));
    await db.transaction('rw', [db.collections, db.documentChunks, db.documentDirectories], () => deleteDocuments(db, 'a'));
    expect(await db.documentChunks.where('collectionId').equals('a').count()).toBe(0);
    expect(await countDocuments(db, 'a')).toBe(0);
    expect(await loadDocuments(db, 'b')).toEqual(corpus(2));
  });
});
