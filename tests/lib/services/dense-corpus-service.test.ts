import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Embedder, EmbeddingDevice } from '../../../src/lib/dense/embedder.ts';
import { SHIPPED_VECTORS_FORMAT, type ShippedVectors } from '../../../src/lib/dense/shipped-vectors.ts';
import { exactSearch } from '../../../src/lib/dense/exact-search.ts';
import type { HnswIndex } from '../../../src/lib/dense/hnsw-index.ts';
import { resolveModelSpec } from '../../../src/lib/dense/registry.ts';
import { dot, type VectorMatrix } from '../../../src/lib/dense/vector-matrix.ts';
import { DEFAULT_HNSW } from '../../../src/lib/retrievers/config.ts';
import { deleteCollection } from '../../../src/lib/storage/collections.ts';
import { PlaygroundDatabase } from '../../../src/lib/storage/db.ts';
import { putDocuments } from '../../../src/lib/storage/documents.ts';
import { findEmbeddingSet } from '../../../src/lib/storage/embedding-sets.ts';
import { EmbeddingStorageFullError } from '../../../src/lib/storage/quota.ts';
import { MemoryLocks } from '../storage/memory-locks.ts';
import { DenseCorpusService, type DenseProgress, type HnswFiles } from '../../../src/lib/services/dense-corpus-service.ts';
import { DOCS, Gate, trigramVector } from '../../app/engine/fakes.ts';

// DenseCorpusService (the dense column worker's work) on fake-indexeddb, with a deterministic embedder
// (hashed trigrams) standing in for transformers.js; HNSW is the real hnswlib-wasm.

const C = 'starter';
const spec = resolveModelSpec('local/glove-100d-sif');

class TrigramEmbedder implements Embedder {
  readonly spec = spec;
  readonly dtype = 'fp32' as const;
  /** `cpu-lookup` stands for a static table (whose collection queries are stored). */
  constructor(readonly device: EmbeddingDevice = 'cpu') {}
  calls: string[][] = [];
  gate: Gate | undefined;
  /** Call number (1-based) that waits for `gate`; default every call. */
  gateCall: number | undefined;
  /** Call number (1-based) that fails, as a crash or a closed tab would stop it. */
  failCall: number | undefined;

  async embed(texts: readonly string[], options: { signal?: AbortSignal; onProgress?: (p: { done: number; total: number; docsPerSecond: number; etaSeconds: number; batchSize: number }) => void } = {}): Promise<VectorMatrix> {
    this.calls.push([...texts]);
    if (this.failCall === this.calls.length) throw new Error('the worker died');
    if (this.gate && (this.gateCall === undefined || this.gateCall === this.calls.length)) {
      const signal = options.signal;
      await new Promise<void>((resolve, reject) => {
        signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
        this.gate!.wait().then(resolve);
      });
    }
    const dim = trigramVector('').length;
    const data = new Float32Array(texts.length * dim);
    texts.forEach((text, r) => data.set(trigramVector(text), r * dim));
    options.onProgress?.({ done: texts.length, total: texts.length, docsPerSecond: 1, etaSeconds: 0, batchSize: texts.length });
    return { rows: texts.length, dim, data };
  }

  embedEach(texts: readonly string[]): Promise<VectorMatrix> {
    return this.embed(texts);
  }

  async dispose(): Promise<void> {}
}

/** Saved graphs kept in memory (the worker uses hnswlib's IndexedDB file system). */
class MemoryHnswFiles implements HnswFiles {
  files = new Map<string, HnswIndex>();
  async load(filename: string): Promise<HnswIndex | undefined> {
    return this.files.get(filename);
  }
  async save(index: HnswIndex, filename: string): Promise<void> {
    this.files.set(filename, index);
  }
}

let db: PlaygroundDatabase;
let counter = 0;

/** The embedding sets stored for the collection, complete and partial. */
const storedSets = () => db.embeddingSets.where('collectionId').equals(C).toArray();

beforeEach(async () => {
  db = new PlaygroundDatabase(`dense-corpus-test-${++counter}`);
  await db.open();
  await db.collections.put({
    id: C,
    name: 'Starter',
    status: 'ready',
    source: { kind: 'starter', detail: '' },
    docCount: DOCS.length,
    queryCount: 0,
    splits: [],
    createdAt: 42,
    bytes: 0,
  });
  await putDocuments(db, C, DOCS);
});

/** The texts the embedder sees for documents `from … to − 1`. */
function passages(from = 0, to = DOCS.length): string[] {
  return DOCS.slice(from, to).map((d) => `${d.title} ${d.text}`);
}

const EXACT = { collectionId: C, search: 'exact' as const, hnsw: DEFAULT_HNSW };

afterEach(async () => {
  vi.restoreAllMocks();
  await db.delete();
});

/** The corpus vectors the service should hold: one trigram vector of title + " " + text per document. */
function corpusMatrix(): VectorMatrix {
  const dim = trigramVector('').length;
  const data = new Float32Array(DOCS.length * dim);
  DOCS.forEach((doc, r) => data.set(trigramVector(`${doc.title} ${doc.text}`), r * dim));
  return { rows: DOCS.length, dim, data };
}

describe('DenseCorpusService', () => {
  it('reads the documents itself, embeds title + text chunk by chunk, stores each chunk, and a new worker finds them stored', async () => {
    const embedder = new TrigramEmbedder();
    const service = new DenseCorpusService({ db, embedder, chunkSize: 3, locks: null });
    const progress: DenseProgress[] = [];
    const info = await service.open(EXACT, (p) => progress.push(p));
    expect(info).toMatchObject({ docs: DOCS.length, fromCache: false });
    expect(info.resumedFrom).toBeUndefined();
    expect(embedder.calls).toEqual([passages(0, 3), passages(3, 6), passages(6, 8)]);
    expect(progress.filter((p) => p.phase === 'embedding').map((p) => p.done)).toEqual([0, 3, 6, 8]);
    const [set] = await storedSets();
    expect(set).toMatchObject({ done: 8, docCount: 8, part: 'corpus', modelId: spec.id, dtype: 'fp32', encoding: 'f32' });
    expect(await db.embeddingChunks.where('setKey').equals(set!.key).count()).toBe(3);

    const again = new TrigramEmbedder();
    const reloaded = new DenseCorpusService({ db, embedder: again, locks: null });
    expect(await reloaded.open(EXACT)).toMatchObject({ fromCache: true, embedMs: 0 });
    expect(again.calls).toEqual([]);
    expect(await reloaded.search(C, ['stale bread loaf'], 3, { search: 'exact', hnsw: DEFAULT_HNSW })).toEqual(await service.search(C, ['stale bread loaf'], 3, { search: 'exact', hnsw: DEFAULT_HNSW }));
  });

  it('with checkpointMs, the steps of a fast model are stored as fewer, larger checkpoints with the same vectors', async () => {
    const service = new DenseCorpusService({ db, embedder: new TrigramEmbedder(), chunkSize: 3, checkpointMs: 60_000, locks: null });
    await service.open(EXACT);
    const [set] = await storedSets();
    expect(set).toMatchObject({ done: 8, docCount: 8 });
    const chunks = await db.embeddingChunks.where('setKey').equals(set!.key).toArray();
    expect(chunks.map((chunk) => [chunk.start, chunk.count])).toEqual([[0, 8]]);
    const stored = new DenseCorpusService({ db, embedder: new TrigramEmbedder(), locks: null });
    expect(await stored.open(EXACT)).toMatchObject({ fromCache: true });
    expect(await stored.search(C, ['stale bread loaf'], 8, { search: 'exact', hnsw: DEFAULT_HNSW })).toEqual(await service.search(C, ['stale bread loaf'], 8, { search: 'exact', hnsw: DEFAULT_HNSW }));
  });

  it('a run stopped mid-way (a crash, a closed tab) resumes at its last checkpoint and ends with the same vectors', async () => {
    const crashing = new TrigramEmbedder();
    crashing.failCall = 2;
    await expect(new DenseCorpusService({ db, embedder: crashing, chunkSize: 3, locks: null }).open(EXACT)).rejects.toThrow('the worker died');
    const [partial] = await storedSets();
    expect(partial).toMatchObject({ done: 3, docCount: 8 });

    const embedder = new TrigramEmbedder();
    const service = new DenseCorpusService({ db, embedder, chunkSize: 3, locks: null });
    const progress: DenseProgress[] = [];
    const info = await service.open(EXACT, (p) => progress.push(p));
    expect(info).toMatchObject({ fromCache: false, resumedFrom: 3, docs: 8 });
    expect(embedder.calls).toEqual([passages(3, 6), passages(6, 8)]);
    expect(progress.filter((p) => p.phase === 'embedding').map((p) => p.done)).toEqual([3, 6, 8]);
    const [hits] = await service.search(C, ['stale bread loaf'], 8, { search: 'exact', hnsw: DEFAULT_HNSW });
    expect(hits).toEqual(exactSearch(corpusMatrix(), DOCS.map((d) => d.id), trigramVector('stale bread loaf'), 8));
  });

  it('cancel keeps the chunks finished so far; the next open goes on from there', async () => {
    const embedder = new TrigramEmbedder();
    embedder.gate = new Gate();
    embedder.gateCall = 2;
    const service = new DenseCorpusService({ db, embedder, chunkSize: 3, locks: null });
    const opening = service.open(EXACT);
    await vi.waitFor(() => expect(embedder.calls).toHaveLength(2));
    service.cancel();
    await expect(opening).rejects.toMatchObject({ name: 'AbortError' });
    expect((await storedSets())[0]).toMatchObject({ done: 3 });
    const next = new TrigramEmbedder();
    expect(await new DenseCorpusService({ db, embedder: next, chunkSize: 3, locks: null }).open(EXACT)).toMatchObject({ resumedFrom: 3 });
    expect(next.calls).toEqual([passages(3, 6), passages(6, 8)]);
  });

  it('a full disk mid-embedding: a message that says how far it got; the stored part is never used as if whole, and is resumed', async () => {
    const original = db.embeddingChunks.put.bind(db.embeddingChunks);
    let puts = 0;
    vi.spyOn(db.embeddingChunks, 'put').mockImplementation(((...args: Parameters<typeof original>) => {
      puts += 1;
      return puts === 2 ? Promise.reject(new DOMException('full', 'QuotaExceededError')) : original(...args);
    }) as typeof db.embeddingChunks.put);
    const error = await new DenseCorpusService({ db, embedder: new TrigramEmbedder(), chunkSize: 3, locks: null }).open(EXACT).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EmbeddingStorageFullError);
    expect((error as Error).message).toContain('the embeddings of "Starter": the browser refused to store more after 3 of 8 documents');
    const [set] = await storedSets();
    expect((await findEmbeddingSet(db, set!.key, { docCount: 8, fingerprint: set!.fingerprint })).status).toBe('partial');
    vi.restoreAllMocks();
    const embedder = new TrigramEmbedder();
    expect(await new DenseCorpusService({ db, embedder, chunkSize: 3, locks: null }).open(EXACT)).toMatchObject({ resumedFrom: 3, fromCache: false });
    expect(embedder.calls).toEqual([passages(3, 6), passages(6, 8)]);
  });

  it('a changed corpus (other fingerprint) is embedded again from the start', async () => {
    await db.collections.update(C, { fingerprint: '8:00000001' });
    await new DenseCorpusService({ db, embedder: new TrigramEmbedder(), locks: null }).open(EXACT);
    await db.collections.update(C, { fingerprint: '8:00000002' });
    const embedder = new TrigramEmbedder();
    const info = await new DenseCorpusService({ db, embedder, locks: null }).open(EXACT);
    expect(info.fromCache).toBe(false);
    expect(info.resumedFrom).toBeUndefined();
    expect(embedder.calls).toEqual([passages()]);
    expect(await storedSets()).toHaveLength(1);
  });

  it('two tabs on one collection: the second waits, shows the first one’s stored progress, then loads its vectors', async () => {
    const locks = new MemoryLocks();
    const first = new TrigramEmbedder();
    first.gate = new Gate();
    first.gateCall = 2;
    const tabA = new DenseCorpusService({ db, embedder: first, chunkSize: 3, locks });
    const second = new TrigramEmbedder();
    const tabB = new DenseCorpusService({ db, embedder: second, chunkSize: 3, locks, waitPollMs: 5 });
    const openingA = tabA.open(EXACT);
    await vi.waitFor(() => expect(first.calls).toHaveLength(2));
    const progressB: DenseProgress[] = [];
    const openingB = tabB.open(EXACT, (p) => progressB.push(p));
    await vi.waitFor(() => expect(progressB.some((p) => p.phase === 'embedding' && p.done === 3)).toBe(true));
    first.gate.open();
    const [infoA, infoB] = await Promise.all([openingA, openingB]);
    expect(infoA.fromCache).toBe(false);
    expect(infoB).toMatchObject({ fromCache: true, waitedForOther: true });
    expect(second.calls).toEqual([]);
    expect(first.calls).toEqual([passages(0, 3), passages(3, 6), passages(6, 8)]);
    expect(locks.waited.some((name) => name.includes('/embedding/'))).toBe(true);
  });

  it('searches exactly as exactSearch, scores candidates by dot product, and gives no hits for a zero query vector', async () => {
    const embedder = new TrigramEmbedder();
    const service = new DenseCorpusService({ db, embedder, locks: null });
    await service.open(EXACT);
    const texts = ['stale bread loaf', 'exploding star', '1234'];
    const hits = await service.search(C, texts, 5, { search: 'exact', hnsw: DEFAULT_HNSW });
    const ids = DOCS.map((d) => d.id);
    expect(hits[0]).toEqual(exactSearch(corpusMatrix(), ids, trigramVector(texts[0]!), 5));
    expect(hits[1]).toEqual(exactSearch(corpusMatrix(), ids, trigramVector(texts[1]!), 5));
    expect(hits[2]).toEqual([]);
    const [scores] = await service.score(C, ['stale bread loaf'], [[{ docId: 'd1' }, { docId: 'nope' }, { docId: 'd7' }]]);
    expect(scores![0]).toBeCloseTo(dot(trigramVector('stale bread loaf'), trigramVector(`${DOCS[0]!.title} ${DOCS[0]!.text}`)), 6);
    expect(scores![1]).toBeNaN();
    // Query vectors are embedded once per text.
    await service.search(C, texts, 5, { search: 'exact', hnsw: DEFAULT_HNSW });
    expect(embedder.calls.slice(1)).toEqual([texts]);
  });

  it('begins its warm-up after the first search (the columns\' first ranking goes first), or after waitForSearchMs without one', async () => {
    const service = new DenseCorpusService({ db, embedder: new TrigramEmbedder(), locks: null });
    await service.open(EXACT);
    let warmed: number | undefined;
    const warming = service.warmSearch(C, { queries: 6, k: 3, waitForSearchMs: 600_000 }).then((ran) => (warmed = ran));
    for (let turn = 0; turn < 5; turn++) await new Promise((resolve) => setTimeout(resolve, 0));
    expect(warmed).toBeUndefined();
    await service.search(C, ['stale bread loaf'], 5, { search: 'exact', hnsw: DEFAULT_HNSW });
    await warming;
    expect(warmed).toBe(6);
    // Without a search it begins once the wait is over.
    const other = new DenseCorpusService({ db, embedder: new TrigramEmbedder(), locks: null });
    await other.open(EXACT);
    expect(await other.warmSearch(C, { queries: 6, k: 3, waitForSearchMs: 0 })).toBe(6);
  });

  it('warms exact search on the corpus’s own rows without changing a result', async () => {
    const service = new DenseCorpusService({ db, embedder: new TrigramEmbedder(), locks: null });
    await service.open(EXACT);
    const texts = ['stale bread loaf', 'exploding star'];
    const before = await service.search(C, texts, 5, { search: 'exact', hnsw: DEFAULT_HNSW });
    expect(await service.warmSearch(C, { queries: 6, k: 3 })).toBe(6);
    expect(await service.search(C, texts, 5, { search: 'exact', hnsw: DEFAULT_HNSW })).toEqual(before);
    expect(await service.warmSearch('nothing-open')).toBe(0);
  });

  it('builds an HNSW graph once, records it (storage panel, deletion), loads it back in a new worker, and stops the ranking at efSearch', async () => {
    const files = new MemoryHnswFiles();
    const hnsw = { M: 8, efConstruction: 50, efSearch: 4 };
    const first = new DenseCorpusService({ db, embedder: new TrigramEmbedder(), hnswFiles: files, locks: null });
    const info = await first.open({ collectionId: C, search: 'hnsw', hnsw });
    expect(info.hnsw?.source).toBe('built');
    expect(files.files.size).toBe(1);
    const [file] = files.files.keys();
    expect(file).toMatch(/^rp-[0-9a-f]{8}-[0-9a-f]{8}-8\.hnsw$/);
    const rows = await db.indexes.where('collectionId').equals(C).toArray();
    expect(rows).toEqual([expect.objectContaining({ kind: 'hnsw', settings: expect.objectContaining({ M: 8, efConstruction: 50, rows: 8 }) })]);
    expect(rows[0]!.bytes).toBeGreaterThan(8 * trigramVector('').length * 4);
    const second = new DenseCorpusService({ db, embedder: new TrigramEmbedder(), hnswFiles: files, locks: null });
    expect((await second.open({ collectionId: C, search: 'hnsw', hnsw })).hnsw?.source).toBe('stored');
    const [hits] = await second.search(C, ['stale bread loaf'], 1000, { search: 'hnsw', hnsw });
    expect(hits).toHaveLength(4);
    // On 8 documents the graph is exact: the same top 4 as brute force.
    expect(hits).toEqual(exactSearch(corpusMatrix(), DOCS.map((d) => d.id), trigramVector('stale bread loaf'), 4).map((h) => ({ docId: h.docId, score: expect.closeTo(h.score, 5) })));
  });

  it('a graph file saved by a tab that closed before recording it is loaded and recorded', async () => {
    const files = new MemoryHnswFiles();
    const hnsw = { M: 8, efConstruction: 50, efSearch: 4 };
    await new DenseCorpusService({ db, embedder: new TrigramEmbedder(), hnswFiles: files, locks: null }).open({ collectionId: C, search: 'hnsw', hnsw });
    await db.indexes.clear();
    const info = await new DenseCorpusService({ db, embedder: new TrigramEmbedder(), hnswFiles: files, locks: null }).open({ collectionId: C, search: 'hnsw', hnsw });
    expect(info.hnsw?.source).toBe('stored');
    expect(await db.indexes.where('collectionId').equals(C).count()).toBe(1);
  });

  it('two tabs asking for the same graph build it once: the second waits and loads the saved one', async () => {
    const locks = new MemoryLocks();
    const files = new MemoryHnswFiles();
    let saves = 0;
    const save = files.save.bind(files);
    files.save = async (index, filename) => {
      saves += 1;
      await new Promise((resolve) => setTimeout(resolve, 20));
      return save(index, filename);
    };
    const hnsw = { M: 8, efConstruction: 50, efSearch: 4 };
    const tabA = new DenseCorpusService({ db, embedder: new TrigramEmbedder(), hnswFiles: files, locks });
    const tabB = new DenseCorpusService({ db, embedder: new TrigramEmbedder(), hnswFiles: files, locks });
    const [a, b] = await Promise.all([tabA.open({ collectionId: C, search: 'hnsw', hnsw }), tabB.open({ collectionId: C, search: 'hnsw', hnsw })]);
    expect([a.hnsw?.source, b.hnsw?.source].sort()).toEqual(['built', 'stored']);
    expect(saves).toBe(1);
  });

  it('deleting the collection removes its embedding sets, chunks and graph rows', async () => {
    const files = new MemoryHnswFiles();
    await new DenseCorpusService({ db, embedder: new TrigramEmbedder(), hnswFiles: files, chunkSize: 3, locks: null }).open({ collectionId: C, search: 'hnsw', hnsw: { M: 8, efConstruction: 50, efSearch: 4 } });
    expect(await db.embeddingChunks.count()).toBe(3);
    await deleteCollection(db, C, { locks: null });
    expect(await db.embeddingSets.count()).toBe(0);
    expect(await db.embeddingChunks.count()).toBe(0);
    expect(await db.indexes.count()).toBe(0);
  });
});

/** An embedder whose model never arrives: every embed fails (a page that must not need the model). */
class NoModel extends TrigramEmbedder {
  override async embed(texts: readonly string[]): Promise<VectorMatrix> {
    this.calls.push([...texts]);
    throw new Error('the model is not loaded');
  }
}

const QUERIES = [
  { id: 'q1', text: 'why does bread go hard' },
  { id: 'q2', text: 'star explodes' },
  { id: 'q3', text: 'why does bread go hard' },
];

async function addQueries(fingerprint = '8:feedf00d'): Promise<void> {
  await db.queries.bulkAdd(QUERIES.map((query, ord) => ({ collectionId: C, ord, ...query })));
  await db.collections.update(C, { queryCount: QUERIES.length, fingerprint });
}

function matrixOf(texts: readonly string[]): VectorMatrix {
  const dim = trigramVector('').length;
  const data = new Float32Array(texts.length * dim);
  texts.forEach((text, r) => data.set(trigramVector(text), r * dim));
  return { rows: texts.length, dim, data };
}

describe('DenseCorpusService without the model', () => {
  it("a static table's collection queries are stored with its corpus; a new worker ranks them (not other texts) without the model", async () => {
    await addQueries();
    const first = new DenseCorpusService({ db, embedder: new TrigramEmbedder('cpu-lookup'), locks: null });
    await first.open(EXACT);
    // Embedded with the corpus, stored before `open` answers: two distinct texts (q1 and q3 share theirs).
    expect((await storedSets()).find((set) => set.part === 'queries')?.done).toBe(2);
    const expected = await first.search(C, ['why does bread go hard', 'star explodes'], 3, EXACT);

    const noModel = new NoModel('cpu-lookup');
    const second = new DenseCorpusService({ db, embedder: noModel, locks: null });
    expect(await second.open(EXACT)).toMatchObject({ fromCache: true });
    expect(await second.search(C, ['why does bread go hard', 'star explodes'], 3, EXACT)).toEqual(expected);
    expect(noModel.calls).toEqual([]);
    await expect(second.search(C, ['a typed query'], 3, EXACT)).rejects.toThrow('the model is not loaded');
  });

  it('corpus vectors stored before query sets existed get theirs in the background, once the model is there', async () => {
    await db.collections.update(C, { fingerprint: '8:feedf00d' });
    await new DenseCorpusService({ db, embedder: new TrigramEmbedder('cpu'), locks: null }).open(EXACT);
    await addQueries();
    const embedder = new TrigramEmbedder('cpu-lookup');
    expect(await new DenseCorpusService({ db, embedder, locks: null }).open(EXACT)).toMatchObject({ fromCache: true });
    await vi.waitFor(async () => expect((await storedSets()).find((set) => set.part === 'queries')?.done).toBe(2));
    expect(embedder.calls).toEqual([['why does bread go hard', 'star explodes']]);
  });

  it('other models store no query set (their queries are embedded when asked)', async () => {
    await addQueries();
    await new DenseCorpusService({ db, embedder: new TrigramEmbedder('cpu'), locks: null }).open(EXACT);
    // A static table's queries embedded with its corpus are stored before `open` answers (above): by then,
    // another model has stored none.
    expect((await storedSets()).map((set) => set.part)).toEqual(['corpus']);
  });

  it('shipped vectors made from this corpus are stored and ranked without the model; made from another, they are ignored', async () => {
    await addQueries();
    const texts = ['why does bread go hard', 'star explodes'];
    const shippedFor = (fingerprint: string): ShippedVectors => ({
      header: { format: SHIPPED_VECTORS_FORMAT, collectionId: C, modelId: spec.id, fingerprint, dim: corpusMatrix().dim, docIds: DOCS.map((d) => d.id), queryTexts: texts },
      corpus: corpusMatrix(),
      queries: matrixOf(texts),
    });
    const noModel = new NoModel('cpu-lookup');
    const asked: string[] = [];
    const service = new DenseCorpusService({
      db,
      embedder: noModel,
      locks: null,
      shipped: async (collectionId) => {
        asked.push(collectionId);
        return shippedFor('8:feedf00d');
      },
    });
    expect(await service.open(EXACT)).toMatchObject({ fromCache: true, shipped: true, docs: DOCS.length });
    const hits = await service.search(C, [texts[0]!], 3, EXACT);
    expect(hits[0]!.map((hit) => hit.docId)).toEqual(exactSearch(corpusMatrix(), DOCS.map((d) => d.id), trigramVector(texts[0]!), 3).map((hit) => hit.docId));
    expect(noModel.calls).toEqual([]);
    expect(asked).toEqual([C]);
    // Stored as complete sets: the next worker reads them and asks for nothing shipped.
    const sets = await storedSets();
    expect(sets.map((set) => [set.part, set.done, set.docCount]).sort()).toEqual([['corpus', DOCS.length, DOCS.length], ['queries', 2, 2]]);
    const again = new DenseCorpusService({ db, embedder: new NoModel('cpu-lookup'), locks: null, shipped: async () => { throw new Error('not asked'); } });
    expect(await again.open(EXACT)).toMatchObject({ fromCache: true });
    expect(await again.search(C, [texts[1]!], 3, EXACT)).toEqual(await service.search(C, [texts[1]!], 3, EXACT));

    // Made from other documents: embedded as usual.
    await deleteCollection(db, C, { locks: null });
    await db.collections.put({ id: C, name: 'Starter', status: 'ready', source: { kind: 'starter', detail: '' }, docCount: DOCS.length, queryCount: 0, splits: [], createdAt: 43, bytes: 0, fingerprint: '8:other' });
    await putDocuments(db, C, DOCS);
    const embedder = new TrigramEmbedder('cpu-lookup');
    const stale = new DenseCorpusService({ db, embedder, locks: null, shipped: async () => shippedFor('8:feedf00d') });
    expect(await stale.open(EXACT)).toMatchObject({ fromCache: false });
    expect(embedder.calls[0]).toEqual(passages());
  });
});
