import fc from 'fast-check';
import { expect, test } from 'vitest';
import { exactSearch, exactTopK, exactTopKMany, rowIndex, scoreCandidates } from '../../../src/lib/dense/exact-search.ts';
import { clusteredVectors } from '../../../src/lib/dense/synthetic-vectors.ts';
import { matrixRow, normalizeInPlace, type VectorMatrix } from '../../../src/lib/dense/vector-matrix.ts';

function bruteForce(m: VectorMatrix, q: Float32Array): Array<{ row: number; score: number }> {
  const all = [];
  for (let r = 0; r < m.rows; r++) {
    let s = 0;
    for (let i = 0; i < m.dim; i++) s += m.data[r * m.dim + i]! * q[i]!;
    all.push({ row: r, score: s });
  }
  return all.sort((a, b) => b.score - a.score || a.row - b.row);
}

test('exactTopK equals a full sort of all dot products (property)', () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 1, max: 60 }),
      fc.integer({ min: 1, max: 8 }),
      fc.integer({ min: 1, max: 70 }),
      fc.integer(),
      (rows, dim, k, seed) => {
        const m = clusteredVectors(rows, dim, { seed });
        const q = clusteredVectors(1, dim, { seed: seed + 1 }).data;
        expect(exactTopK(m, q, k)).toEqual(bruteForce(m, q).slice(0, k));
      },
    ),
    { numRuns: 100 },
  );
});

test('exactTopKMany gives each query what a full sort of its own dot products gives, bit for bit, in groups of eight, of four and alone (property)', () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 1, max: 40 }),
      fc.integer({ min: 1, max: 9 }),
      fc.integer({ min: 0, max: 19 }),
      fc.integer({ min: 1, max: 50 }),
      fc.integer(),
      (rows, dim, count, k, seed) => {
        const m = clusteredVectors(rows, dim, { seed });
        const queries = Array.from({ length: count }, (_, i) => matrixRow(clusteredVectors(count, dim, { seed: seed + 1 }), i));
        const many = exactTopKMany(m, queries, k);
        expect(many).toHaveLength(count);
        many.forEach((found, i) => {
          const expected = bruteForce(m, queries[i]!).slice(0, k);
          expect(found.map((h) => h.row)).toEqual(expected.map((h) => h.row));
          found.forEach((h, j) => expect(Object.is(h.score, expected[j]!.score)).toBe(true));
        });
      },
    ),
    { numRuns: 100 },
  );
});

test('on normalized vectors the score is the cosine similarity', () => {
  const m: VectorMatrix = { rows: 2, dim: 2, data: Float32Array.of(3, 4, 0, 2) };
  for (let r = 0; r < m.rows; r++) normalizeInPlace(matrixRow(m, r));
  const hits = exactSearch(m, ['a', 'b'], Float32Array.of(1, 0), 2);
  expect(hits.map((h) => h.docId)).toEqual(['a', 'b']);
  expect(hits[0]!.score).toBeCloseTo(0.6, 6);
  expect(hits[1]!.score).toBeCloseTo(0, 6);
});

test('scoreCandidates scores only the candidates, with the same scores as exact search', () => {
  const m = clusteredVectors(50, 6, { seed: 3 });
  const ids = Array.from({ length: 50 }, (_, i) => `d${i}`);
  const q = matrixRow(clusteredVectors(1, 6, { seed: 4 }), 0);
  const candidates = ['d7', 'd3', 'missing', 'd42'];
  const hits = scoreCandidates(m, rowIndex(ids), q, candidates);
  expect(hits.map((h) => h.docId).sort()).toEqual(['d3', 'd42', 'd7']);
  const exact = new Map(exactSearch(m, ids, q, 50).map((h) => [h.docId, h.score]));
  for (const h of hits) expect(h.score).toBeCloseTo(exact.get(h.docId)!, 6);
  expect(hits.map((h) => h.score)).toEqual([...hits.map((h) => h.score)].sort((a, b) => b - a));
});

test('a query of the wrong size is refused', () => {
  expect(() => exactTopK({ rows: 1, dim: 3, data: new Float32Array(3) }, new Float32Array(2), 1)).toThrow(/dimensions/);
});
