/** Pooling on float values (src/lib/dense/pooling.ts), fp16 outputs decoded from their bits. */
import { expect, test } from 'vitest';
import { floatValues, halfToFloat, poolOutput } from '../../../src/lib/dense/pooling.ts';

test('half-precision bits decode to their IEEE 754 values', () => {
  const cases: Array<[number, number]> = [
    [0x0000, 0],
    [0x3c00, 1],
    [0xc000, -2],
    [0x3800, 0.5],
    [0x3555, 0.333251953125],
    [0x7bff, 65504],
    [0x0400, 2 ** -14],
    [0x0001, 2 ** -24],
    [0x83ff, -(1023 / 1024) * 2 ** -14],
    [0x7c00, Infinity],
    [0xfc00, -Infinity],
  ];
  for (const [bits, value] of cases) expect(halfToFloat(bits)).toBe(value);
  expect(halfToFloat(0x7e00)).toBeNaN();
  expect(Object.is(halfToFloat(0x8000), -0)).toBe(true);
});

test('an fp16 output given as bits (onnxruntime in Node) is read as values, not as integers', () => {
  expect(Array.from(floatValues({ type: 'float16', data: Uint16Array.of(0x3c00, 0xc000, 0x3800) }))).toEqual([1, -2, 0.5]);
  // Where the runtime hands out numbers (a Float16Array in a browser that has one), they are taken as they are.
  expect(Array.from(floatValues({ type: 'float16', data: [1, -2, 0.5] }))).toEqual([1, -2, 0.5]);
  expect(() => floatValues({ type: 'int64', data: BigInt64Array.of(1n) })).toThrow(/not floating point/);
});

test('mean pooling averages the attended positions only; cls takes the first; none keeps [rows, dim]', () => {
  // 2 texts × 3 positions × 2 dims; the second text's last position is padding.
  const data = Float32Array.of(1, 2, 3, 4, 5, 6, 10, 20, 30, 40, 99, 99);
  const tensor = { type: 'float32', data, dims: [2, 3, 2] };
  const mask = BigInt64Array.of(1n, 1n, 1n, 1n, 1n, 0n);
  expect(Array.from(poolOutput(tensor, mask, 2, 'mean').data)).toEqual([3, 4, 20, 30]);
  expect(Array.from(poolOutput(tensor, mask, 2, 'cls').data)).toEqual([1, 2, 10, 20]);
  expect(() => poolOutput(tensor, mask, 2, 'none')).toThrow(/check pooling/);
  const pooled = { type: 'float16', data: Uint16Array.of(0x3c00, 0x4000, 0x4200, 0x4400), dims: [2, 2] };
  expect(poolOutput(pooled, [], 2, 'none')).toEqual({ data: Float32Array.of(1, 2, 3, 4), dim: 2 });
  // fp16 token states, pooled on their values.
  const half = { type: 'float16', data: Uint16Array.of(0x3c00, 0x4000, 0x4200, 0x4400), dims: [1, 2, 2] };
  expect(Array.from(poolOutput(half, [1, 1], 1, 'mean').data)).toEqual([2, 3]);
});
