/**
 * A model's output tensor → one vector per text: its values as float32 (fp16 outputs decoded), then the
 * registry's pooling (mean over the attended tokens, the first token's state, or none for graphs that pool
 * themselves). Done here rather than by transformers.js: its mean pooling allocates its result with the
 * output's own array type, which for an fp16 output in Node (onnxruntime gives Uint16Array bits where
 * there is no Float16Array) averages the 16-bit patterns as integers.
 */
import type { Pooling } from './registry.ts';

/** An output tensor as transformers.js hands it over: onnxruntime's type name, flat data, dims. */
export interface OutputTensor {
  type: string;
  data: unknown;
  dims: readonly number[];
}

/** The value of an IEEE 754 half-precision number given as its 16 bits. */
export function halfToFloat(bits: number): number {
  const sign = bits & 0x8000 ? -1 : 1;
  const exponent = (bits >> 10) & 0x1f;
  const fraction = bits & 0x3ff;
  if (exponent === 0) return sign * fraction * 2 ** -24;
  if (exponent === 0x1f) return fraction === 0 ? sign * Infinity : NaN;
  return sign * (1 + fraction / 1024) * 2 ** (exponent - 15);
}

/** The tensor's values as float32: fp16 given as raw bits (Uint16Array) are decoded, Float16Array read as numbers. */
export function floatValues(tensor: Pick<OutputTensor, 'type' | 'data'>): Float32Array {
  const { type, data } = tensor;
  if (type === 'float16' && data instanceof Uint16Array) return Float32Array.from(data, halfToFloat);
  if (data instanceof Float32Array) return data;
  if (type === 'float16' || type === 'float32' || type === 'float64') return Float32Array.from(data as ArrayLike<number>);
  throw new Error(`the model's output is ${type}, not floating point`);
}

function meanPool(values: Float32Array, rows: number, seq: number, dim: number, mask: ArrayLike<bigint | number>): Float32Array {
  const out = new Float32Array(rows * dim);
  const sum = new Float64Array(dim);
  for (let r = 0; r < rows; r++) {
    sum.fill(0);
    let count = 0;
    for (let t = 0; t < seq; t++) {
      if (Number(mask[r * seq + t]) === 0) continue;
      count++;
      const at = (r * seq + t) * dim;
      for (let k = 0; k < dim; k++) sum[k]! += values[at + k]!;
    }
    for (let k = 0; k < dim; k++) out[r * dim + k] = count > 0 ? sum[k]! / count : 0;
  }
  return out;
}

function firstTokenPool(values: Float32Array, rows: number, seq: number, dim: number): Float32Array {
  const out = new Float32Array(rows * dim);
  for (let r = 0; r < rows; r++) out.set(values.subarray(r * seq * dim, r * seq * dim + dim), r * dim);
  return out;
}

/**
 * One row per text from the model's output: [rows, seq, dim] pooled by `pooling` ('mean' over the tokens
 * whose mask is 1, 'cls' the first token), or [rows, dim] as it is ('none'). A fresh array, safe to normalize.
 */
export function poolOutput(tensor: OutputTensor, mask: ArrayLike<bigint | number>, rows: number, pooling: Pooling): { data: Float32Array; dim: number } {
  const dims = tensor.dims;
  const values = floatValues(tensor);
  if (pooling === 'none') {
    if (dims.length !== 2 || dims[0] !== rows) throw new Error(`expected [${rows}, dim] vectors, got [${dims.join(', ')}] (check pooling)`);
    return { data: Float32Array.from(values), dim: dims[1]! };
  }
  if (dims.length !== 3 || dims[0] !== rows) throw new Error(`expected [${rows}, tokens, dim] token vectors to pool, got [${dims.join(', ')}] (check pooling)`);
  const [, seq, dim] = dims as [number, number, number];
  return { data: pooling === 'mean' ? meanPool(values, rows, seq, dim, mask) : firstTokenPool(values, rows, seq, dim), dim };
}
