/**
 * The worker's logic (Bm25Service) in Node, on SciFact stored in fake-indexeddb: build with progress,
 * store, load back without re-indexing, rebuild on any settings or format-version mismatch or unreadable
 * data, cancel, and live k1/b/k — results compared with the TypeScript reference BM25 (src/lib/bm25).
 */
import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import { englishAnalyzer } from '../../../src/lib/analysis/english-analyzer.ts';
import { buildBm25Index, type Bm25Index } from '../../../src/lib/bm25/bm25-index.ts';
import { searchBm25 } from '../../../src/lib/bm25/bm25-search.ts';
import { BM25_INDEX_KIND, Bm25Service, bm25DocText, type IndexProgress } from '../../../src/lib/services/bm25-service.ts';
import { PlaygroundDatabase } from '../../../src/lib/storage/db.ts';
import { putDocuments } from '../../../src/lib/storage/documents.ts';
import type { Query } from '../../../src/lib/types.ts';
import { analyzedSciFact, kernelModule } from '../bm25-wasm/fixtures.ts';

const COLLECTION = 'beir/scifact';
let db: PlaygroundDatabase;
let reference: Bm25Index;
let testQueries: Query[];

function newService(batchSize = 1000): Bm25Service {
  return new Bm25Service({ db, loadKernel: kernelModule, batchSize });
}

async function storedRow() {
  const rows = await db.indexes.where('collectionId').equals(COLLECTION).filter((row) => row.kind === BM25_INDEX_KIND).toArray();
  return rows.filter((row) => (row.settings as { analyzer?: string }).analyzer === 'english');
}

beforeAll(async () => {
  const { collection, docs } = await analyzedSciFact();
  db = new PlaygroundDatabase('bm25-service-test');
  await db.open();
  await db.collections.put({
    id: COLLECTION,
    name: 'SciFact',
    status: 'ready',
    source: { kind: 'local', detail: 'test' },
    docCount: collection.docs.length,
    queryCount: collection.queries.size,
    splits: ['test', 'train'],
    createdAt: 1,
    bytes: 0,
  });
  await putDocuments(db, COLLECTION, collection.docs);
  reference = buildBm25Index(docs);
  const qrels = collection.qrels.get('test')!;
  testQueries = [...collection.queries.values()].filter((query) => qrels.has(query.id)).slice(0, 60);
});

afterAll(async () => {
  await db?.delete();
});

function expectReferenceResults(service: Bm25Service, options: { k?: number; k1?: number; b?: number } = {}): void {
  const analyzer = englishAnalyzer();
  const params = { k1: options.k1 ?? 0.9, b: options.b ?? 0.4 };
  for (const query of testQueries) {
    const expected = searchBm25(reference, { id: query.id, terms: analyzer.analyze(query.text) }, { k: options.k ?? 1000, params });
    expect(service.search(COLLECTION, query, options)).toEqual(expected);
  }
}

describe('Bm25Service (the BM25 worker) over IndexedDB', () => {
  it('indexes the stored documents with progress, stores the index, and searches like the reference', async () => {
    const service = newService();
    const progress: IndexProgress[] = [];
    const info = await service.openIndex({ collectionId: COLLECTION }, (p) => progress.push(p));
    expect(info).toMatchObject({ source: 'built', numDocs: 5183, numTerms: reference.terms.length, numPostings: reference.postingsDocs.length });
    expect(info.settings).toEqual({ analyzer: 'english', field: 'title+text', collection: { docCount: 5183, createdAt: 1 } });
    const indexing = progress.filter((p) => p.phase === 'indexing');
    expect(indexing.map((p) => p.docsDone)).toEqual([1000, 2000, 3000, 4000, 5000, 5183]);
    expect(indexing.every((p) => p.docsTotal === 5183 && p.docsPerSecond > 0)).toBe(true);
    expect(progress.at(-1)?.phase).toBe('saving');
    expect(await storedRow()).toHaveLength(1);
    expectReferenceResults(service);
  });

  it('loads the stored index in a new worker without re-indexing', async () => {
    const service = newService();
    const progress: IndexProgress[] = [];
    const info = await service.openIndex({ collectionId: COLLECTION }, (p) => progress.push(p));
    expect(info.source).toBe('stored');
    expect(progress.some((p) => p.phase === 'indexing')).toBe(false);
    expectReferenceResults(service);
  });

  it('warms its search path on made-up queries between other requests, changing no result', async () => {
    const service = newService();
    await service.openIndex({ collectionId: COLLECTION });
    const before = service.searchManyPacked(COLLECTION, testQueries.slice(0, 5), { k: 1000, k1: 1.2, b: 0.75 });
    // The slices are timed on a clock that moves a quarter of a millisecond at each reading: a 1 ms slice
    // runs a few queries and yields, on a machine fast enough to warm 200 within a real millisecond too.
    let now = 0;
    const clock = vi.spyOn(performance, 'now').mockImplementation(() => (now += 0.25));
    onTestFinished(() => clock.mockRestore());
    // A request made while it warms is answered between its slices.
    const warming = service.warmSearch(COLLECTION, { queries: 200, sliceMs: 1 });
    let answeredWhileWarming = false;
    setTimeout(() => (answeredWhileWarming = service.search(COLLECTION, { text: testQueries[0]!.text }).length > 0), 0);
    expect(await warming).toBe(200);
    expect(answeredWhileWarming).toBe(true);
    expect(service.searchManyPacked(COLLECTION, testQueries.slice(0, 5), { k: 1000, k1: 1.2, b: 0.75 })).toEqual(before);
    expectReferenceResults(service);
    // Closed meanwhile, or never opened: it stops.
    const closing = service.warmSearch(COLLECTION, { queries: 10_000, sliceMs: 1 });
    service.close(COLLECTION);
    expect(await closing).toBeLessThan(10_000);
    expect(await service.warmSearch('nothing-open')).toBe(0);
  });

  it('packs many queries as search answers each one, also past the packed arrays\' first size and without the query\'s own id', async () => {
    const service = newService();
    await service.openIndex({ collectionId: COLLECTION });
    const ids = service.docIds(COLLECTION);
    // A query named like a document (a BEIR corpus as its own queries) does not retrieve that document.
    const own = service.search(COLLECTION, { text: 'cells' }, { k: 1 })[0]!.docId;
    const queries = [...testQueries.slice(0, 39), { id: own, text: 'cells' }];
    for (const k of [10, 5183]) {
      const packed = service.searchManyPacked(COLLECTION, queries, { k, k1: 1.2, b: 0.75 });
      expect(packed.offsets).toHaveLength(queries.length + 1);
      queries.forEach((query, q) => {
        const start = packed.offsets[q]!;
        const end = packed.offsets[q + 1]!;
        const hits = Array.from(packed.rows.subarray(start, end), (row, i) => ({ docId: ids[row]!, score: packed.scores[start + i]! }));
        expect(hits).toEqual(service.search(COLLECTION, query, { k, k1: 1.2, b: 0.75 }));
      });
      expect(packed.rows).toHaveLength(packed.offsets[queries.length]!);
    }
    const last = service.searchManyPacked(COLLECTION, queries.slice(-1), { k: 5183 });
    expect(last.rows.length).toBeGreaterThan(0);
    expect(Array.from(last.rows, (row) => ids[row])).not.toContain(own);
  });

  it('changes k1, b and k live on the open index', async () => {
    const service = newService();
    await service.openIndex({ collectionId: COLLECTION });
    expectReferenceResults(service, { k1: 1.2, b: 0.75, k: 10 });
    expectReferenceResults(service, { k1: 0.5, b: 1, k: 100 });
  });

  it('builds a separate index for another analyzer, keeping the first', async () => {
    const service = newService();
    const info = await service.openIndex({ collectionId: COLLECTION, analyzer: 'standard' });
    expect(info.source).toBe('built');
    expect(service.analyze(COLLECTION, 'The cells')).toEqual(['the', 'cells']);
    expect((await newService().openIndex({ collectionId: COLLECTION })).source).toBe('stored');
  });

  it('rebuilds when the stored format version differs', async () => {
    const [row] = await storedRow();
    await db.indexes.update(row!.key, { version: 0 });
    const info = await newService().openIndex({ collectionId: COLLECTION });
    expect(info.source).toBe('built');
    expect(info.rebuildReason).toMatch(/format version 0/);
    expect((await storedRow())[0]!.version).toBeGreaterThan(0);
  });

  it('rebuilds when the stored data is unreadable', async () => {
    const [row] = await storedRow();
    await db.indexes.update(row!.key, { data: new Uint8Array(64).buffer });
    const service = newService();
    const info = await service.openIndex({ collectionId: COLLECTION });
    expect(info.source).toBe('built');
    expect(info.rebuildReason).toMatch(/unreadable/);
    expectReferenceResults(service, { k: 10 });
  });

  it('rebuilds when the collection changed since the index was built', async () => {
    const { collection } = await analyzedSciFact();
    // As an import would leave it: one more document, counted in the collection's row.
    await putDocuments(db, COLLECTION, [...collection.docs, { id: 'extra', title: 'Extra', text: 'an added document about cells' }]);
    await db.collections.update(COLLECTION, { docCount: collection.docs.length + 1 });
    try {
      const info = await newService().openIndex({ collectionId: COLLECTION });
      expect(info.source).toBe('built');
      expect(info.numDocs).toBe(5184);
    } finally {
      await putDocuments(db, COLLECTION, collection.docs);
      await db.collections.update(COLLECTION, { docCount: collection.docs.length });
    }
    expect((await newService().openIndex({ collectionId: COLLECTION })).source).toBe('stored');
  });

  it("takes the document count from a ready collection's row, and counts the stored corpus of any other", async () => {
    const service = newService();
    expect((await service.settingsFor(COLLECTION)).collection).toEqual({ docCount: 5183, createdAt: 1 });
    await putDocuments(db, 'no-row', [{ id: 'a', title: '', text: 'one' }, { id: 'b', title: '', text: 'two' }]);
    expect((await service.settingsFor('no-row')).collection).toEqual({ docCount: 2, createdAt: null });
  });

  it('cancels a build: the call rejects with AbortError, nothing is stored, the open index stays usable', async () => {
    const service = newService(500);
    await service.openIndex({ collectionId: COLLECTION });
    const before = (await storedRow())[0]!.createdAt;
    let seen = 0;
    const build = service.openIndex({ collectionId: COLLECTION, rebuild: true }, (p) => {
      if (p.phase === 'indexing' && ++seen === 2) service.cancel();
    });
    await expect(build).rejects.toMatchObject({ name: 'AbortError' });
    expect(seen).toBe(2);
    expect((await storedRow())[0]!.createdAt).toBe(before);
    expectReferenceResults(service, { k: 10 });
  });

  it("with store 'after-answer' answers a build first, searches while it stores, then stores the index it answered with", async () => {
    const service = new Bm25Service({ db, loadKernel: kernelModule, store: 'after-answer' });
    const events: string[] = [];
    const written = () => void events.push('stored');
    db.indexes.hook('creating', written);
    db.indexes.hook('updating', written);
    onTestFinished(() => {
      db.indexes.hook('creating').unsubscribe(written);
      db.indexes.hook('updating').unsubscribe(written);
    });
    const progress: IndexProgress[] = [];
    const info = await service.openIndex({ collectionId: COLLECTION, rebuild: true }, (p) => progress.push(p));
    events.push('answered');
    expect(info.source).toBe('built');
    expect(progress.some((p) => p.phase === 'saving')).toBe(false);
    expectReferenceResults(service, { k: 10 });
    await service.stored(COLLECTION);
    expect(events).toEqual(['answered', 'stored']);
    const [row] = await storedRow();
    expect(row!.bytes).toBe(info.storedBytes);
    expect(row!.data.byteLength).toBe(info.storedBytes);
    const loaded = newService();
    expect((await loaded.openIndex({ collectionId: COLLECTION })).source).toBe('stored');
    expectReferenceResults(loaded);
  });

  it('explains a hit with the score the search gave it', async () => {
    const service = newService();
    await service.openIndex({ collectionId: COLLECTION });
    const query = testQueries[0]!;
    const [top] = service.search(COLLECTION, query, { k: 1 });
    const explanation = service.explain(COLLECTION, query.text, top!.docId);
    expect(explanation.score).toBe(top!.score);
    expect(bm25DocText({ title: 'T', text: 'x' })).toBe('T x');
  });

  it('parses the weighted syntax with the index analyzer, searches and explains weighted bags like the reference', async () => {
    const service = newService();
    await service.openIndex({ collectionId: COLLECTION });
    const parsed = service.parseQuery(COLLECTION, 'microRNAs^2 cancer +tumor^0.5');
    expect(parsed.terms).toEqual([
      { term: 'microrna', weight: 2 },
      { term: 'cancer', weight: 1 },
      { term: 'tumor', weight: 0.5 },
    ]);
    const expected = searchBm25(reference, { weighted: parsed.terms }, { k: 20 });
    const hits = service.search(COLLECTION, { text: '', weighted: parsed.terms }, { k: 20 });
    expect(hits).toEqual(expected);
    expect(service.searchMany(COLLECTION, [{ id: 'w', text: '', weighted: parsed.terms }], { k: 20 }).get('w')).toEqual(expected);
    const explanation = service.explain(COLLECTION, parsed.terms, hits[0]!.docId);
    expect(explanation.score).toBe(hits[0]!.score);
    expect(explanation.terms.map((t) => [t.term, t.boost])).toEqual([['microrna', 2], ['cancer', 1], ['tumor', 0.5]]);
    expect(explanation.terms.reduce((sum, t) => sum + t.contribution, 0)).toBeCloseTo(hits[0]!.score, 5);
  });
});
