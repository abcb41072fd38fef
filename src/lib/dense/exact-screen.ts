/**
 * An exact search's top k found through a float32 screen: the kernel scores every row in float32 (four lanes
 * per SIMD operation instead of two, and no widening; one query alone over a bfloat16 copy of the matrix,
 * half the bytes to read, as its scan waits on memory), and only the rows that the screen cannot rule out are
 * scored as the search scores them (float64, components in order: dotWithRow). The answer is the float64
 * top k itself, bit for bit, because the screen's error is bounded:
 *
 * - with float32 unit roundoff u = 2⁻²⁴ and d components, a float32 dot product of float32 vectors a, b in any
 *   order of additions differs from the exact Σ aᵢbᵢ by at most γ(d)·Σ|aᵢbᵢ|, γ(d) = d·u / (1 − d·u)
 *   (Higham, Accuracy and Stability of Numerical Algorithms, §3.1), plus at most one subnormal spacing per
 *   operation; the float64 sum differs from the exact one by at most the same with u = 2⁻⁵³; and
 *   Σ|aᵢbᵢ| ≤ ‖a‖·‖b‖ (Cauchy–Schwarz). So |screen − score| ≤ ε = (γ32 + γ64)·‖q‖·max‖row‖ + η.
 * - Take any g that at least k screen scores reach (a sample's guess). Those k rows score at least g − ε, so
 *   the k-th best score is at least g − ε, and every row of the top k (ties included) has a screen score of at
 *   least g − 2ε: the rows at or above g − 2ε hold the top k. They are gathered in row order, so ordering
 *   them by score with ties by position (topOfScores) is TopK's order of the whole matrix.
 *
 * When the bound does not hold or does not help (a non-finite value, values near float32's range, a guess
 * that fewer than k rows reach, too many candidates), the caller scores every row in float64 as before.
 * tests/lib/dense/exact-screen.test.ts compares both ways on rows made to tie and nearly tie.
 */
import { selectSmallest, topOfScores, type RankedRows } from '../hits/top-of-scores.ts';
import { SCREEN_MIN_ROWS, type ExactKernel, type ScreenPrecision } from './exact-kernel.ts';
import { dotWithRow, type VectorMatrix } from './vector-matrix.ts';

/** Every SAMPLE_STEP-th screen score goes into the sample that guesses the threshold. */
const SAMPLE_STEP = 64;
/** Beyond this share of the rows, rescoring the candidates one by one costs more than the float64 pass. */
const MAX_CANDIDATE_SHARE = 1 / 16;
/** Values this large could overflow float32 on the way (its largest finite value is about 2¹²⁸). */
const LARGEST_PRODUCT = 2 ** 120;

const U32 = 2 ** -24;
const U64 = 2 ** -53;
/** Float32's smallest subnormal spacing, doubled: the absolute error an operation near zero may add. */
const SUBNORMAL = 2 ** -148;
/** Bfloat16's relative rounding error (8 significant bits, to nearest), and half its subnormal spacing. */
const U16 = 2 ** -9;
const BF16_SUBNORMAL = 2 ** -134;

/**
 * ε: how far a screen score may lie from the float64 score of the same row, or undefined when unbounded here.
 * Over the bfloat16 copy, each component is first off by at most 2⁻⁹ of itself (rounding to 8 significant
 * bits), or 2⁻¹³⁴ below bfloat16's normal range: 2⁻⁹·Σ|aᵢbᵢ| + d·2⁻¹³⁴·‖q‖ more.
 */
export function screenError(kernel: ExactKernel, query: Float32Array, precision: ScreenPrecision): number | undefined {
  const rowNorm = kernel.largestNorm;
  let squares = 0;
  for (let i = 0; i < query.length; i++) squares += query[i]! * query[i]!;
  const queryNorm = Math.sqrt(squares);
  const product = queryNorm * rowNorm;
  if (!(product < LARGEST_PRODUCT)) return undefined; // NaN, ∞ or too large
  const d = query.length + 2; // the lanes' final additions and the remainder's, counted generously
  const gamma = (u: number) => (d * u) / (1 - d * u);
  const rounding = precision === 'bfloat16' ? { relative: U16, absolute: d * BF16_SUBNORMAL * queryNorm } : { relative: 0, absolute: 0 };
  const relative = rounding.relative + gamma(U32) * (1 + rounding.relative) + gamma(U64);
  // The factor covers the rounding of ε's own computation (norms and products in float64).
  return (relative * product + (1 + gamma(U32)) * rounding.absolute) * (1 + 2 ** -20) + 2 * d * SUBNORMAL;
}

/**
 * The top `k` rows of query j of the kernel's last screening pass (`scores`: its screen scores, made in
 * `precision`), each scored in float64 as dotWithRow does, in TopK's order; undefined when the screen
 * cannot answer (see above).
 */
export function screenedTop(
  kernel: ExactKernel,
  matrix: VectorMatrix,
  query: Float32Array,
  screen: { scores: Float32Array; j: number; precision: ScreenPrecision },
  k: number,
): RankedRows | undefined {
  const { scores, j, precision } = screen;
  const n = matrix.rows;
  if (n < SCREEN_MIN_ROWS || k <= 0) return undefined;
  const error = screenError(kernel, query, precision);
  if (error === undefined) return undefined;
  const guess = sampleGuess(scores, k);
  if (guess === undefined) return undefined;
  const gathered = kernel.gather(j, floorFloat32(guess - 2 * error));
  if (gathered.length < k) return undefined;
  const screened = new Float64Array(gathered.length);
  for (let i = 0; i < gathered.length; i++) screened[i] = scores[gathered[i]!]!;
  // Every row that reaches the guess is gathered: when k of them do, this is the matrix's k-th best screen
  // score, and the rows within 2ε of it (fewer than the guess's) hold the top k.
  const kth = selectSmallest(screened.slice(), gathered.length - k);
  if (kth < guess) return undefined;
  const floor = kth - 2 * error;
  const candidates: number[] = [];
  for (let i = 0; i < gathered.length; i++) if (screened[i]! >= floor) candidates.push(gathered[i]!);
  if (candidates.length > n * MAX_CANDIDATE_SHARE) return undefined;
  const exact = new Float64Array(candidates.length);
  for (let i = 0; i < candidates.length; i++) exact[i] = dotWithRow(matrix, candidates[i]!, query);
  const best = topOfScores(exact, k);
  for (let i = 0; i < best.rows.length; i++) best.rows[i] = candidates[best.rows[i]!]!;
  return best;
}

/** A screen score that about 2k rows reach, from every SAMPLE_STEP-th row (undefined when k is most of the sample). */
function sampleGuess(scores: Float32Array, k: number): number | undefined {
  const size = Math.floor(scores.length / SAMPLE_STEP);
  const rank = Math.floor((2 * k * size) / scores.length) + 16;
  if (rank >= size) return undefined;
  const sample = new Float64Array(size);
  for (let i = 0; i < size; i++) sample[i] = scores[i * SAMPLE_STEP]!;
  return selectSmallest(sample, size - rank);
}

const roundTrip = new Float32Array(1);
const bits = new Int32Array(roundTrip.buffer);

/** The largest float32 at or below `x` (gather32 compares float32 scores with it). */
export function floorFloat32(x: number): number {
  roundTrip[0] = x;
  const rounded = roundTrip[0]!;
  if (rounded <= x) return rounded;
  // Rounded up: one float32 step down (towards -∞).
  if (rounded === 0) return -(2 ** -149);
  bits[0] = bits[0]! + (rounded > 0 ? -1 : 1);
  return roundTrip[0]!;
}
