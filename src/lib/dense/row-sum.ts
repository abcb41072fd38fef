/**
 * The weighted row sum of a static-table embedding in WebAssembly SIMD (row-sum.wat): the loop that adds
 * each distinct token's int8 row, times its weight, into float64 sums. Each SIMD lane does the multiply and
 * the add of the TypeScript loop, in the same order, so the sums are bit-identical to it
 * (tests/lib/dense/row-sum.test.ts), at a fifth of its time. Where WebAssembly SIMD is missing,
 * `createRowSummer` gives undefined and the encoder keeps its TypeScript loop.
 */
import { ROW_SUM_WASM } from './row-sum.wasm.ts';
import { align16, inlineWasm } from './inline-wasm.ts';

export interface RowSummer {
  /** Row ids of the distinct tokens: write the first `n` before `accumulate(n)`. */
  readonly ids: Int32Array;
  /** Their weights. */
  readonly weights: Float64Array;
  /** The result: sum[c] = Σ_u weights[u] · row(ids[u])[c], tokens added in order. */
  readonly sum: Float64Array;
  accumulate(n: number): void;
}

interface RowSumExports {
  memory: WebAssembly.Memory;
  accumulate(ids: number, weights: number, n: number, values: number, dim: number, sum: number): void;
}

const rowSumModule = inlineWasm(ROW_SUM_WASM);

/**
 * A summer over `values` (rows × dim int8, copied into the module's memory once) for up to `capacity`
 * distinct tokens per text; undefined when WebAssembly SIMD is unavailable or `dim` is not a multiple of 4.
 */
export function createRowSummer(values: Int8Array, dim: number, capacity: number): RowSummer | undefined {
  const module = dim % 4 === 0 ? rowSumModule() : null;
  if (module === null) return undefined;
  const { memory, accumulate } = new WebAssembly.Instance(module, {}).exports as unknown as RowSumExports;
  // values, 4 readable bytes past them (the last group of 4 is loaded as 8), ids, weights, sums.
  const idsAt = align16(values.length + 4);
  const weightsAt = align16(idsAt + capacity * 4);
  const sumAt = align16(weightsAt + capacity * 8);
  const end = sumAt + dim * 8;
  const pages = Math.ceil(end / 65536) - memory.buffer.byteLength / 65536;
  if (pages > 0) memory.grow(pages);
  // Views made after the growth stay valid: the memory never grows again.
  new Int8Array(memory.buffer, 0, values.length).set(values);
  const sum = new Float64Array(memory.buffer, sumAt, dim);
  return {
    ids: new Int32Array(memory.buffer, idsAt, capacity),
    weights: new Float64Array(memory.buffer, weightsAt, capacity),
    sum,
    accumulate(n) {
      sum.fill(0);
      accumulate(idsAt, weightsAt, n, 0, dim, sumAt);
    },
  };
}
