import { studentTTwoSidedP } from './incomplete-beta.ts';
import { SeededRandom } from './seeded-random.ts';

/**
 * Paired significance tests on per-query scores, as ranx computes them (ranx/statistical_tests,
 * Bassani 2022): control and treatment are two systems' values of one measure on the same queries,
 * in the same order. Defaults follow ranx: max_p = 0.01, 1000 permutations, seed 42.
 */

export interface SignificanceOptions {
  /** A p-value ≤ maxP is significant. Default 0.01 (ranx's `max_p`). */
  maxP?: number;
}

export interface TTestResult {
  /** t = mean(d) / (sd(d) / √n), d = control − treatment, sd with n − 1 degrees of freedom. */
  statistic: number;
  degreesOfFreedom: number;
  pValue: number;
  significant: boolean;
}

/**
 * Two-sided paired Student t-test, ranx `paired_student_t_test` = scipy `ttest_rel(control, treatment)`.
 * p = P(|T_{n−1}| ≥ |t|) from the regularized incomplete beta function. Like scipy, identical inputs
 * (every difference 0) give t = NaN and p = NaN (never significant), and fewer than two queries give NaN.
 */
export function pairedTTest(
  control: ArrayLike<number>,
  treatment: ArrayLike<number>,
  options: SignificanceOptions = {},
): TTestResult {
  const n = checkPaired(control, treatment);
  let sum = 0;
  for (let i = 0; i < n; i++) sum += control[i]! - treatment[i]!;
  const mean = sum / n;
  let squares = 0;
  for (let i = 0; i < n; i++) {
    const deviation = control[i]! - treatment[i]! - mean;
    squares += deviation * deviation;
  }
  const variance = n > 1 ? squares / (n - 1) : Number.NaN;
  const statistic = mean / Math.sqrt(variance / n);
  const degreesOfFreedom = n - 1;
  const pValue = studentTTwoSidedP(statistic, degreesOfFreedom);
  return { statistic, degreesOfFreedom, pValue, significant: pValue <= (options.maxP ?? 0.01) };
}

export interface RandomizationOptions extends SignificanceOptions {
  /** Random assignments drawn. Default 1000 (ranx's `n_permutations`). */
  permutations?: number;
  /** PRNG seed, so the p-value is reproducible. Default 42 (ranx's `random_seed`). */
  seed?: number;
}

export interface RandomizationResult {
  pValue: number;
  significant: boolean;
}

/**
 * Fisher's randomization test (approximate, two-sided), ranx `fisher_randomization_test` after Smucker,
 * Allan & Carterette, CIKM 2007: under the null hypothesis the two systems' labels are exchangeable within
 * each query, so each permutation swaps every query's pair with probability 1/2 and
 *
 *   p = #{permutations with |mean(A') − mean(B')| ≥ |mean(A) − mean(B)|} / permutations
 *
 * (no +1 correction, as ranx). The coin flips come from {@link SeededRandom}, not numpy, so p-values
 * equal ranx's only in distribution. Differences equal up to 1e-12 relative count as ≥: the swapped
 * means are summed in another order and may round a mathematically equal difference a hair lower.
 */
export function fisherRandomizationTest(
  control: ArrayLike<number>,
  treatment: ArrayLike<number>,
  options: RandomizationOptions = {},
): RandomizationResult {
  const n = checkPaired(control, treatment);
  const permutations = options.permutations ?? 1000;
  if (!Number.isInteger(permutations) || permutations < 1) {
    throw new RangeError(`permutations must be a positive integer (got ${permutations})`);
  }
  const random = new SeededRandom(options.seed ?? 42);
  const observed = Math.abs(meanOf(control, n) - meanOf(treatment, n));
  const threshold = observed - 1e-12 * Math.max(observed, Number.MIN_VALUE);
  // Swapping a pair flips the sign of its difference: a permutation's mean difference is Σ ±d_i / n. The
  // signs are the bits of 32-bit draws (xoshiro128**'s scrambler mixes every bit), one draw per 32 pairs:
  // on the dashboard (300 queries × 1,000 permutations × 5 measures per pair) a draw per bit took longer
  // than evaluating the runs.
  const differences = new Float64Array(n);
  for (let i = 0; i < n; i++) differences[i] = control[i]! - treatment[i]!;
  let atLeastAsExtreme = 0;
  for (let p = 0; p < permutations; p++) {
    let sum = 0;
    let bits = 0;
    for (let i = 0; i < n; i++) {
      if ((i & 31) === 0) bits = random.nextUint32();
      // ±d as a product, not a branch: the bits are random, so a branch is mispredicted half the time.
      sum += differences[i]! * (1 - ((bits & 1) << 1));
      bits >>>= 1;
    }
    if (Math.abs(sum / n) >= threshold) atLeastAsExtreme++;
  }
  const pValue = atLeastAsExtreme / permutations;
  return { pValue, significant: pValue <= (options.maxP ?? 0.01) };
}

function meanOf(values: ArrayLike<number>, n: number): number {
  let sum = 0;
  for (let i = 0; i < n; i++) sum += values[i]!;
  return sum / n;
}

function checkPaired(control: ArrayLike<number>, treatment: ArrayLike<number>): number {
  if (control.length !== treatment.length) {
    throw new RangeError(`paired tests need as many control as treatment scores (${control.length} vs ${treatment.length})`);
  }
  if (control.length === 0) throw new RangeError('paired tests need at least one query');
  return control.length;
}
