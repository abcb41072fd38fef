import 'fake-indexeddb/auto';
import { expect, test } from 'vitest';
import { annRecallAtK } from '../../../src/lib/dense/ann-recall.ts';
import { exactTopK } from '../../../src/lib/dense/exact-search.ts';
import { HnswIndex } from '../../../src/lib/dense/hnsw-index.ts';
import { clusteredVectors } from '../../../src/lib/dense/synthetic-vectors.ts';
import { matrixRow } from '../../../src/lib/dense/vector-matrix.ts';

const corpus = clusteredVectors(3000, 48, { seed: 21 });
const queries = clusteredVectors(100, 48, { seed: 22 });

function searchAll(index: HnswIndex, k: number) {
  return Array.from({ length: queries.rows }, (_, q) => index.search(matrixRow(queries, q), k));
}

test('annRecallAtK counts the exact top-k rows found, averaged over queries', () => {
  const row = (r: number) => ({ row: r, score: 0 });
  expect(annRecallAtK([[row(1), row(2)], [row(3), row(9)]], [[row(2), row(1)], [row(3), row(4)]], 2)).toBe(0.75);
  expect(annRecallAtK([], [], 10)).toBe(1);
});

test('HNSW scores are the exact dot products of the rows it returns, best first', async () => {
  const index = await HnswIndex.build(corpus, { M: 16, efConstruction: 100, efSearch: 50 });
  const q = matrixRow(queries, 0);
  const hits = index.search(q, 10);
  expect(hits).toHaveLength(10);
  for (const { row, score } of hits) {
    let dot = 0;
    for (let i = 0; i < 48; i++) dot += corpus.data[row * 48 + i]! * q[i]!;
    expect(score).toBeCloseTo(dot, 5);
  }
  expect(hits.map((h) => h.score)).toEqual([...hits.map((h) => h.score)].sort((a, b) => b - a));
  index.dispose();
});

test('recall@10 against exact search rises with efSearch and is high at efSearch 100', async () => {
  const exact = Array.from({ length: queries.rows }, (_, q) => exactTopK(corpus, matrixRow(queries, q), 10));
  const index = await HnswIndex.build(corpus, { M: 16, efConstruction: 200, efSearch: 10 });
  const low = annRecallAtK(searchAll(index, 10), exact, 10);
  index.setEfSearch(100);
  const high = annRecallAtK(searchAll(index, 10), exact, 10);
  expect(high).toBeGreaterThanOrEqual(low);
  expect(high).toBeGreaterThan(0.95);
  index.dispose();
});

test('save → load round trip through IDBFS gives the same neighbours and sets efSearch again', async () => {
  const built = await HnswIndex.build(corpus, { M: 12, efConstruction: 100, efSearch: 77 });
  const before = searchAll(built, 10);
  await built.save('test-roundtrip.hnsw');
  built.dispose();
  const loaded = await HnswIndex.load('test-roundtrip.hnsw', 48, { efSearch: 77 });
  expect(loaded).toBeDefined();
  expect(loaded!.size).toBe(3000);
  // hnswlib's readIndex resets ef to 10: the loader must have set it again.
  expect(loaded!.efSearch).toBe(77);
  expect(searchAll(loaded!, 10)).toEqual(before);
  loaded!.dispose();
  expect(await HnswIndex.load('no-such-index.hnsw', 48)).toBeUndefined();
});
