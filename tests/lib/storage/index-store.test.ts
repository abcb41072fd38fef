import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PlaygroundDatabase } from '../../../src/lib/storage/db.ts';
import { findIndex, indexRowKey, saveIndex, type IndexSpec } from '../../../src/lib/storage/index-store.ts';

let db: PlaygroundDatabase;
let counter = 0;

beforeEach(async () => {
  db = new PlaygroundDatabase(`index-store-test-${++counter}`);
  await db.open();
});

afterEach(async () => {
  await db.delete();
});

const spec: IndexSpec = { collectionId: 'beir/scifact', kind: 'bm25', version: 3, settings: { analyzer: 'english', collection: { docCount: 5183, createdAt: 7 } } };
const bytes = (...values: number[]) => Uint8Array.from(values).buffer;

describe('index store (IndexedDB indexes table)', () => {
  it('keys a row by collection, kind and the settings key', () => {
    expect(indexRowKey(spec)).toBe('beir/scifact|bm25|{"analyzer":"english","collection":{"createdAt":7,"docCount":5183}}');
  });

  it('stores an index and finds it by collection, kind, version and settings', async () => {
    expect(await findIndex(db, spec)).toEqual({ status: 'missing' });
    await saveIndex(db, spec, bytes(1, 2, 3), 12.5);
    const found = await findIndex(db, { ...spec, settings: { collection: { createdAt: 7, docCount: 5183 }, analyzer: 'english' } });
    expect(found.status).toBe('found');
    if (found.status !== 'found') return;
    expect(new Uint8Array(found.row.data)).toEqual(Uint8Array.of(1, 2, 3));
    expect(found.row).toMatchObject({ collectionId: 'beir/scifact', kind: 'bm25', version: 3, bytes: 3, buildMs: 12.5 });
  });

  it('reports a row of another format version as stale, and a rebuild replaces it', async () => {
    await saveIndex(db, { ...spec, version: 2 }, bytes(9), 1);
    const stale = await findIndex(db, spec);
    expect(stale).toMatchObject({ status: 'stale', reason: 'format version 2, expected 3' });
    await saveIndex(db, spec, bytes(1), 1);
    expect((await findIndex(db, spec)).status).toBe('found');
    expect(await db.indexes.count()).toBe(1);
  });

  it('keeps indexes of different settings side by side and misses settings never built', async () => {
    await saveIndex(db, spec, bytes(1), 1);
    await saveIndex(db, { ...spec, settings: { ...spec.settings, analyzer: 'standard' } }, bytes(2), 1);
    expect(await db.indexes.count()).toBe(2);
    expect((await findIndex(db, { ...spec, settings: { ...spec.settings, analyzer: 'simple' } })).status).toBe('missing');
    expect((await findIndex(db, { ...spec, kind: 'hnsw' })).status).toBe('missing');
  });

  it('reports a row whose stored settings differ from its key as stale', async () => {
    await db.indexes.put({ key: indexRowKey(spec), collectionId: spec.collectionId, kind: 'bm25', version: 3, settings: { analyzer: 'other' }, data: bytes(1), bytes: 1, buildMs: 0, createdAt: 0 });
    expect(await findIndex(db, spec)).toMatchObject({ status: 'stale', reason: 'built with other settings' });
  });
});
