/**
 * The WebAssembly exact-search kernel (src/lib/dense/exact-kernel.ts) against the TypeScript code it stands
 * in for: the dot products of four queries (of eight, and of one) bit-identical to exact-search.ts's loops, each query's
 * top k in TopK's order (a full stable sort, and TopK itself at 200,000 rows, as the references), and the
 * module's bytes are those of exact-kernel.wat.
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { assemble, EXACT_KERNEL, modulePath, moduleSource } from '../../../scripts/wasm/build-wat.ts';
import { exactKernelOf } from '../../../src/lib/dense/exact-kernel.ts';
import { dotFour, exactTopRowsMany } from '../../../src/lib/dense/exact-search.ts';
import { TopK } from '../../../src/lib/hits/top-k.ts';
import { clusteredVectors, seededRandom } from '../../../src/lib/dense/synthetic-vectors.ts';
import { dotWithRow, matrixRow, type VectorMatrix } from '../../../src/lib/dense/vector-matrix.ts';

test('four queries score every row bit for bit as the TypeScript loop does (property)', () => {
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 300 }), fc.integer({ min: 1, max: 40 }), fc.integer(), (rows, dim, seed) => {
      const matrix = clusteredVectors(rows, dim, { seed });
      const queries = clusteredVectors(4, dim, { seed: seed + 1 });
      const four = [0, 1, 2, 3].map((i) => matrixRow(queries, i)) as [Float32Array, Float32Array, Float32Array, Float32Array];
      const kernel = exactKernelOf(matrix);
      expect(kernel).toBeDefined();
      const wasm = kernel!.dots(four);
      const plain = dotFour(matrix, four, [0, 1, 2, 3].map(() => new Float64Array(rows)));
      for (let j = 0; j < 4; j++) expect(Array.from(wasm[j]!).every((score, r) => Object.is(score, plain[j]![r]))).toBe(true);
    }),
    { numRuns: 60 },
  );
});

// Few distinct values make ties common; -0 and 0 are one score; infinities sort at the ends.
const scoreArb = fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 }), fc.constantFrom(0, -0, 1, 0.5, -2, Infinity, -Infinity));

test('the top k of a query: every row by score descending, equal scores by row, scores as given (property)', () => {
  fc.assert(
    fc.property(fc.array(scoreArb, { minLength: 1, maxLength: 400 }), fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 420 }), (values, j, k) => {
      const matrix = clusteredVectors(values.length, 4, { seed: values.length });
      const kernel = exactKernelOf(matrix)!;
      // The kernel ranks whatever its output arrays hold: write the scores there.
      const out = kernel.dots([0, 1, 2, 3].map(() => new Float32Array(4)) as unknown as [Float32Array, Float32Array, Float32Array, Float32Array]);
      out[j]!.set(values);
      const { rows, scores } = kernel.top(j, k);
      const expected = values
        .map((score, row) => ({ row, score }))
        .sort((a, b) => b.score - a.score || a.row - b.row)
        .slice(0, k);
      expect(Array.from(rows)).toEqual(expected.map((hit) => hit.row));
      expect(Array.from(scores).every((score, i) => Object.is(score, values[rows[i]!]))).toBe(true);
    }),
    { numRuns: 300 },
  );
});

test('eight queries in one pass score every row bit for bit as the TypeScript loop does (property)', () => {
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 300 }), fc.integer({ min: 1, max: 40 }), fc.integer(), (rows, dim, seed) => {
      const matrix = clusteredVectors(rows, dim, { seed });
      const queries = clusteredVectors(8, dim, { seed: seed + 1 });
      const eight = Array.from({ length: 8 }, (_, i) => matrixRow(queries, i)) as unknown as [Float32Array, Float32Array, Float32Array, Float32Array, Float32Array, Float32Array, Float32Array, Float32Array];
      const wasm = exactKernelOf(matrix)!.dotsEight(eight);
      for (const half of [0, 4]) {
        const four = eight.slice(half, half + 4) as [Float32Array, Float32Array, Float32Array, Float32Array];
        const plain = dotFour(matrix, four, [0, 1, 2, 3].map(() => new Float64Array(rows)));
        for (let j = 0; j < 4; j++) expect(Array.from(wasm[half + j]!).every((score, r) => Object.is(score, plain[j]![r]))).toBe(true);
      }
    }),
    { numRuns: 60 },
  );
});

test('one query scores every row bit for bit as dotWithRow does, four rows per step and the rest alone (property)', () => {
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 300 }), fc.integer({ min: 1, max: 40 }), fc.integer(), (rows, dim, seed) => {
      const matrix = clusteredVectors(rows, dim, { seed });
      const query = matrixRow(clusteredVectors(1, dim, { seed: seed + 1 }), 0);
      const wasm = exactKernelOf(matrix)!.dotsOne(query);
      expect(Array.from(wasm).every((score, r) => Object.is(score, dotWithRow(matrix, r, query)))).toBe(true);
    }),
    { numRuns: 60 },
  );
});

/** The kernel's top k of `values` written as query j's scores (the kernel ranks whatever its output holds). */
function kernelTop(values: readonly number[], j: number, k: number, slack?: number): ReturnType<NonNullable<ReturnType<typeof exactKernelOf>>['top']> {
  const matrix = clusteredVectors(values.length, 4, { seed: values.length });
  const kernel = exactKernelOf(matrix)!;
  const out = kernel.dots([0, 1, 2, 3].map(() => new Float32Array(4)) as unknown as [Float32Array, Float32Array, Float32Array, Float32Array]);
  out[j]!.set(values);
  return kernel.top(j, k, slack);
}

/** The reference: every row sorted by score descending, equal scores by row, cut to k. */
function fullSortTop(values: readonly number[], k: number): number[] {
  return values
    .map((score, row) => ({ row, score }))
    .sort((a, b) => b.score - a.score || a.row - b.row)
    .slice(0, k)
    .map((hit) => hit.row);
}

test('the selection down to every digit (no slack) keeps exactly the top k in TopK order (property)', () => {
  fc.assert(
    fc.property(fc.array(scoreArb, { minLength: 1, maxLength: 400 }), fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 420 }), fc.constantFrom(0, 1, 3, 50), (values, j, k, slack) => {
      const { rows, scores } = kernelTop(values, j, k, slack);
      expect(Array.from(rows)).toEqual(fullSortTop(values, k));
      expect(Array.from(scores).every((score, i) => Object.is(score, values[rows[i]!]))).toBe(true);
    }),
    { numRuns: 300 },
  );
});

test('ties at the boundary, all-equal scores, k = 1 and k ≥ n keep the lower rows of equal scores', () => {
  const n = 5000;
  // Three scores only: 1,000 rows of 0.75, then 0.5 for most, -0 and 0 for the rest.
  const tied = Array.from({ length: n }, (_, r) => (r % 5 === 0 ? 0.75 : r % 7 === 0 ? (r % 2 === 0 ? -0 : 0) : 0.5));
  const allEqual = new Array<number>(n).fill(0.3125);
  const nearlyEqual = Array.from({ length: n }, (_, r) => 0.3125 + (r % 13) * Number.EPSILON);
  for (const values of [tied, allEqual, nearlyEqual]) {
    for (const k of [1, 2, 10, 999, 1000, 1001, 2500, n - 1, n, n + 10]) {
      for (const slack of [0, 1024]) expect(Array.from(kernelTop(values, 1, k, slack).rows)).toEqual(fullSortTop(values, k));
    }
  }
  expect(kernelTop(allEqual, 0, 0).rows).toHaveLength(0);
});

/** TopK over every row: the TypeScript reference the page used for a few of many rows. */
function topKRows(scores: Float64Array, k: number): number[] {
  const top = new TopK(k);
  for (let r = 0; r < scores.length; r++) top.offer(r, scores[r]!);
  return top.sorted((row) => row);
}

test('200,000 rows: the top 10, 100 and 1,000 of one query and of four equal TopK over the TypeScript dot products', () => {
  const matrix: VectorMatrix = clusteredVectors(200_000, 16, { seed: 11 });
  const queries = clusteredVectors(5, 16, { seed: 12 });
  const five = [0, 1, 2, 3, 4].map((i) => matrixRow(queries, i));
  for (const k of [10, 100, 1000]) {
    const found = exactTopRowsMany(matrix, five, k);
    five.forEach((query, i) => {
      const plain = Float64Array.from({ length: matrix.rows }, (_, r) => dotWithRow(matrix, r, query));
      expect(Array.from(found[i]!.rows)).toEqual(topKRows(plain, k));
      expect(Array.from(found[i]!.scores).every((score, h) => Object.is(score, plain[found[i]!.rows[h]!]))).toBe(true);
    });
  }
  // Scores in one narrow band (the top digits of every key equal): the selection goes down several digits.
  const band = Array.from({ length: 200_000 }, (_, r) => 0.4 + ((r * 7919) % 100_003) * 1e-9);
  for (const k of [10, 100, 1000]) expect(Array.from(kernelTop(band, 2, k).rows)).toEqual(fullSortTop(band, k));
});

test('200,000 rows whose sample misleads or ties: the guess from every 64th row falls back to selection, ties keep the lower rows', () => {
  // Every 64th row (the sample) scores highest, so the sample's guess is reached by too few rows.
  const sampleHighest = Array.from({ length: 200_000 }, (_, r) => (r % 64 === 0 ? 1 + r * 1e-9 : 0.5 - (r % 1000) * 1e-6));
  // Three scores only, spread by a seeded generator: the boundary is a run of thousands of ties.
  const random = seededRandom(5);
  const threeScores = Array.from({ length: 200_000 }, () => [0.25, -0, 0.75][Math.floor(random() * 3)]!);
  const allEqual = new Array<number>(200_000).fill(-0.125);
  for (const values of [sampleHighest, threeScores, allEqual]) {
    for (const k of [1, 10, 1000, 5000]) expect(Array.from(kernelTop(values, 3, k).rows)).toEqual(fullSortTop(values, k));
  }
});

test('one kernel per matrix, and later calls give the later queries’ scores', () => {
  const matrix = clusteredVectors(50, 8, { seed: 7 });
  const queries = clusteredVectors(8, 8, { seed: 8 });
  const kernel = exactKernelOf(matrix)!;
  expect(exactKernelOf(matrix)).toBe(kernel);
  const second = [4, 5, 6, 7].map((i) => matrixRow(queries, i)) as [Float32Array, Float32Array, Float32Array, Float32Array];
  kernel.dots([0, 1, 2, 3].map((i) => matrixRow(queries, i)) as [Float32Array, Float32Array, Float32Array, Float32Array]);
  const again = kernel.dots(second).map((scores) => Array.from(scores));
  expect(again).toEqual(dotFour(matrix, second, [0, 1, 2, 3].map(() => new Float64Array(50))).map((scores) => Array.from(scores)));
});

test('the module is exact-kernel.wat as scripts/wasm/build-wat.ts assembles it', () => {
  expect(readFileSync(modulePath(EXACT_KERNEL), 'utf8')).toBe(moduleSource(EXACT_KERNEL, assemble(EXACT_KERNEL)));
});
