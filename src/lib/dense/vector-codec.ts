/**
 * Storage encodings of an embedding matrix, for the embedding cache.
 *
 * - `f32`: lossless, 4 bytes per component.
 * - `f16`: IEEE 754 half precision, round-to-nearest-even: relative error ≤ 2⁻¹¹ ≈ 4.9e-4 per component
 *   (normal range); on unit vectors the cosine changes by about 1e-4 or less. 2 bytes per component.
 * - `int8`: per-row symmetric quantization q = round(x / s), s = max|x| / 127: absolute error ≤ s/2 per
 *   component (≈ 0.4% of the row's largest component). 1 byte per component + 4 per row.
 */
import type { VectorMatrix } from './vector-matrix.ts';

export type VectorEncoding = 'f32' | 'f16' | 'int8';

export interface EncodedMatrix {
  encoding: VectorEncoding;
  rows: number;
  dim: number;
  /** f32: Float32 bytes; f16: Uint16 half floats; int8: Int8 values. */
  data: ArrayBuffer;
  /** int8 only: one scale per row. */
  scales?: Float32Array;
}

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

/** float32 → IEEE half bits, round to nearest even; overflow → ±Infinity, underflow → subnormals/±0. */
export function toHalf(value: number): number {
  f32[0] = value;
  const x = u32[0]!;
  const sign = (x >>> 16) & 0x8000;
  const exp = (x >>> 23) & 0xff;
  let mant = x & 0x7fffff;
  if (exp === 0xff) return sign | 0x7c00 | (mant ? 0x200 : 0); // Inf / NaN
  let e = exp - 127 + 15;
  if (e >= 0x1f) return sign | 0x7c00;
  if (e <= 0) {
    if (e < -10) return sign;
    mant |= 0x800000;
    const shift = 14 - e;
    const half = mant >>> shift;
    const rest = mant & ((1 << shift) - 1);
    const mid = 1 << (shift - 1);
    return sign | (rest > mid || (rest === mid && half & 1) ? half + 1 : half);
  }
  const half = (e << 10) | (mant >>> 13);
  const rest = mant & 0x1fff;
  return sign | (rest > 0x1000 || (rest === 0x1000 && half & 1) ? half + 1 : half);
}

/** IEEE half bits → number. */
export function fromHalf(h: number): number {
  const sign = h & 0x8000 ? -1 : 1;
  const exp = (h >>> 10) & 0x1f;
  const mant = h & 0x3ff;
  if (exp === 0) return sign * mant * 2 ** -24;
  if (exp === 0x1f) return mant ? NaN : sign * Infinity;
  return sign * (1 + mant / 1024) * 2 ** (exp - 15);
}

export function encodeMatrix(m: VectorMatrix, encoding: VectorEncoding): EncodedMatrix {
  const { rows, dim } = m;
  if (encoding === 'f32') return { encoding, rows, dim, data: m.data.slice().buffer };
  if (encoding === 'f16') {
    const out = new Uint16Array(m.data.length);
    for (let i = 0; i < out.length; i++) out[i] = toHalf(m.data[i]!);
    return { encoding, rows, dim, data: out.buffer };
  }
  const q = new Int8Array(m.data.length);
  const scales = new Float32Array(rows);
  for (let r = 0; r < rows; r++) {
    let max = 0;
    for (let c = 0; c < dim; c++) max = Math.max(max, Math.abs(m.data[r * dim + c]!));
    const s = max > 0 ? max / 127 : 1;
    scales[r] = s;
    for (let c = 0; c < dim; c++) q[r * dim + c] = Math.round(m.data[r * dim + c]! / s);
  }
  return { encoding, rows, dim, data: q.buffer, scales };
}

export function decodeMatrix(e: EncodedMatrix): VectorMatrix {
  const { rows, dim } = e;
  if (e.encoding === 'f32') return { rows, dim, data: new Float32Array(e.data.slice(0)) };
  const out = new Float32Array(rows * dim);
  if (e.encoding === 'f16') {
    const h = new Uint16Array(e.data);
    for (let i = 0; i < out.length; i++) out[i] = fromHalf(h[i]!);
    return { rows, dim, data: out };
  }
  const q = new Int8Array(e.data);
  const scales = e.scales;
  if (!scales || scales.length !== rows) throw new Error('int8 matrix without one scale per row');
  for (let r = 0; r < rows; r++) for (let c = 0; c < dim; c++) out[r * dim + c] = q[r * dim + c]! * scales[r]!;
  return { rows, dim, data: out };
}
