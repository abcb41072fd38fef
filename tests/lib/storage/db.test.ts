import 'fake-indexeddb/auto';
import { Dexie } from 'dexie';
import { expect, test } from 'vitest';
import { closeOnVersionChange, dropLegacyDatabases, LEGACY_DATABASES, PlaygroundDatabase } from '../../../src/lib/storage/db.ts';

test('version 2 upgrade: version-1 embedding rows are dropped, every other table is kept', async () => {
  const name = 'db-upgrade-test';
  // The schema as version 1 declared it, with one row in each table that matters.
  const v1 = new Dexie(name);
  v1.version(1).stores({
    collections: 'id, status',
    documents: '[collectionId+ord], [collectionId+id], collectionId',
    queries: '[collectionId+id], collectionId',
    qrels: '[collectionId+split], collectionId',
    indexes: 'key, collectionId',
    embeddingSets: 'key, collectionId',
    embeddingChunks: '[setKey+start], setKey',
    runs: 'key, collectionId',
  });
  await v1.table('collections').put({ id: 'c', name: 'C', status: 'ready' });
  await v1.table('documents').put({ collectionId: 'c', ord: 0, id: 'd0', title: '', text: 'x' });
  await v1.table('embeddingSets').put({ key: 'c|m', collectionId: 'c', done: 1, docCount: 1 });
  await v1.table('embeddingChunks').put({ setKey: 'c|m', start: 0, count: 1, data: new ArrayBuffer(4) });
  v1.close();

  const db = new PlaygroundDatabase(name);
  await db.open();
  expect(db.verno).toBe(3);
  expect(await db.collections.count()).toBe(1);
  expect(await db.documents.count()).toBe(1);
  expect(await db.embeddingSets.count()).toBe(0);
  expect(await db.embeddingChunks.count()).toBe(0);
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
