import fc from 'fast-check';
import { expect, test } from 'vitest';
import { decodeMatrix, encodeMatrix, fromHalf, toHalf } from '../../../src/lib/dense/vector-codec.ts';
import { clusteredVectors } from '../../../src/lib/dense/synthetic-vectors.ts';

// Reference bit patterns: IEEE 754-2008 binary16 (e.g. the table in Wikipedia's "Half-precision floating-point format").
test.each([
  [1, 0x3c00],
  [-2, 0xc000],
  [0.5, 0x3800],
  [65504, 0x7bff],
  [2 ** -14, 0x0400],
  [2 ** -24, 0x0001],
  [0, 0x0000],
  [1 / 3, 0x3555],
  [Infinity, 0x7c00],
  [1e6, 0x7c00],
])('toHalf(%d) = 0x%s', (value, bits) => {
  expect(toHalf(value)).toBe(bits);
  if (Number.isFinite(value) && value <= 65504) expect(Math.abs(fromHalf(bits) - value)).toBeLessThanOrEqual(Math.abs(value) * 2 ** -11);
});

test('toHalf rounds ties to even', () => {
  // 1 + 2^-11 lies halfway between 1 and 1 + 2^-10: ties go to the even mantissa (1).
  expect(toHalf(1 + 2 ** -11)).toBe(0x3c00);
  expect(toHalf(1 + 3 * 2 ** -11)).toBe(0x3c02);
});

test('f16 keeps unit-vector components within 2^-11 relative error (property)', () => {
  fc.assert(
    fc.property(fc.float({ min: Math.fround(-1), max: Math.fround(1), noNaN: true }), (x) => {
      const back = fromHalf(toHalf(x));
      expect(Math.abs(back - x)).toBeLessThanOrEqual(Math.max(Math.abs(x) * 2 ** -11, 2 ** -25));
    }),
  );
});

test('f32 is lossless; int8 errs by at most half a step per component; sizes are 4, 2 and 1 bytes per component', () => {
  const m = clusteredVectors(40, 16, { seed: 5 });
  const f32 = encodeMatrix(m, 'f32');
  expect(decodeMatrix(f32).data).toEqual(m.data);
  expect([f32.data.byteLength, f32.scales]).toEqual([40 * 16 * 4, undefined]);
  const f16 = encodeMatrix(m, 'f16');
  expect([f16.data.byteLength, f16.scales]).toEqual([40 * 16 * 2, undefined]);
  const int8 = encodeMatrix(m, 'int8');
  expect([int8.data.byteLength, int8.scales?.byteLength]).toEqual([40 * 16, 40 * 4]);
  const back = decodeMatrix(int8);
  for (let r = 0; r < 40; r++) {
    const step = int8.scales![r]!;
    for (let c = 0; c < 16; c++) expect(Math.abs(back.data[r * 16 + c]! - m.data[r * 16 + c]!)).toBeLessThanOrEqual(step / 2 + 1e-7);
  }
});

test('decoding does not alias the stored buffer', () => {
  const m = clusteredVectors(2, 4, { seed: 6 });
  const e = encodeMatrix(m, 'f32');
  const d = decodeMatrix(e);
  d.data[0] = 42;
  expect(decodeMatrix(e).data[0]).not.toBe(42);
});
