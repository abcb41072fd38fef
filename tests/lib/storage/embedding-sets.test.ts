import 'fake-indexeddb/auto';
import fc from 'fast-check';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { clusteredVectors } from '../../../src/lib/dense/synthetic-vectors.ts';
import type { VectorMatrix } from '../../../src/lib/dense/vector-matrix.ts';
import { deleteCollection } from '../../../src/lib/storage/collections.ts';
import { PlaygroundDatabase } from '../../../src/lib/storage/db.ts';
import {
  appendEmbeddingChunk,
  beginEmbeddingSet,
  EmbeddingSetChangedError,
  embeddingSetBytes,
  embeddingSetKey,
  embedThroughSets,
  findEmbeddingSet,
  readEmbeddingSet,
  type EmbeddingSetSpec,
} from '../../../src/lib/storage/embedding-sets.ts';
import { fingerprintTexts } from '../../../src/lib/data/fingerprint.ts';
import { EmbeddingStorageFullError } from '../../../src/lib/storage/quota.ts';

let count = 0;
const opened: PlaygroundDatabase[] = [];
function freshDb(): PlaygroundDatabase {
  const db = new PlaygroundDatabase(`embedding-sets-test-${count++}`);
  opened.push(db);
  return db;
}
afterEach(() => {
  for (const db of opened.splice(0)) db.close();
  vi.restoreAllMocks();
});

const spec: EmbeddingSetSpec = { collectionId: 'c', part: 'corpus', modelId: 'local/m', dtype: 'fp32', encoding: 'f32', settings: { pooling: 'mean', normalize: true } };
const content = { docCount: 10, fingerprint: '10:abcd0123' };

function rows(matrix: VectorMatrix, start: number, end: number): VectorMatrix {
  return { rows: end - start, dim: matrix.dim, data: matrix.data.slice(start * matrix.dim, end * matrix.dim) };
}

const ids = Array.from({ length: 10 }, (_, i) => `d${i}`);

describe('checkpointed embedding sets', () => {
  test('the key names collection, part, model, dtype, encoding and settings (in any key order)', () => {
    const key = embeddingSetKey(spec);
    expect(embeddingSetKey({ ...spec, settings: { normalize: true, pooling: 'mean' } })).toBe(key);
    const others = [
      { ...spec, collectionId: 'd' },
      { ...spec, part: 'queries' as const },
      { ...spec, modelId: 'local/n' },
      { ...spec, dtype: 'q8' },
      { ...spec, encoding: 'f16' as const },
      { ...spec, settings: { pooling: 'cls', normalize: true } },
    ].map(embeddingSetKey);
    expect(new Set([key, ...others]).size).toBe(7);
  });

  test('chunks are checkpoints: after each one the set is partial, then complete; reading gives every row in order', async () => {
    const db = freshDb();
    const vectors = clusteredVectors(10, 6, { seed: 3 });
    let set = await beginEmbeddingSet(db, spec, content, 'wasm');
    expect(await findEmbeddingSet(db, set.key, content)).toMatchObject({ status: 'partial' });
    for (const [start, end] of [[0, 4], [4, 8], [8, 10]] as const) {
      set = await appendEmbeddingChunk(db, set, { ids: ids.slice(start, end), vectors: rows(vectors, start, end), embedMs: 10 });
      expect(set.done).toBe(end);
      expect((await db.embeddingSets.get(set.key))?.done).toBe(end);
    }
    expect(await findEmbeddingSet(db, set.key, content)).toMatchObject({ status: 'complete' });
    const read = await readEmbeddingSet(db, set);
    expect(read.ids).toEqual(ids);
    expect(read.vectors).toEqual(vectors);
    expect(set).toMatchObject({ dimensions: 6, embedMs: 30, docsPerSecond: (10 * 1000) / 30 });
    expect(embeddingSetBytes(set)).toBe(10 * 6 * 4);
  });

  test('begin resumes a partial set of the same texts, and starts a set of other texts over', async () => {
    const db = freshDb();
    const vectors = clusteredVectors(10, 4, { seed: 1 });
    let set = await beginEmbeddingSet(db, spec, content, 'wasm');
    set = await appendEmbeddingChunk(db, set, { ids: ids.slice(0, 3), vectors: rows(vectors, 0, 3), embedMs: 1 });
    const resumed = await beginEmbeddingSet(db, spec, content, 'wasm');
    expect(resumed).toEqual(set);
    const changed = { docCount: 10, fingerprint: '10:ffff0000' };
    expect(await findEmbeddingSet(db, set.key, changed)).toMatchObject({ status: 'stale' });
    const fresh = await beginEmbeddingSet(db, spec, changed, 'wasm');
    expect(fresh).toMatchObject({ done: 0, fingerprint: changed.fingerprint, dimensions: 0 });
    expect(await db.embeddingChunks.where('setKey').equals(set.key).count()).toBe(0);
  });

  test('a chunk for a set that was restarted or deleted meanwhile is refused, and nothing of it is stored', async () => {
    const db = freshDb();
    const vectors = clusteredVectors(10, 4, { seed: 2 });
    const set = await beginEmbeddingSet(db, spec, content, 'wasm');
    const first = await appendEmbeddingChunk(db, set, { ids: ids.slice(0, 2), vectors: rows(vectors, 0, 2), embedMs: 1 });
    // A stale row (two runs racing without locks): its `done` is behind the stored one.
    await expect(appendEmbeddingChunk(db, set, { ids: ids.slice(0, 2), vectors: rows(vectors, 0, 2), embedMs: 1 })).rejects.toBeInstanceOf(EmbeddingSetChangedError);
    await deleteCollection(db, spec.collectionId, { locks: null });
    await expect(appendEmbeddingChunk(db, first, { ids: ids.slice(2, 4), vectors: rows(vectors, 2, 4), embedMs: 1 })).rejects.toThrow(/deleted/);
    expect(await db.embeddingChunks.count()).toBe(0);
    expect(await db.embeddingSets.count()).toBe(0);
  });

  test('quota exceeded mid-way: the earlier checkpoints stay, the set is resumable, the message says how far it got', async () => {
    const db = freshDb();
    const vectors = clusteredVectors(10, 4, { seed: 4 });
    let set = await beginEmbeddingSet(db, spec, content, 'wasm');
    set = await appendEmbeddingChunk(db, set, { ids: ids.slice(0, 5), vectors: rows(vectors, 0, 5), embedMs: 1 });
    const put = vi.spyOn(db.embeddingChunks, 'put').mockImplementationOnce(() => Promise.reject(new DOMException('full', 'QuotaExceededError')) as never);
    const error = await appendEmbeddingChunk(db, set, { ids: ids.slice(5, 10), vectors: rows(vectors, 5, 10), embedMs: 1 }, '"Corpus"').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EmbeddingStorageFullError);
    expect((error as Error).message).toContain('the embeddings of "Corpus": the browser refused to store more after 5 of 10 documents');
    expect((error as Error).message).toContain('The browser said: "QuotaExceededError: full".');
    put.mockRestore();
    expect(await findEmbeddingSet(db, set.key, content)).toMatchObject({ status: 'partial', row: { done: 5 } });
    const again = await beginEmbeddingSet(db, spec, content, 'wasm');
    const done = await appendEmbeddingChunk(db, again, { ids: ids.slice(5, 10), vectors: rows(vectors, 5, 10), embedMs: 1 });
    expect((await readEmbeddingSet(db, done)).vectors).toEqual(vectors);
  });

  test('int8 and f16 sets read back as the codec decodes them', async () => {
    const db = freshDb();
    const vectors = clusteredVectors(10, 8, { seed: 5 });
    for (const encoding of ['int8', 'f16'] as const) {
      let set = await beginEmbeddingSet(db, { ...spec, encoding }, content, 'wasm');
      set = await appendEmbeddingChunk(db, set, { ids: ids.slice(0, 6), vectors: rows(vectors, 0, 6), embedMs: 1 });
      set = await appendEmbeddingChunk(db, set, { ids: ids.slice(6), vectors: rows(vectors, 6, 10), embedMs: 1 });
      const read = await readEmbeddingSet(db, set);
      for (let i = 0; i < vectors.data.length; i++) expect(Math.abs(read.vectors.data[i]! - vectors.data[i]!)).toBeLessThan(encoding === 'int8' ? 0.02 : 1e-3);
      expect(embeddingSetBytes(set)).toBe(encoding === 'int8' ? 10 * (8 + 4) : 10 * 8 * 2);
    }
  });

  test('property: any chunking of any rows reads back exactly (f32)', async () => {
    const db = freshDb();
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 40 }), fc.integer({ min: 1, max: 9 }), fc.array(fc.integer({ min: 1, max: 12 }), { minLength: 1, maxLength: 12 }), async (n, dim, sizes) => {
        const vectors = clusteredVectors(n, dim, { seed: n * 31 + dim });
        const names = Array.from({ length: n }, (_, i) => `id-${i}`);
        const local = { ...spec, collectionId: `p-${n}-${dim}-${sizes.join('.')}` };
        const about = { docCount: n, fingerprint: 'f' };
        let set = await beginEmbeddingSet(db, local, about, 'cpu');
        let at = 0;
        for (let i = 0; at < n; i++) {
          const end = Math.min(n, at + sizes[i % sizes.length]!);
          set = await appendEmbeddingChunk(db, set, { ids: names.slice(at, end), vectors: rows(vectors, at, end), embedMs: 1 });
          at = end;
        }
        const read = await readEmbeddingSet(db, set);
        expect(read.ids).toEqual(names);
        expect(read.vectors).toEqual(vectors);
        await deleteCollection(db, local.collectionId, { locks: null });
      }),
      { numRuns: 40 },
    );
  });
});

describe('whole matrices through the sets (the diagnostics page\'s embedding cache)', () => {
  const texts = ids.map((id) => `text of ${id}`);

  function counting(vectors: VectorMatrix) {
    const calls = { count: 0 };
    const compute = async () => {
      calls.count++;
      return vectors;
    };
    return { calls, compute };
  }

  test('a miss computes and stores; a new connection (a reload) hits; other ids, texts or dtype miss', async () => {
    const name = `embed-through-sets-${count++}`;
    const vectors = clusteredVectors(10, 6, { seed: 21 });
    const { calls, compute } = counting(vectors);
    const first = new PlaygroundDatabase(name);
    opened.push(first);
    const miss = await embedThroughSets(first, spec, { ids, texts }, compute, 'wasm');
    expect([miss.hit, miss.key, calls.count]).toEqual([false, embeddingSetKey(spec), 1]);
    expect(miss.vectors).toEqual(vectors);
    first.close();

    const reloaded = new PlaygroundDatabase(name);
    opened.push(reloaded);
    const hit = await embedThroughSets(reloaded, spec, { ids, texts }, compute);
    expect([hit.hit, hit.key, calls.count]).toEqual([true, miss.key, 1]);
    expect(hit.vectors).toEqual(vectors);

    const otherIds = await embedThroughSets(reloaded, spec, { ids: [...ids.slice(0, 9), 'other'], texts }, compute);
    expect([otherIds.hit, calls.count]).toEqual([false, 2]);
    const otherTexts = await embedThroughSets(reloaded, spec, { ids, texts: texts.map((text) => text.toUpperCase()) }, compute);
    expect([otherTexts.hit, calls.count]).toEqual([false, 3]);
    const otherDtype = await embedThroughSets(reloaded, { ...spec, dtype: 'q8' }, { ids, texts }, compute);
    expect([otherDtype.hit, calls.count]).toEqual([false, 4]);
    expect(otherDtype.key).not.toBe(miss.key);
    expect((await embedThroughSets(reloaded, { ...spec, dtype: 'q8' }, { ids, texts }, compute)).hit).toBe(true);
  });

  test('a lossy encoding gives the same vectors on the first run as after a reload; large matrices are stored in chunks', async () => {
    const db = freshDb();
    const n = 5000;
    const many = Array.from({ length: n }, (_, i) => `doc-${i}`);
    const vectors = clusteredVectors(n, 6, { seed: 11 });
    const int8 = { ...spec, encoding: 'int8' as const };
    const first = await embedThroughSets(db, int8, { ids: many, texts: many }, async () => vectors);
    const again = await embedThroughSets(db, int8, { ids: many, texts: many }, async () => vectors);
    expect(again.hit).toBe(true);
    expect(again.vectors).toEqual(first.vectors);
    expect(first.vectors.data).not.toEqual(vectors.data);
    expect(await db.embeddingChunks.where('setKey').equals(first.key).count()).toBe(2);
  });

  test('vectors that do not match the texts are refused, nothing complete is stored', async () => {
    const db = freshDb();
    await expect(embedThroughSets(db, spec, { ids, texts }, async () => clusteredVectors(9, 4, { seed: 2 }))).rejects.toThrow(RangeError);
    const found = await findEmbeddingSet(db, embeddingSetKey(spec), { docCount: 10, fingerprint: fingerprintTexts(ids, texts) });
    expect(found.status).not.toBe('complete');
  });

  test('the texts\' fingerprint notices edited, reordered or re-split texts', () => {
    const f = fingerprintTexts(['a', 'b'], ['x y', 'z']);
    expect(f).toMatch(/^[0-9a-f]{8}$/);
    expect(fingerprintTexts(['a', 'b'], ['x y', 'z'])).toBe(f);
    expect(fingerprintTexts(['b', 'a'], ['z', 'x y'])).not.toBe(f);
    expect(fingerprintTexts(['a', 'b'], ['x', 'y z'])).not.toBe(f);
    expect(fingerprintTexts(['a', 'b'], ['x y', 'Z'])).not.toBe(f);
  });
});
