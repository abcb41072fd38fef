import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Embedder } from '../../../src/lib/dense/embedder.ts';
import { MemoryEmbeddingStore } from '../../../src/lib/dense/embedding-store.ts';
import { exactSearch } from '../../../src/lib/dense/exact-search.ts';
import type { HnswIndex } from '../../../src/lib/dense/hnsw-index.ts';
import { resolveModelSpec } from '../../../src/lib/dense/registry.ts';
import { dot, type VectorMatrix } from '../../../src/lib/dense/vector-matrix.ts';
import { DEFAULT_HNSW } from '../../../src/lib/retrievers/config.ts';
import { PlaygroundDatabase } from '../../../src/lib/storage/db.ts';
import type { DenseProgress } from '../../../src/app/engine/backends.ts';
import { DenseCorpusService, type HnswFiles } from '../../../src/app/engine/dense-corpus.ts';
import { DOCS, Gate, trigramVector } from './fakes.ts';

// DenseCorpusService (the dense column worker's work) on fake-indexeddb, with a deterministic embedder
// (hashed trigrams) standing in for transformers.js; HNSW is the real hnswlib-wasm.

const C = 'starter';
const spec = resolveModelSpec('local/glove-100d-sif');

class TrigramEmbedder implements Embedder {
  readonly spec = spec;
  readonly device = 'cpu' as const;
  readonly dtype = 'fp32' as const;
  calls: string[][] = [];
  gate: Gate | undefined;

  async embed(texts: readonly string[], options: { signal?: AbortSignal; onProgress?: (p: { done: number; total: number; docsPerSecond: number; etaSeconds: number; batchSize: number }) => void } = {}): Promise<VectorMatrix> {
    this.calls.push([...texts]);
    if (this.gate) {
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
  await db.documents.bulkAdd(DOCS.map((doc, ord) => ({ collectionId: C, ord, id: doc.id, title: doc.title, text: doc.text })));
});

afterEach(async () => {
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
  it('reads the documents itself, embeds title + text, stores the vectors, and a new worker finds them cached', async () => {
    const store = new MemoryEmbeddingStore();
    const embedder = new TrigramEmbedder();
    const service = new DenseCorpusService({ db, store, embedder, batchSize: 3 });
    const progress: DenseProgress[] = [];
    const info = await service.open({ collectionId: C, search: 'exact', hnsw: DEFAULT_HNSW }, (p) => progress.push(p));
    expect(info).toMatchObject({ docs: DOCS.length, fromCache: false });
    expect(embedder.calls).toEqual([DOCS.map((d) => `${d.title} ${d.text}`)]);
    expect(progress.filter((p) => p.phase === 'reading').map((p) => p.done)).toEqual([0, 3, 6, 8]);
    expect(progress.at(-1)).toMatchObject({ phase: 'embedding', done: DOCS.length });
    expect(await store.keys()).toHaveLength(1);

    const again = new TrigramEmbedder();
    const reloaded = new DenseCorpusService({ db, store, embedder: again });
    expect(await reloaded.open({ collectionId: C, search: 'exact', hnsw: DEFAULT_HNSW })).toMatchObject({ fromCache: true, embedMs: 0 });
    expect(again.calls).toEqual([]);
  });

  it('misses the cache after a re-import (new creation time)', async () => {
    const store = new MemoryEmbeddingStore();
    await new DenseCorpusService({ db, store, embedder: new TrigramEmbedder() }).open({ collectionId: C, search: 'exact', hnsw: DEFAULT_HNSW });
    await db.collections.update(C, { createdAt: 43 });
    const embedder = new TrigramEmbedder();
    const info = await new DenseCorpusService({ db, store, embedder }).open({ collectionId: C, search: 'exact', hnsw: DEFAULT_HNSW });
    expect(info.fromCache).toBe(false);
    expect(embedder.calls).toHaveLength(1);
  });

  it('searches exactly as exactSearch, scores candidates by dot product, and gives no hits for a zero query vector', async () => {
    const embedder = new TrigramEmbedder();
    const service = new DenseCorpusService({ db, store: new MemoryEmbeddingStore(), embedder });
    await service.open({ collectionId: C, search: 'exact', hnsw: DEFAULT_HNSW });
    const texts = ['stale bread loaf', 'exploding star', '1234'];
    const hits = await service.search(C, texts, 5, { search: 'exact', hnsw: DEFAULT_HNSW });
    const ids = DOCS.map((d) => d.id);
    expect(hits[0]).toEqual(exactSearch(corpusMatrix(), ids, trigramVector(texts[0]!), 5));
    expect(hits[1]).toEqual(exactSearch(corpusMatrix(), ids, trigramVector(texts[1]!), 5));
    expect(hits[2]).toEqual([]);
    const [scores] = await service.score(C, ['stale bread loaf'], [['d1', 'nope', 'd7']]);
    expect(scores![0]).toBeCloseTo(dot(trigramVector('stale bread loaf'), trigramVector(`${DOCS[0]!.title} ${DOCS[0]!.text}`)), 6);
    expect(scores![1]).toBeNaN();
    // Query vectors are embedded once per text.
    await service.search(C, texts, 5, { search: 'exact', hnsw: DEFAULT_HNSW });
    expect(embedder.calls.slice(1)).toEqual([texts]);
  });

  it('stops embedding when cancelled and stores nothing', async () => {
    const store = new MemoryEmbeddingStore();
    const embedder = new TrigramEmbedder();
    embedder.gate = new Gate();
    const service = new DenseCorpusService({ db, store, embedder });
    const opening = service.open({ collectionId: C, search: 'exact', hnsw: DEFAULT_HNSW });
    await new Promise((resolve) => setTimeout(resolve, 10));
    service.cancel();
    await expect(opening).rejects.toMatchObject({ name: 'AbortError' });
    expect(await store.keys()).toEqual([]);
  });

  it('builds an HNSW graph once, loads it back in a new worker, and stops the ranking at efSearch', async () => {
    const store = new MemoryEmbeddingStore();
    const files = new MemoryHnswFiles();
    const hnsw = { M: 8, efConstruction: 50, efSearch: 4 };
    const first = new DenseCorpusService({ db, store, embedder: new TrigramEmbedder(), hnswFiles: files });
    const info = await first.open({ collectionId: C, search: 'hnsw', hnsw });
    expect(info.hnsw?.source).toBe('built');
    expect(files.files.size).toBe(1);
    const second = new DenseCorpusService({ db, store, embedder: new TrigramEmbedder(), hnswFiles: files });
    expect((await second.open({ collectionId: C, search: 'hnsw', hnsw })).hnsw?.source).toBe('stored');
    const [hits] = await second.search(C, ['stale bread loaf'], 1000, { search: 'hnsw', hnsw });
    expect(hits).toHaveLength(4);
    // On 8 documents the graph is exact: the same top 4 as brute force.
    expect(hits).toEqual(exactSearch(corpusMatrix(), DOCS.map((d) => d.id), trigramVector('stale bread loaf'), 4).map((h) => ({ docId: h.docId, score: expect.closeTo(h.score, 5) })));
  });
});
