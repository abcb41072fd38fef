import fc from 'fast-check';
import { expect, test } from 'vitest';
import { clusteredVectors } from '../../../src/lib/dense/synthetic-vectors.ts';
import { dot, dotWithRow, matrixRow } from '../../../src/lib/dense/vector-matrix.ts';

test('dotWithRow is dot(matrixRow(m, row), v), the same double for every row (property)', () => {
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 30 }), fc.integer({ min: 1, max: 40 }), fc.integer(), (rows, dim, seed) => {
      const m = clusteredVectors(rows, dim, { seed });
      const v = clusteredVectors(1, dim, { seed: seed + 1 }).data;
      for (let row = 0; row < rows; row++) expect(Object.is(dotWithRow(m, row, v), dot(matrixRow(m, row), v))).toBe(true);
    }),
    { numRuns: 100 },
  );
});
