/**
 * Per-query score normalization, applied to one ranking's scores before they are combined with another's.
 * Each function returns the normalized scores in the order given.
 */

/** `none` leaves scores as they are (for rankings already on one scale). */
export type Normalization = 'min-max' | 'z-score' | 'none';

/**
 * Min-max: (s − min) / (max − min), so the best hit gets 1 and the worst 0.
 *
 * Degenerate case — all scores equal, which includes a single hit: every score becomes 1, as Pyserini's
 * `TrecRun.rescore(RescoreMethod.NORMALIZE)` does (`if high - low == 0: score = 1`). The hits are then all
 * "the best this ranking has". (ranx's `min_max_norm` divides by max(max − min, 1e-9) and gives 0 instead.)
 * An empty list gives an empty list.
 */
export function minMaxNormalize(scores: readonly number[]): number[] {
  if (scores.length === 0) return [];
  let low = Infinity;
  let high = -Infinity;
  for (const score of scores) {
    if (score < low) low = score;
    if (score > high) high = score;
  }
  const range = high - low;
  if (range === 0) return scores.map(() => 1);
  return scores.map((score) => (score - low) / range);
}

/**
 * Z-score (zero mean, unit variance): (s − mean) / std, with the population standard deviation
 * (divide by n, as numpy's `np.std` and ranx's `zmuv_norm`).
 *
 * Degenerate case — all scores equal, which includes a single hit: std is 0 and every score becomes 0 (the
 * mean), as ranx does with its max(std, 1e-9) guard (likewise when the deviations are so tiny that their
 * squares underflow to 0). An empty list gives an empty list.
 */
export function zScoreNormalize(scores: readonly number[]): number[] {
  const n = scores.length;
  if (n === 0) return [];
  // Tested on the scores themselves: a mean computed in floating point can differ from equal scores by
  // an ulp, which would turn rounding noise into ±1.
  if (scores.every((score) => score === scores[0])) return scores.map(() => 0);
  let sum = 0;
  for (const score of scores) sum += score;
  const mean = sum / n;
  let squares = 0;
  for (const score of scores) squares += (score - mean) ** 2;
  const std = Math.sqrt(squares / n);
  // Distinct scores whose squared deviations underflow (subnormal differences) are equal for all purposes.
  if (!(std > 0)) return scores.map(() => 0);
  return scores.map((score) => (score - mean) / std);
}

export function normalizeScores(scores: readonly number[], method: Normalization): number[] {
  switch (method) {
    case 'min-max':
      return minMaxNormalize(scores);
    case 'z-score':
      return zScoreNormalize(scores);
    case 'none':
      return [...scores];
  }
}
