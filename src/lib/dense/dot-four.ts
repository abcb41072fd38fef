/**
 * The dot products of four queries with every row of a matrix in WebAssembly SIMD (dot-four.wat), for
 * exact search over many queries (an evaluation's dense column: 300 queries × 5,183 SciFact rows). Each
 * lane sums in float64 over the components in order, as the TypeScript loop does, so the scores are
 * bit-identical to it (tests/lib/dense/dot-four.test.ts), in about a third of its time, and without the
 * loop's warm-up in a fresh worker. The matrix is copied into the module's memory once per matrix. Where
 * WebAssembly SIMD is missing, or the memory cannot grow to the matrix, `fourDotsOf` gives undefined and the
 * search keeps its TypeScript loop.
 */
import { DOT_FOUR_WASM } from './dot-four.wasm.ts';
import type { VectorMatrix } from './vector-matrix.ts';

export interface FourDots {
  /** out[j][r] = the dot product of row r with queries[j], for j < 4 (views that the next call overwrites). */
  dots(queries: readonly [Float32Array, Float32Array, Float32Array, Float32Array]): readonly [Float64Array, Float64Array, Float64Array, Float64Array];
}

interface DotFourExports {
  memory: WebAssembly.Memory;
  dotFour(matrix: number, rows: number, dim: number, queries: number, out: number): void;
}

let compiled: WebAssembly.Module | null | undefined;

function dotFourModule(): WebAssembly.Module | null {
  if (compiled === undefined) {
    try {
      compiled = new WebAssembly.Module(Uint8Array.from(atob(DOT_FOUR_WASM), (char) => char.charCodeAt(0)));
    } catch {
      compiled = null; // no WebAssembly, or no SIMD in this engine
    }
  }
  return compiled;
}

const align16 = (offset: number) => (offset + 15) & ~15;
const kernels = new WeakMap<VectorMatrix, FourDots | null>();

/** The kernel of `matrix` (made on first use, then kept with the matrix), or undefined where it cannot run. */
export function fourDotsOf(matrix: VectorMatrix): FourDots | undefined {
  let kernel = kernels.get(matrix);
  if (kernel === undefined) kernels.set(matrix, (kernel = createFourDots(matrix)));
  return kernel ?? undefined;
}

function createFourDots(matrix: VectorMatrix): FourDots | null {
  const module = dotFourModule();
  if (module === null) return null;
  const { rows, dim, data } = matrix;
  const { memory, dotFour } = new WebAssembly.Instance(module, {}).exports as unknown as DotFourExports;
  const queriesAt = align16(rows * dim * 4);
  const outAt = align16(queriesAt + dim * 32);
  const end = outAt + 4 * rows * 8;
  try {
    const pages = Math.ceil(end / 65536) - memory.buffer.byteLength / 65536;
    if (pages > 0) memory.grow(pages);
  } catch {
    return null; // a matrix larger than this engine gives a module's memory
  }
  // Views made after the growth stay valid: the memory never grows again.
  new Float32Array(memory.buffer, 0, rows * dim).set(data.subarray(0, rows * dim));
  const queries = new Float64Array(memory.buffer, queriesAt, dim * 4);
  const out = [0, 1, 2, 3].map((j) => new Float64Array(memory.buffer, outAt + j * rows * 8, rows)) as [Float64Array, Float64Array, Float64Array, Float64Array];
  return {
    dots([q0, q1, q2, q3]) {
      for (let i = 0; i < dim; i++) {
        queries[4 * i] = q0[i]!;
        queries[4 * i + 1] = q1[i]!;
        queries[4 * i + 2] = q2[i]!;
        queries[4 * i + 3] = q3[i]!;
      }
      dotFour(0, rows, dim, queriesAt, outAt);
      return out;
    },
  };
}
