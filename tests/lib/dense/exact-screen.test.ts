/**
 * The float32 screen of exact search (src/lib/dense/exact-screen.ts, exact-kernel.wat's dot32Sixteen,
 * dot32One, gather32). References: float32 dot products written here with Math.fround in the kernel's order
 * of operations, and the float64 top k of every row (dotWithRow, then a full stable sort by score), which the
 * screened answer must equal bit for bit, on rows made to tie and to differ below float32's resolution.
 */
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { exactKernelOf, SCREEN_MIN_ROWS, SCREEN_PASS, type ExactKernel, type ScreenPrecision } from '../../../src/lib/dense/exact-kernel.ts';
import { floorFloat32, screenedTop, screenError } from '../../../src/lib/dense/exact-screen.ts';
import { exactTopRowsMany } from '../../../src/lib/dense/exact-search.ts';
import { clusteredVectors, seededRandom } from '../../../src/lib/dense/synthetic-vectors.ts';
import { dotWithRow, matrixRow, type VectorMatrix } from '../../../src/lib/dense/vector-matrix.ts';

const f = Math.fround;

/** dot32Sixteen's lane: components in order, each product and sum rounded to float32. */
function inOrder32(matrix: VectorMatrix, row: number, query: Float32Array): number {
  let s = 0;
  for (let i = 0; i < matrix.dim; i++) s = f(s + f(matrix.data[row * matrix.dim + i]! * query[i]!));
  return s;
}

/**
 * dot32One's: four lanes over the components four at a time, the lanes added pairwise, then the rest in
 * order; the last rows mod 4 alone, in order.
 */
function inLanes32(matrix: VectorMatrix, row: number, query: Float32Array): number {
  if (row >= (matrix.rows & ~3)) return inOrder32(matrix, row, query);
  const lanes = [0, 0, 0, 0];
  const wide = matrix.dim & ~3;
  for (let i = 0; i < wide; i++) lanes[i % 4] = f(lanes[i % 4]! + f(matrix.data[row * matrix.dim + i]! * query[i]!));
  let s = f(f(lanes[0]! + lanes[1]!) + f(lanes[2]! + lanes[3]!));
  for (let i = wide; i < matrix.dim; i++) s = f(s + f(matrix.data[row * matrix.dim + i]! * query[i]!));
  return s;
}

/** A float32 rounded to bfloat16 as toBf16 rounds it (its top 16 bits, to nearest, ties to even). */
function bf16(x: number): number {
  const bits = new Uint32Array(new Float32Array([x]).buffer)[0]!;
  const rounded = ((bits + 0x7fff + ((bits >>> 16) & 1)) >>> 16) << 16;
  return new Float32Array(new Uint32Array([rounded >>> 0]).buffer)[0]!;
}

/** dotBf16One's: the bfloat16 components, four lanes over eight components a step (low four plus high four), the lanes added pairwise, then the rest. */
function inBf16Lanes(matrix: VectorMatrix, row: number, query: Float32Array): number {
  const x = (i: number) => bf16(matrix.data[row * matrix.dim + i]!);
  if (row >= (matrix.rows & ~3)) {
    let s = 0;
    for (let i = 0; i < matrix.dim; i++) s = f(s + f(x(i) * query[i]!));
    return s;
  }
  const lanes = [0, 0, 0, 0];
  const wide = matrix.dim & ~7;
  for (let o = 0; o < wide; o += 8) for (let l = 0; l < 4; l++) lanes[l] = f(lanes[l]! + f(f(x(o + l) * query[o + l]!) + f(x(o + 4 + l) * query[o + 4 + l]!)));
  let s = f(f(lanes[0]! + lanes[1]!) + f(lanes[2]! + lanes[3]!));
  for (let i = wide; i < matrix.dim; i++) s = f(s + f(x(i) * query[i]!));
  return s;
}

/** Both screens of one query: over the bfloat16 copy (one query alone) and float32 (a pass of sixteen). */
function eachScreen(kernel: ExactKernel, query: Float32Array, use: (screen: { scores: Float32Array; j: number; precision: ScreenPrecision }) => void): void {
  use({ scores: kernel.screenOne(query), j: 0, precision: kernel.screenOnePrecision });
  use({ scores: kernel.screen(new Array<Float32Array>(SCREEN_PASS).fill(query))[0]!, j: 0, precision: 'float32' });
}

/** The float64 top k of every row, in TopK's order (score descending, then row). */
function referenceTop(matrix: VectorMatrix, query: Float32Array, k: number): { rows: number[]; scores: number[] } {
  const scored = Array.from({ length: matrix.rows }, (_, row) => ({ row, score: dotWithRow(matrix, row, query) }));
  scored.sort((a, b) => b.score - a.score || a.row - b.row);
  const top = scored.slice(0, k);
  return { rows: top.map((hit) => hit.row), scores: top.map((hit) => hit.score) };
}

function expectReference(found: { rows: Int32Array; scores: Float64Array }, matrix: VectorMatrix, query: Float32Array, k: number): void {
  const expected = referenceTop(matrix, query, k);
  expect(Array.from(found.rows)).toEqual(expected.rows);
  expect(Array.from(found.scores).every((score, i) => Object.is(score, expected.scores[i]))).toBe(true);
}

test('sixteen queries and one query: the screen scores are the float32 sums in the kernel’s order, within ε of the float64 scores (property)', () => {
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 200 }), fc.integer({ min: 1, max: 40 }), fc.integer(), (rows, dim, seed) => {
      const matrix = clusteredVectors(rows, dim, { seed });
      const queries = clusteredVectors(SCREEN_PASS, dim, { seed: seed + 1 });
      const group = Array.from({ length: SCREEN_PASS }, (_, j) => matrixRow(queries, j));
      const kernel = exactKernelOf(matrix)!;
      const screens = kernel.screen(group).map((scores) => Array.from(scores));
      const one = Array.from(kernel.screenOne(group[3]!));
      for (let r = 0; r < rows; r++) {
        group.forEach((query, j) => expect(Object.is(screens[j]![r], inOrder32(matrix, r, query))).toBe(true));
        expect(Object.is(one[r], inLanes32(matrix, r, group[3]!))).toBe(true);
        const error = screenError(kernel, group[3]!, 'float32')!;
        expect(Math.abs(one[r]! - dotWithRow(matrix, r, group[3]!))).toBeLessThanOrEqual(error);
      }
    }),
    { numRuns: 60 },
  );
});

test('ε bounds the screen on sums that cancel and on values far from 1 (property)', () => {
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 64 }), fc.double({ min: -30, max: 30, noNaN: true }), fc.integer(), (dim, exponent, seed) => {
      const random = seededRandom(seed);
      const scale = 2 ** Math.round(exponent);
      // Large terms of both signs that nearly cancel: the case where a float32 sum loses the most.
      const data = Float32Array.from({ length: 64 * dim }, (_, i) => (i % 2 === 0 ? 1 : -1) * scale * (1 + random() * 1e-3));
      const matrix: VectorMatrix = { rows: 64, dim, data };
      const query = Float32Array.from({ length: dim }, () => 1 + random() * 1e-3);
      const kernel = exactKernelOf(matrix)!;
      const screen = kernel.screenOne(query);
      const error = screenError(kernel, query, 'float32')!;
      for (let r = 0; r < 64; r++) expect(Math.abs(screen[r]! - dotWithRow(matrix, r, query))).toBeLessThanOrEqual(error);
    }),
    { numRuns: 100 },
  );
});

test('one query over many rows: the bfloat16 screen is its sums in the kernel’s order, within its ε of the float64 scores, also on sums that cancel (property)', () => {
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 37 }), fc.integer({ min: -30, max: 30 }), fc.boolean(), fc.integer(), (dim, exponent, cancelling, seed) => {
      const random = seededRandom(seed);
      const rows = SCREEN_MIN_ROWS + (seed & 7);
      const scale = 2 ** exponent;
      const data = Float32Array.from({ length: rows * dim }, (_, i) => scale * (cancelling ? (i % 2 === 0 ? 1 : -1) * (1 + random() * 1e-3) : random() - 0.5));
      const matrix: VectorMatrix = { rows, dim, data };
      const query = Float32Array.from({ length: dim }, () => 1 + random() * 1e-3);
      const kernel = exactKernelOf(matrix)!;
      expect(kernel.screenOnePrecision).toBe('bfloat16');
      const screen = kernel.screenOne(query);
      const error = screenError(kernel, query, 'bfloat16')!;
      for (let r = 0; r < rows; r += 97) {
        expect(Object.is(screen[r], inBf16Lanes(matrix, r, query))).toBe(true);
        expect(Math.abs(screen[r]! - dotWithRow(matrix, r, query))).toBeLessThanOrEqual(error);
      }
      for (const r of [rows - 1, rows - 2, rows - 3]) expect(Object.is(screen[r], inBf16Lanes(matrix, r, query))).toBe(true);
    }),
    { numRuns: 20 },
  );
});

test('the kernel’s largest row norm is the largest Euclidean norm of the rows; a value that is not finite makes it so too (property)', () => {
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 100 }), fc.integer({ min: 1, max: 21 }), fc.integer(), (rows, dim, seed) => {
      const matrix = clusteredVectors(rows, dim, { seed });
      for (let r = 0; r < rows; r++) for (let i = 0; i < dim; i++) matrix.data[r * dim + i]! *= 1 + (r % 7);
      const expected = Math.max(...Array.from({ length: rows }, (_, r) => Math.sqrt(dotWithRow(matrix, r, matrixRow(matrix, r)))));
      expect(Math.abs(exactKernelOf(matrix)!.largestNorm - expected)).toBeLessThanOrEqual(expected * 1e-12);
    }),
    { numRuns: 100 },
  );
  const infinite = clusteredVectors(9, 3, { seed: 3 });
  infinite.data[13] = -Infinity;
  expect(exactKernelOf(infinite)!.largestNorm).toBe(Infinity);
});

test('floorFloat32 is the largest float32 at or below its argument', () => {
  fc.assert(
    fc.property(fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e30, max: 1e30 }), (x) => {
      const below = floorFloat32(x);
      expect(f(below)).toBe(below);
      expect(below).toBeLessThanOrEqual(x);
      // The next float32 up is above x (one step in the bits' order, away from below).
      const up = new Float32Array([below]);
      const bits = new Int32Array(up.buffer);
      if (below === 0) up[0] = 2 ** -149;
      else bits[0] = bits[0]! + (below > 0 ? 1 : -1);
      expect(up[0]!).toBeGreaterThan(x);
    }),
    { numRuns: 2000 },
  );
  expect(floorFloat32(0)).toBe(0);
  expect(floorFloat32(-1e-50)).toBe(-(2 ** -149));
});

/**
 * SCREEN_MIN_ROWS + 4,000 rows of 8 components: most score low, and `top` rows score within 2⁻³⁰ of each
 * other (far below float32's resolution at 1, 2⁻²⁴), some of them exactly equal, so the screen cannot order them
 * and the float64 scores must.
 */
function nearTies(top: number, seed: number): VectorMatrix {
  const dim = 8;
  const rows = SCREEN_MIN_ROWS + 4_000;
  const random = seededRandom(seed);
  const data = new Float32Array(rows * dim);
  const high = new Set<number>();
  while (high.size < top) high.add(Math.floor(random() * rows));
  for (let r = 0; r < rows; r++) {
    if (high.has(r)) {
      data[r * dim] = 0.75;
      // Float32 steps of 2⁻³⁰ near 2⁻⁷, times the query's 0.5: scores 2⁻³¹ apart, or equal.
      data[r * dim + 1] = f(2 ** -7 + (Math.floor(random() * 5) * 2 ** -31));
      data[r * dim + 2] = 0.5;
    } else for (let i = 0; i < dim; i++) data[r * dim + i] = random() * 0.2 - 0.1;
  }
  return { rows, dim, data };
}

test('rows tied or differing below float32’s resolution: the screened top k is the float64 top k, bit for bit, without falling back', () => {
  const query = Float32Array.from([1, 0.5, 0.25, 0.1, 0.1, 0.1, 0.1, 0.1]);
  for (const [top, seed] of [[300, 1], [1_000, 2]] as const) {
    const matrix = nearTies(top, seed);
    const kernel = exactKernelOf(matrix)!;
    eachScreen(kernel, query, (screen) => {
      for (const k of [1, 10, 100, top - 1, top, top + 50]) {
        const screened = screenedTop(kernel, matrix, query, screen, k);
        expect(screened, `k ${k} of ${top} near ties, ${screen.precision}`).toBeDefined();
        expectReference(screened!, matrix, query, k);
      }
    });
  }
});

test('a row that the float32 screen ranks below another, and float64 above it, is still found', () => {
  // Components summed in order with the query (1, 1, 1): A's two half-ulp additions each round back to 1, so
  // A screens at 1 though it is 1 + 2⁻²³; B screens at 1 + 2⁻²³ though it is 1 + 0.75 · 2⁻²³.
  const rows = SCREEN_MIN_ROWS;
  const random = seededRandom(41);
  const data = Float32Array.from({ length: rows * 3 }, () => random() * 0.25);
  const [b, a] = [1_234, 9_876];
  data.set([1, 0.75 * 2 ** -23, 0], b * 3);
  data.set([1, 2 ** -24, 2 ** -24], a * 3);
  const matrix: VectorMatrix = { rows, dim: 3, data };
  const query = Float32Array.from([1, 1, 1]);
  const kernel = exactKernelOf(matrix)!;
  const scores = kernel.screen(new Array<Float32Array>(SCREEN_PASS).fill(query))[0]!;
  expect(scores[a]).toBeLessThan(scores[b]!);
  expect(dotWithRow(matrix, a, query)).toBeGreaterThan(dotWithRow(matrix, b, query));
  for (const k of [1, 2, 10]) expectReference(screenedTop(kernel, matrix, query, { scores, j: 0, precision: 'float32' }, k)!, matrix, query, k);
});

test('exactTopRowsMany over many rows (the screen, and the float64 pass where the screen cannot answer) equals the float64 top k', () => {
  const matrix = clusteredVectors(SCREEN_MIN_ROWS + 1_001, 12, { seed: 21 });
  const queries = clusteredVectors(SCREEN_PASS + 1, 12, { seed: 22 });
  const all = Array.from({ length: queries.rows }, (_, i) => matrixRow(queries, i));
  // One query alone, two (a pass filled by repeating the last), sixteen, seventeen (a full pass and one alone).
  for (const count of [1, 2, SCREEN_PASS, SCREEN_PASS + 1]) {
    const found = exactTopRowsMany(matrix, all.slice(0, count), 100);
    found.forEach((ranked, i) => expectReference(ranked, matrix, all[i]!, 100));
  }
  // k beyond the screen's share of the rows, and beyond the rows: the float64 pass answers.
  for (const k of [5_000, matrix.rows + 3]) expectReference(exactTopRowsMany(matrix, [all[0]!], k)[0]!, matrix, all[0]!, k);
  // A query of zeros ties every row at 0: too many candidates, the float64 pass keeps the lower rows.
  const zeros = new Float32Array(12);
  eachScreen(exactKernelOf(matrix)!, zeros, (screen) => expect(screenedTop(exactKernelOf(matrix)!, matrix, zeros, screen, 10)).toBeUndefined());
  expectReference(exactTopRowsMany(matrix, [zeros, zeros], 10)[1]!, matrix, zeros, 10);
});

test('a matrix with a value that is not finite, or too large for float32 sums, is never screened and still ranks as before', () => {
  const withNaN = clusteredVectors(SCREEN_MIN_ROWS, 4, { seed: 31 });
  withNaN.data[4 * 77 + 2] = NaN;
  const huge = clusteredVectors(SCREEN_MIN_ROWS, 4, { seed: 32 });
  huge.data[4 * 5] = 1e37;
  const query = Float32Array.from([0.5, -0.25, 0.125, 1]);
  expect(exactKernelOf(withNaN)!.largestNorm).toBeNaN();
  for (const precision of ['float32', 'bfloat16'] as const) {
    expect(screenError(exactKernelOf(withNaN)!, query, precision)).toBeUndefined();
    expect(screenError(exactKernelOf(huge)!, query, precision)).toBeUndefined();
  }
  const found = exactTopRowsMany(huge, [query, query], 10);
  expectReference(found[0]!, huge, query, 10);
  // NaN scores go to the heap's order (as before the screen): row 77 is not among a finite top.
  expect(exactTopRowsMany(withNaN, [query], 10)[0]!.rows).toHaveLength(10);
});
