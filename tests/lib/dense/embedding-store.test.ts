import 'fake-indexeddb/auto';
import { expect, test } from 'vitest';
import { embedThroughCache } from '../../../src/lib/dense/cached-embeddings.ts';
import { DexieEmbeddingStore } from '../../../src/lib/dense/embedding-store-dexie.ts';
import { embeddingKey, fingerprintTexts, MemoryEmbeddingStore, type EmbeddingKeyParts, type EmbeddingStore } from '../../../src/lib/dense/embedding-store.ts';
import { registryModel } from '../../../src/lib/dense/registry.ts';
import { clusteredVectors } from '../../../src/lib/dense/synthetic-vectors.ts';

const spec = registryModel('Xenova/e5-small-v2')!;
const base: EmbeddingKeyParts = { dataset: 'beir/scifact@0123abcd', part: 'corpus', model: spec.id, dtype: 'q8', settings: spec, encoding: 'f32' };

test('the key is stable and changes with every part and vector-changing setting', () => {
  expect(embeddingKey(base)).toBe(embeddingKey({ ...base, settings: { ...spec } }));
  const variants: EmbeddingKeyParts[] = [
    { ...base, dataset: 'beir/scifact@ffffffff' },
    { ...base, part: 'queries' },
    { ...base, model: 'Xenova/bge-small-en-v1.5' },
    { ...base, dtype: 'fp32' },
    { ...base, encoding: 'f16' },
    { ...base, settings: { ...spec, pooling: 'cls' } },
    { ...base, settings: { ...spec, normalize: false } },
    { ...base, settings: { ...spec, passagePrefix: '' } },
    { ...base, settings: { ...spec, queryPrefix: 'q: ' } },
    { ...base, settings: { ...spec, maxLength: 256 } },
    { ...base, settings: { ...spec, kind: 'static-pooled' } },
  ];
  const keys = new Set([embeddingKey(base), ...variants.map(embeddingKey)]);
  expect(keys.size).toBe(variants.length + 1);
});

test('the fingerprint notices edited, reordered or re-split texts', () => {
  const f = fingerprintTexts(['a', 'b'], ['x y', 'z']);
  expect(f).toMatch(/^[0-9a-f]{8}$/);
  expect(fingerprintTexts(['a', 'b'], ['x y', 'z'])).toBe(f);
  expect(fingerprintTexts(['b', 'a'], ['z', 'x y'])).not.toBe(f);
  expect(fingerprintTexts(['a', 'b'], ['x', 'y z'])).not.toBe(f);
  expect(fingerprintTexts(['a', 'b'], ['x y', 'Z'])).not.toBe(f);
});

async function cacheBehaviour(open: () => EmbeddingStore) {
  const ids = ['d1', 'd2', 'd3'];
  const vectors = clusteredVectors(3, 8, { seed: 9 });
  let computed = 0;
  const compute = async () => {
    computed++;
    return vectors;
  };
  const key = embeddingKey(base);
  const first = await embedThroughCache(open(), key, ids, 'f32', compute);
  expect(first.hit).toBe(false);
  // A new store instance on the same database stands for a page reload.
  const second = await embedThroughCache(open(), key, ids, 'f32', compute);
  expect(second.hit).toBe(true);
  expect(second.vectors.data).toEqual(vectors.data);
  expect(computed).toBe(1);
  // Same key but other ids (a changed dataset that kept its name): recomputed.
  const third = await embedThroughCache(open(), key, ['d1', 'd2', 'd4'], 'f32', compute);
  expect(third.hit).toBe(false);
  expect(computed).toBe(2);
}

test('MemoryEmbeddingStore: miss, then hit, then miss on other ids', async () => {
  const store = new MemoryEmbeddingStore();
  await cacheBehaviour(() => store);
});

test('DexieEmbeddingStore (IndexedDB): the entry survives a new connection; keys and delete work', async () => {
  const name = `test-embeddings-${Math.random()}`;
  const opened: DexieEmbeddingStore[] = [];
  await cacheBehaviour(() => {
    const store = new DexieEmbeddingStore(name);
    opened.push(store);
    return store;
  });
  const store = new DexieEmbeddingStore(name);
  expect(await store.keys()).toEqual([embeddingKey(base)]);
  await store.delete(embeddingKey(base));
  expect(await store.get(embeddingKey(base))).toBeUndefined();
  for (const s of [...opened, store]) s.close();
});

test('a lossy encoding gives the same vectors on the first run and after a reload', async () => {
  const store = new MemoryEmbeddingStore();
  const vectors = clusteredVectors(4, 8, { seed: 10 });
  const key = embeddingKey({ ...base, encoding: 'int8' });
  const first = await embedThroughCache(store, key, ['a', 'b', 'c', 'd'], 'int8', async () => vectors);
  const second = await embedThroughCache(store, key, ['a', 'b', 'c', 'd'], 'int8', async () => vectors);
  expect(second.hit).toBe(true);
  expect(second.vectors.data).toEqual(first.vectors.data);
  expect(first.vectors.data).not.toEqual(vectors.data);
});
