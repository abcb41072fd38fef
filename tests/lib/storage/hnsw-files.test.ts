import 'fake-indexeddb/auto';
import { expect, test } from 'vitest';
import { HnswIndex } from '../../../src/lib/dense/hnsw-index.ts';
import { clusteredVectors } from '../../../src/lib/dense/synthetic-vectors.ts';
import { deleteCollection } from '../../../src/lib/storage/collections.ts';
import { PlaygroundDatabase } from '../../../src/lib/storage/db.ts';
import { collectionGraphPrefix, deleteGraphFiles, graphFileName, HNSW_FS_DATABASE } from '../../../src/lib/storage/hnsw-files.ts';

// Real hnswlib-wasm saving to its IDBFS store on fake-indexeddb, deleted with plain IndexedDB.

test('no file system yet: nothing deleted, and no database is created', async () => {
  expect(await deleteGraphFiles('rp-')).toEqual([]);
  expect((await indexedDB.databases()).map((d) => d.name)).not.toContain(HNSW_FS_DATABASE);
});

test('deleting a collection removes its saved graphs from hnswlib’s store and keeps the others; a reload no longer finds them', async () => {
  const vectors = clusteredVectors(50, 8, { seed: 7 });
  const index = await HnswIndex.build(vectors, { M: 8, efConstruction: 40 });
  const mine = graphFileName('beir/scifact', 'graph-a', 50);
  const mine2 = graphFileName('beir/scifact', 'graph-b', 50);
  const other = graphFileName('starter', 'graph-a', 50);
  expect(mine.startsWith(collectionGraphPrefix('beir/scifact'))).toBe(true);
  expect(other.startsWith(collectionGraphPrefix('beir/scifact'))).toBe(false);
  for (const name of [mine, mine2, other]) await index.save(name);

  const db = new PlaygroundDatabase('hnsw-files-test');
  const removed = await deleteCollection(db, 'beir/scifact', { locks: null });
  expect(removed.sort()).toEqual([mine, mine2].sort());
  expect(await deleteGraphFiles(collectionGraphPrefix('beir/scifact'))).toEqual([]);
  // hnswlib syncs from IndexedDB before reading: the deleted file is gone for it too.
  expect(await HnswIndex.load(mine, 8)).toBeUndefined();
  expect(await HnswIndex.load(mine2, 8)).toBeUndefined();
  const kept = await HnswIndex.load(other, 8);
  expect(kept?.size).toBe(50);
  db.close();
});
