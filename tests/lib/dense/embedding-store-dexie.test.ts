import 'fake-indexeddb/auto';
import { Dexie } from 'dexie';
import { expect, test } from 'vitest';
import { DexieEmbeddingStore } from '../../../src/lib/dense/embedding-store-dexie.ts';
import { embeddingKey } from '../../../src/lib/dense/embedding-store.ts';
import { registryModel } from '../../../src/lib/dense/registry.ts';
import { clusteredVectors } from '../../../src/lib/dense/synthetic-vectors.ts';
import { decodeMatrix, encodeMatrix } from '../../../src/lib/dense/vector-codec.ts';
import { PlaygroundDatabase } from '../../../src/lib/storage/db.ts';

const spec = registryModel('local/tiny-bert')!;

test('the whole-matrix cache lives in the app database’s embedding tables, in chunks, and reads back whole (int8 scales too)', async () => {
  const name = 'embedding-store-dexie-test';
  const store = new DexieEmbeddingStore(name);
  const vectors = clusteredVectors(5000, 6, { seed: 11 });
  const ids = Array.from({ length: 5000 }, (_, i) => `doc-${i}`);
  const key = embeddingKey({ dataset: 'demo@12345678', part: 'corpus', model: spec.id, dtype: 'fp32', settings: spec, encoding: 'int8' });
  const matrix = encodeMatrix(vectors, 'int8');
  await store.put({ key, ids, matrix, createdAt: 7 });
  store.close();

  const db = new PlaygroundDatabase(name);
  const set = await db.embeddingSets.get(key);
  expect(set).toMatchObject({ collectionId: 'demo@12345678', part: 'corpus', modelId: spec.id, dtype: 'fp32', encoding: 'int8', done: 5000, docCount: 5000, dimensions: 6 });
  expect(await db.embeddingChunks.where('setKey').equals(key).count()).toBe(2);
  db.close();

  const reopened = new DexieEmbeddingStore(name);
  const stored = await reopened.get(key);
  expect(stored?.ids).toEqual(ids);
  expect(decodeMatrix(stored!.matrix)).toEqual(decodeMatrix(matrix));
  expect(await reopened.keys()).toEqual([key]);
  await reopened.delete(key);
  expect(await reopened.get(key)).toBeUndefined();
  reopened.close();
  expect(await Dexie.exists('retrieval-playground-embeddings')).toBe(false);
});
