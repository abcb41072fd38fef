/**
 * Exact search over many queries in WebAssembly (exact-kernel.wat), for an evaluation's dense column
 * (300 queries × 5,183 SciFact rows):
 * - the dot products of four queries with every row, in SIMD: each lane sums in float64 over the
 *   components in order, as the TypeScript loop does, so the scores are bit-identical to it, in about a
 *   fifth of its time;
 * - the dot products of one query (a typed query) with every row, four rows per SIMD step, each lane summing
 *   in float64 over the components in order: bit-identical too;
 * - each query's top k (TopK's order: equal scores by row) without sorting all n rows: the rows that reach
 *   a score guessed from a sample (every 64th row), or else those a radix select keeps digit by digit, are
 *   gathered in row order and only they are sorted (a stable radix sort), so a top 1,000 of half a million
 *   rows costs about two passes over its scores.
 * - the float32 screen of many rows (exact-screen.ts): sixteen queries per pass, or one, four lanes per SIMD
 *   operation and no widening, and the rows whose screen score reaches a floor, gathered in row order.
 * None needs the warm-up that the TypeScript loops need in a fresh worker, where the first chunks of an
 * evaluation ran several times slower than the later ones. The matrix is copied into the module's memory
 * once per matrix (it must not change after its first search). Where WebAssembly SIMD is missing, or the
 * memory cannot grow to the matrix, `exactKernelOf` gives undefined and the search keeps its TypeScript
 * loops (tests/lib/dense/exact-kernel.test.ts compares the two).
 */
import type { RankedRows } from '../hits/top-of-scores.ts';
import { EXACT_KERNEL_WASM } from './exact-kernel.wasm.ts';
import { align16, inlineWasm } from './inline-wasm.ts';
import type { VectorMatrix } from './vector-matrix.ts';

type Four<T> = readonly [T, T, T, T];
type Eight<T> = readonly [T, T, T, T, T, T, T, T];

/** Queries per screening pass (dot32Sixteen). */
export const SCREEN_PASS = 16;
/** From this many rows exact search screens (exact-screen.ts): below, the float64 pass is cheap. */
export const SCREEN_MIN_ROWS = 16_384;

/** The arithmetic of a screen: float32 over the matrix, or over its bfloat16 copy (one query alone). */
export type ScreenPrecision = 'float32' | 'bfloat16';

export interface ExactKernel {
  /** out[j][r] = the dot product of row r with queries[j], for j < 4 (views that the next call overwrites). */
  dots(queries: Four<Float32Array>): Four<Float64Array>;
  /** `dots` of eight queries in one pass over the matrix: out[j] for j < 8. */
  dotsEight(queries: Eight<Float32Array>): Eight<Float64Array>;
  /** out[r] = the dot product of row r with `query`; query j = 0 of `top` (the view of `dots`' first output). */
  dotsOne(query: Float32Array): Float64Array;
  /**
   * The best `k` rows of the last `dots`' (`dotsEight`'s, `dotsOne`'s) query j, best first, with their scores (copies). The scores must
   * hold no NaN. `slack`: how many rows beyond k the selection may leave to the sort (tests give 0 to
   * select down to the last digit).
   */
  top(j: number, k: number, slack?: number): RankedRows;
  /**
   * The screening scores (exact-screen.ts) of SCREEN_PASS queries: out[j][r] = row r · queries[j] in float32
   * arithmetic, for j < SCREEN_PASS (views that the next screening call overwrites).
   */
  screen(queries: readonly Float32Array[]): readonly Float32Array[];
  /**
   * The screening scores of one query: out[r] = row r · query in float32 arithmetic, over the matrix's
   * bfloat16 copy from SCREEN_MIN_ROWS rows (half the bytes to read: `screenOnePrecision`); query j = 0 of `gather`.
   */
  screenOne(query: Float32Array): Float32Array;
  readonly screenOnePrecision: ScreenPrecision;
  /** The rows whose last screening score of query j is ≥ `lo` (a float32), in row order (a view the next call overwrites). */
  gather(j: number, lo: number): Int32Array;
  /** The largest Euclidean norm of the matrix's rows (NaN or ∞ when a value is not finite): the screen's bound needs it. */
  readonly largestNorm: number;
}

interface KernelExports {
  memory: WebAssembly.Memory;
  dotFour(matrix: number, rows: number, dim: number, queries: number, out: number): void;
  dotEight(matrix: number, rows: number, dim: number, queries: number, out: number): void;
  dotOne(matrix: number, rows: number, dim: number, query: number, out: number): void;
  topRows(scores: number, n: number, k: number, slack: number, keysA: number, keysB: number, rowsA: number, rowsB: number, counts: number): number;
  dot32Sixteen(matrix: number, rows: number, dim: number, queries: number, out: number): void;
  dot32One(matrix: number, rows: number, dim: number, query: number, out: number): void;
  gather32(scores: number, n: number, lo: number, out: number): number;
  largestNorm(matrix: number, rows: number, dim: number): number;
  toBf16(matrix: number, n: number, out: number): void;
  dotBf16One(matrix: number, rows: number, dim: number, query: number, out: number): void;
}

/** Rows beyond k that the selection leaves to the sort rather than look at one more digit of all the kept. */
const SELECT_SLACK = 1024;

const kernelModule = inlineWasm(EXACT_KERNEL_WASM);
const kernels = new WeakMap<VectorMatrix, ExactKernel | null>();

/** The kernel of `matrix` (made on first use, then kept with the matrix), or undefined where it cannot run. */
export function exactKernelOf(matrix: VectorMatrix): ExactKernel | undefined {
  let kernel = kernels.get(matrix);
  if (kernel === undefined) kernels.set(matrix, (kernel = createKernel(matrix)));
  return kernel ?? undefined;
}

function createKernel(matrix: VectorMatrix): ExactKernel | null {
  const module = kernelModule();
  if (module === null) return null;
  const { rows, dim, data } = matrix;
  const { memory, dotFour, dotEight, dotOne, topRows, dot32Sixteen, dot32One, gather32, largestNorm, toBf16, dotBf16One } = new WebAssembly.Instance(module, {}).exports as unknown as KernelExports;
  // The matrix, up to eight queries, eight outputs, then the selection's two key and two row buffers and
  // counts, then the screening's sixteen queries, sixteen outputs and gathered rows, then (many rows) the
  // matrix in bfloat16.
  const queriesAt = align16(rows * dim * 4);
  const outAt = align16(queriesAt + dim * 64);
  const keysAt = align16(outAt + 8 * rows * 8);
  const rowsAt = keysAt + 2 * rows * 8;
  const countsAt = align16(rowsAt + 2 * rows * 4);
  const queries32At = align16(countsAt + 2048 * 4);
  const outs32At = align16(queries32At + dim * 4 * SCREEN_PASS);
  const gatherAt = align16(outs32At + SCREEN_PASS * rows * 4);
  const bf16At = rows >= SCREEN_MIN_ROWS ? align16(gatherAt + rows * 4) : undefined;
  const end = bf16At === undefined ? gatherAt + rows * 4 : bf16At + rows * dim * 2;
  try {
    const pages = Math.ceil(end / 65536) - memory.buffer.byteLength / 65536;
    if (pages > 0) memory.grow(pages);
  } catch {
    return null; // a matrix larger than this engine gives a module's memory
  }
  // Views made after the growth stay valid: the memory never grows again.
  new Float32Array(memory.buffer, 0, rows * dim).set(data.subarray(0, rows * dim));
  if (bf16At !== undefined) toBf16(0, rows * dim, bf16At);
  const queries = new Float64Array(memory.buffer, queriesAt, dim * 8);
  const outs = Array.from({ length: 8 }, (_, j) => new Float64Array(memory.buffer, outAt + j * rows * 8, rows));
  const out = outs.slice(0, 4) as unknown as Four<Float64Array>;
  const queries32 = new Float32Array(memory.buffer, queries32At, dim * SCREEN_PASS);
  const outs32 = Array.from({ length: SCREEN_PASS }, (_, j) => new Float32Array(memory.buffer, outs32At + j * rows * 4, rows));
  return {
    largestNorm: largestNorm(0, rows, dim),
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
    dotsEight(eight) {
      for (let i = 0; i < dim; i++) for (let j = 0; j < 8; j++) queries[8 * i + j] = eight[j]![i]!;
      dotEight(0, rows, dim, queriesAt, outAt);
      return outs as unknown as Eight<Float64Array>;
    },
    dotsOne(query) {
      queries.set(query); // widened to float64, as the TypeScript loop's multiplications widen it
      dotOne(0, rows, dim, queriesAt, outAt);
      return out[0];
    },
    top(j, k, slack = SELECT_SLACK) {
      const scores = outs[j]!;
      const size = Math.min(k, rows);
      if (size <= 0) return { rows: new Int32Array(0), scores: new Float64Array(0) };
      const ordered = topRows(outAt + j * rows * 8, rows, size, slack, keysAt, keysAt + rows * 8, rowsAt, rowsAt + rows * 4, countsAt);
      const best = new Int32Array(memory.buffer, ordered, size).slice();
      const bestScores = new Float64Array(size);
      for (let i = 0; i < size; i++) bestScores[i] = scores[best[i]!]!;
      return { rows: best, scores: bestScores };
    },
    screen(group) {
      if (group.length !== SCREEN_PASS) throw new RangeError(`a screening pass takes ${SCREEN_PASS} queries, got ${group.length}`);
      for (let i = 0; i < dim; i++) for (let j = 0; j < SCREEN_PASS; j++) queries32[SCREEN_PASS * i + j] = group[j]![i]!;
      dot32Sixteen(0, rows, dim, queries32At, outs32At);
      return outs32;
    },
    screenOnePrecision: bf16At === undefined ? 'float32' : 'bfloat16',
    screenOne(query) {
      queries32.set(query);
      if (bf16At === undefined) dot32One(0, rows, dim, queries32At, outs32At);
      else dotBf16One(bf16At, rows, dim, queries32At, outs32At);
      return outs32[0]!;
    },
    gather(j, lo) {
      const count = gather32(outs32At + j * rows * 4, rows, lo, gatherAt);
      return new Int32Array(memory.buffer, gatherAt, count);
    },
  };
}
