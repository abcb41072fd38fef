/**
 * Exact (brute-force) search over a stored embedding matrix. The score is the dot product; for models
 * whose card says cosine, rows and queries are L2-normalized when stored, so dot = cosine.
 */
import type { Hit } from '../types.ts';
import { hasNaN, topOfScores, type RankedRows } from '../hits/top-of-scores.ts';
import { exactKernelOf, SCREEN_MIN_ROWS, SCREEN_PASS, type ExactKernel } from './exact-kernel.ts';
import { screenedTop } from './exact-screen.ts';
import { dotWithRow, type VectorMatrix } from './vector-matrix.ts';

/** A row of an embedding matrix (or HNSW graph) with its similarity to a query. */
export interface ScoredRow {
  row: number;
  score: number;
}

/** The k rows with the highest dot product with `query`, best first (ties: lower row first). */
export function exactTopK(matrix: VectorMatrix, query: Float32Array, k: number): ScoredRow[] {
  return exactTopKMany(matrix, [query], k)[0]!;
}

/**
 * exactTopK of each query, in WebAssembly SIMD where it runs (exact-kernel.ts; the matrix must not change
 * after its first search, and is copied into the kernel's memory then). From SCREEN_MIN_ROWS rows a float32
 * screen finds each top k (exact-screen.ts); below that, or where the screen cannot answer, eight (or four)
 * queries share each pass over the matrix (a row is read once for them). Either way each score is the
 * float64 sum over the components in order, as one query alone gets it, so the scores and the ranking are
 * bit-identical to it (tests/lib/dense/exact-search.test.ts, exact-screen.test.ts).
 */
export function exactTopKMany(matrix: VectorMatrix, queries: readonly Float32Array[], k: number): ScoredRow[][] {
  return exactTopRowsMany(matrix, queries, k).map(({ rows, scores }) => Array.from(rows, (row, i): ScoredRow => ({ row, score: scores[i]! })));
}

/** {@link exactTopKMany} as typed arrays (what crosses a worker boundary), without an object per hit. */
export function exactTopRowsMany(matrix: VectorMatrix, queries: readonly Float32Array[], k: number): RankedRows[] {
  for (const query of queries) if (query.length !== matrix.dim) throw new Error(`query has ${query.length} dimensions, matrix ${matrix.dim}`);
  if (!Number.isInteger(k) || k < 0) throw new RangeError(`k must be a non-negative integer, got ${k}`);
  if (queries.length === 0) return [];
  let scratch: Float64Array | undefined;
  const results: RankedRows[] = [];
  const kernel = exactKernelOf(matrix);
  // The kernel selects on the scores' bits: scores with NaN go to the heap, whose comparisons place NaN.
  const topOf = (dots: Float64Array, j: number): RankedRows =>
    kernel !== undefined && !hasNaN(dots) ? kernel.top(j, k) : topOfScores(dots, k, (scratch ??= new Float64Array(matrix.rows)));
  let next = 0;
  if (kernel === undefined) {
    const scores = Array.from({ length: Math.min(4, queries.length) }, () => new Float64Array(matrix.rows));
    for (; next + 4 <= queries.length; next += 4) {
      const dots = dotFour(matrix, queries.slice(next, next + 4) as [Float32Array, Float32Array, Float32Array, Float32Array], scores);
      for (let j = 0; j < 4; j++) results.push(topOf(dots[j]!, j));
    }
    for (; next < queries.length; next++) results.push(topOf(dotOne(matrix, queries[next]!, scores[0]!), 0));
    return results;
  }
  if (matrix.rows >= SCREEN_MIN_ROWS && Number.isFinite(kernel.largestNorm)) return screenedTopRows(kernel, matrix, queries, k, topOf);
  // A pass of eight costs less than two of four, and one query alone most of a pass of four: five or more
  // left go eight at a time, two to four share a pass of four (the last repeated to fill a pass).
  for (; next + 1 < queries.length; ) {
    const size = queries.length - next > 4 ? 8 : 4;
    const group = queries.slice(next, next + size);
    const count = group.length;
    while (group.length < size) group.push(group[count - 1]!);
    const dots: readonly Float64Array[] =
      size === 8
        ? kernel.dotsEight(group as [Float32Array, Float32Array, Float32Array, Float32Array, Float32Array, Float32Array, Float32Array, Float32Array])
        : kernel.dots(group as [Float32Array, Float32Array, Float32Array, Float32Array]);
    for (let j = 0; j < count; j++) results.push(topOf(dots[j]!, j));
    next += count;
  }
  if (next < queries.length) results.push(topOf(kernel.dotsOne(queries[next]!), 0));
  return results;
}

/**
 * The sizes of query batches that take each kind of pass exactTopRowsMany makes over a matrix of `rows`
 * rows (what a warm-up runs once each): one query alone and a screening pass from SCREEN_MIN_ROWS rows;
 * below, passes of eight, four and one.
 */
export function exactPassSizes(rows: number): readonly number[] {
  return rows >= SCREEN_MIN_ROWS ? [1, SCREEN_PASS] : [8, 4, 1];
}

/**
 * Many rows: each query's top k through the float32 screen (exact-screen.ts), SCREEN_PASS queries per pass
 * (the last repeated to fill a pass), one query alone in its own pass; a query the screen cannot answer is
 * scored in float64 over every row, as smaller matrices always are.
 */
function screenedTopRows(kernel: ExactKernel, matrix: VectorMatrix, queries: readonly Float32Array[], k: number, topOf: (dots: Float64Array, j: number) => RankedRows): RankedRows[] {
  const results: RankedRows[] = [];
  for (let next = 0; next < queries.length; ) {
    const group = queries.slice(next, next + SCREEN_PASS);
    const count = group.length;
    let screens: readonly Float32Array[];
    if (count === 1) screens = [kernel.screenOne(group[0]!)];
    else {
      while (group.length < SCREEN_PASS) group.push(group[count - 1]!);
      screens = kernel.screen(group);
    }
    for (let j = 0; j < count; j++) {
      const query = group[j]!;
      const precision = count === 1 ? kernel.screenOnePrecision : 'float32';
      results.push(screenedTop(kernel, matrix, query, { scores: screens[j]!, j, precision }, k) ?? topOf(kernel.dotsOne(query), 0));
    }
    next += count;
  }
  return results;
}

function dotOne(matrix: VectorMatrix, query: Float32Array, out: Float64Array): Float64Array {
  for (let r = 0; r < matrix.rows; r++) out[r] = dotWithRow(matrix, r, query);
  return out;
}

/** The TypeScript loop of exact-kernel.wat (where WebAssembly SIMD is missing): fills and returns `out`. */
export function dotFour(matrix: VectorMatrix, [q0, q1, q2, q3]: readonly [Float32Array, Float32Array, Float32Array, Float32Array], out: Float64Array[]): Float64Array[] {
  const { data, dim, rows } = matrix;
  const [o0, o1, o2, o3] = out as [Float64Array, Float64Array, Float64Array, Float64Array];
  for (let r = 0; r < rows; r++) {
    let s0 = 0;
    let s1 = 0;
    let s2 = 0;
    let s3 = 0;
    const base = r * dim;
    for (let i = 0; i < dim; i++) {
      const x = data[base + i]!;
      s0 += x * q0[i]!;
      s1 += x * q1[i]!;
      s2 += x * q2[i]!;
      s3 += x * q3[i]!;
    }
    o0[r] = s0;
    o1[r] = s1;
    o2[r] = s2;
    o3[r] = s3;
  }
  return out;
}

/** exactTopK as hits with document ids (`ids[row]`). */
export function exactSearch(matrix: VectorMatrix, ids: readonly string[], query: Float32Array, k: number): Hit[] {
  return exactTopK(matrix, query, k).map(({ row, score }) => ({ docId: ids[row]!, score }));
}

/**
 * Scores only the given candidate documents (LEDR re-scores BM25's candidates; LaPraDoR's code restricts
 * dense scoring to them). Unknown ids are skipped. Hits come back best first.
 */
export function scoreCandidates(
  matrix: VectorMatrix,
  rowOf: ReadonlyMap<string, number>,
  query: Float32Array,
  candidateIds: readonly string[],
): Hit[] {
  const hits: Hit[] = [];
  for (const docId of candidateIds) {
    const row = rowOf.get(docId);
    if (row === undefined) continue;
    hits.push({ docId, score: dotWithRow(matrix, row, query) });
  }
  return hits.sort((a, b) => b.score - a.score);
}

/** id → row index, for scoreCandidates. */
export function rowIndex(ids: readonly string[]): Map<string, number> {
  return new Map(ids.map((id, row) => [id, row]));
}
