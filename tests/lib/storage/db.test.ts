import 'fake-indexeddb/auto';
import { Dexie } from 'dexie';
import { expect, test, vi } from 'vitest';
import { closeOnVersionChange, dropLegacyDatabases, LEGACY_DATABASES, PlaygroundDatabase } from '../../../src/lib/storage/db.ts';
import { CHUNK_DOCS } from '../../../src/lib/storage/document-chunks.ts';
import { countDocuments, getDocuments, loadDocuments } from '../../../src/lib/storage/documents.ts';

/** The tables as version 1 declared them (version 2 changed no index, only rows). */
const V1_STORES = {
  collections: 'id, status',
  documents: '[collectionId+ord], [collectionId+id], collectionId',
  queries: '[collectionId+id], collectionId',
  qrels: '[collectionId+split], collectionId',
  indexes: 'key, collectionId',
  embeddingSets: 'key, collectionId',
  embeddingChunks: '[setKey+start], setKey',
  runs: 'key, collectionId',
};

/** The tables as version 4 declared them: judgment edits (3), documents in chunks (4). */
const { documents: _documents, ...V1_WITHOUT_DOCUMENTS } = V1_STORES;
const V4_STORES = {
  ...V1_WITHOUT_DOCUMENTS,
  documentChunks: '[collectionId+start], collectionId',
  documentDirectories: 'collectionId',
  judgmentEdits: '++seq, [collectionId+split], [collectionId+split+queryId], [collectionId+split+queryId+docId], collectionId',
};

test('upgrade from version 1: version-1 embedding rows are dropped, every other table is kept', async () => {
  const name = 'db-upgrade-test';
  // One row in each table that matters.
  const v1 = new Dexie(name);
  v1.version(1).stores(V1_STORES);
  await v1.table('collections').put({ id: 'c', name: 'C', status: 'ready' });
  await v1.table('documents').put({ collectionId: 'c', ord: 0, id: 'd0', title: '', text: 'x' });
  await v1.table('embeddingSets').put({ key: 'c|m', collectionId: 'c', done: 1, docCount: 1 });
  await v1.table('embeddingChunks').put({ setKey: 'c|m', start: 0, count: 1, data: new ArrayBuffer(4) });
  v1.close();

  const db = new PlaygroundDatabase(name);
  await db.open();
  expect(db.verno).toBe(7);
  expect(await db.collections.count()).toBe(1);
  expect(await loadDocuments(db, 'c')).toEqual([{ id: 'd0', title: '', text: 'x' }]);
  expect(await db.embeddingSets.count()).toBe(0);
  expect(await db.embeddingChunks.count()).toBe(0);
  // Version 6 adds the saved rankings, empty.
  expect(await db.savedRankings.count()).toBe(0);
  db.close();
  await Dexie.delete(name);
});

test('version 4 upgrade: one-row-per-document collections become chunks and a directory, same ords, ids and texts', async () => {
  const name = 'db-upgrade-3-test';
  const v2 = new Dexie(name);
  v2.version(2).stores(V1_STORES);
  const big = Array.from({ length: 2 * CHUNK_DOCS + 7 }, (_, ord) => ({ collectionId: 'big', ord, id: `b${ord}`, title: `T${ord}`, text: `text ${ord}`, ...(ord === CHUNK_DOCS + 3 ? { metadata: { url: 'u' } } : {}) }));
  await v2.table('collections').bulkPut([
    { id: 'big', name: 'Big', status: 'ready', createdAt: 5 },
    { id: 'small', name: 'Small', status: 'ready', createdAt: 6 },
  ]);
  // Written out of order and interleaved with another collection: the upgrade goes by ord.
  await v2.table('documents').bulkPut([...big].reverse());
  await v2.table('documents').bulkPut([{ collectionId: 'small', ord: 0, id: 's0', title: '', text: 'only' }]);
  await v2.table('queries').put({ collectionId: 'big', id: 'q', text: 'query' });
  v2.close();

  const db = new PlaygroundDatabase(name);
  await db.open();
  expect(db.verno).toBe(7);
  expect(db.tables.map((table) => table.name)).not.toContain('documents');
  const docs = await loadDocuments(db, 'big');
  expect(docs.map((doc) => doc.id)).toEqual(big.map((row) => row.id));
  const at = CHUNK_DOCS + 3;
  expect(docs[at]).toEqual({ id: `b${at}`, title: `T${at}`, text: `text ${at}`, metadata: { url: 'u' } });
  expect(docs[5]).toEqual({ id: 'b5', title: 'T5', text: 'text 5' });
  expect(await db.documentChunks.where('collectionId').equals('big').count()).toBe(3);
  expect(await countDocuments(db, 'big')).toBe(big.length);
  const last = big.length - 1;
  expect(await getDocuments(db, 'big', [`b${last}`, 'b0', 'missing', 's0'])).toEqual([{ id: `b${last}`, title: `T${last}`, text: `text ${last}` }, { id: 'b0', title: 'T0', text: 'text 0' }, undefined, undefined]);
  expect(await getDocuments(db, 'small', ['s0'])).toEqual([{ id: 's0', title: '', text: 'only' }]);
  expect((await db.documentDirectories.get('big'))?.collectionCreatedAt).toBe(5);
  expect(await db.queries.count()).toBe(1);
  db.close();
  await Dexie.delete(name);
});

test('version 5 upgrade: sets of the removed whole-matrix cache (empty settings) go with their chunks, the app\'s sets stay', async () => {
  const name = 'db-upgrade-5-test';
  const old = new Dexie(name);
  old.version(4).stores(V4_STORES);
  const cacheKey = 'test/ds|corpus|local/tiny-bert|fp32|f32|static-pooled|mean|norm|128|""|""';
  const appKey = 'c|corpus|local/tiny-bert|fp32|f32|{"kind":"static-pooled"}';
  await old.table('embeddingSets').bulkPut([
    { key: cacheKey, collectionId: 'test/ds', settings: {}, done: 1, docCount: 1 },
    { key: appKey, collectionId: 'c', settings: { kind: 'static-pooled' }, done: 1, docCount: 1 },
  ]);
  await old.table('embeddingChunks').bulkPut([
    { setKey: cacheKey, start: 0, count: 1, ids: ['a'], data: new ArrayBuffer(4) },
    { setKey: appKey, start: 0, count: 1, ids: ['a'], data: new ArrayBuffer(4) },
  ]);
  old.close();

  const db = new PlaygroundDatabase(name);
  await db.open();
  expect(db.verno).toBe(7);
  expect((await db.embeddingSets.toArray()).map((set) => set.key)).toEqual([appKey]);
  expect((await db.embeddingChunks.toArray()).map((chunk) => chunk.setKey)).toEqual([appKey]);
  db.close();
  await Dexie.delete(name);
});

test('another connection opening a newer version closes this one for good and tells the listener; it is not blocked', async () => {
  const name = 'db-versionchange-test';
  const db = new PlaygroundDatabase(name);
  const told: Array<number | null> = [];
  closeOnVersionChange(db, (version) => told.push(version));
  await db.collections.put({ id: 'c', name: 'C', status: 'ready', source: { kind: 'local', detail: '' }, docCount: 0, queryCount: 0, splits: [], createdAt: 1, bytes: 0 });
  const newer = await new Promise<IDBDatabase>((resolve, reject) => {
    const request = indexedDB.open(name, 1000);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
    request.onblocked = () => reject(new Error('blocked: the old connection did not close'));
  });
  expect(told).toEqual([1000]);
  expect(db.isOpen()).toBe(false);
  // Closed for good: a query fails instead of reopening the database with this tab's old schema.
  await expect(db.collections.count()).rejects.toMatchObject({ name: 'DatabaseClosedError' });
  newer.close();
  await Dexie.delete(name);
});

test('the legacy embedding database is deleted on start-up', async () => {
  const legacy = new Dexie(LEGACY_DATABASES[0]);
  legacy.version(1).stores({ embeddings: 'key, createdAt' });
  await legacy.table('embeddings').put({ key: 'k', createdAt: 1 });
  legacy.close();
  expect(await Dexie.exists(LEGACY_DATABASES[0])).toBe(true);
  await dropLegacyDatabases();
  expect(await Dexie.exists(LEGACY_DATABASES[0])).toBe(false);
});

test('no legacy database listed: nothing is deleted; a browser that cannot list deletes them all', async () => {
  const deletes = vi.spyOn(indexedDB, 'deleteDatabase');
  try {
    await dropLegacyDatabases();
    expect(deletes).not.toHaveBeenCalled();
    const databases = vi.spyOn(indexedDB, 'databases').mockRejectedValue(new Error('not supported'));
    await dropLegacyDatabases();
    expect(deletes.mock.calls.map(([name]) => name)).toEqual([...LEGACY_DATABASES]);
    databases.mockRestore();
  } finally {
    deletes.mockRestore();
  }
});
