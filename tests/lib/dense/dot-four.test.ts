/**
 * The WebAssembly dot products of four queries (src/lib/dense/dot-four.ts) against exact-search.ts's
 * TypeScript loop: bit-identical scores, and the module's bytes are those of dot-four.wat.
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { assemble, DOT_FOUR, modulePath, moduleSource } from '../../../scripts/wasm/build-wat.ts';
import { fourDotsOf } from '../../../src/lib/dense/dot-four.ts';
import { dotFour } from '../../../src/lib/dense/exact-search.ts';
import { clusteredVectors } from '../../../src/lib/dense/synthetic-vectors.ts';
import { matrixRow } from '../../../src/lib/dense/vector-matrix.ts';

test('four queries score every row bit for bit as the TypeScript loop does (property)', () => {
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 300 }), fc.integer({ min: 1, max: 40 }), fc.integer(), (rows, dim, seed) => {
      const matrix = clusteredVectors(rows, dim, { seed });
      const queries = clusteredVectors(4, dim, { seed: seed + 1 });
      const four = [0, 1, 2, 3].map((i) => matrixRow(queries, i)) as [Float32Array, Float32Array, Float32Array, Float32Array];
      const kernel = fourDotsOf(matrix);
      expect(kernel).toBeDefined();
      const wasm = kernel!.dots(four);
      const plain = dotFour(matrix, four, [0, 1, 2, 3].map(() => new Float64Array(rows)));
      for (let j = 0; j < 4; j++) expect(Array.from(wasm[j]!).every((score, r) => Object.is(score, plain[j]![r]))).toBe(true);
    }),
    { numRuns: 60 },
  );
});

test('one kernel per matrix, and later calls give the later queries’ scores', () => {
  const matrix = clusteredVectors(50, 8, { seed: 7 });
  const queries = clusteredVectors(8, 8, { seed: 8 });
  const kernel = fourDotsOf(matrix)!;
  expect(fourDotsOf(matrix)).toBe(kernel);
  const second = [4, 5, 6, 7].map((i) => matrixRow(queries, i)) as [Float32Array, Float32Array, Float32Array, Float32Array];
  kernel.dots([0, 1, 2, 3].map((i) => matrixRow(queries, i)) as [Float32Array, Float32Array, Float32Array, Float32Array]);
  const again = kernel.dots(second).map((scores) => Array.from(scores));
  expect(again).toEqual(dotFour(matrix, second, [0, 1, 2, 3].map(() => new Float64Array(50))).map((scores) => Array.from(scores)));
});

test('the module is dot-four.wat as scripts/wasm/build-wat.ts assembles it', () => {
  expect(readFileSync(modulePath(DOT_FOUR), 'utf8')).toBe(moduleSource(DOT_FOUR, assemble(DOT_FOUR)));
});
