/**
 * The WebAssembly exact-search kernel (src/lib/dense/exact-kernel.ts) against the TypeScript code it stands
 * in for: the dot products of four queries bit-identical to exact-search.ts's loop, each query's top k in
 * TopK's order (a full stable sort as the reference), and the module's bytes are those of exact-kernel.wat.
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { assemble, EXACT_KERNEL, modulePath, moduleSource } from '../../../scripts/wasm/build-wat.ts';
import { exactKernelOf } from '../../../src/lib/dense/exact-kernel.ts';
import { dotFour } from '../../../src/lib/dense/exact-search.ts';
import { clusteredVectors } from '../../../src/lib/dense/synthetic-vectors.ts';
import { matrixRow } from '../../../src/lib/dense/vector-matrix.ts';

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
