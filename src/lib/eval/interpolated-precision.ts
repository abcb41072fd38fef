import type { JudgedRanking } from './judged-ranking.ts';

/**
 * Interpolated precision, trec_eval 9.0.8's recall–precision curve (m_iprec_at_recall.c, m_11pt_avg.c)
 * and precision at multiples of R (m_Rprec_mult.c). The interpolated precision at a rank is the highest
 * precision at that rank or any lower one (Int_Prec(x) = max_{y ≥ x} Prec(y)). A recall fraction f is
 * reached at the relevant document number trunc(f·R + 0.9), 9.0.8's rounding (10.0 changed it); points
 * beyond the relevant documents retrieved get the interpolated precision of the whole ranking's tail.
 */

/** The relevant-document number at which each recall fraction is reached: (long)(f · R + 0.9). */
function recallCutoffs(fractions: readonly number[], numRel: number): number[] {
  return fractions.map((f) => Math.trunc(f * numRel + 0.9));
}

/**
 * Interpolated precision at each recall fraction, trec_eval `iprec_at_recall` (fractions sorted
 * increasingly), walking the ranking from the bottom as trec_eval does.
 */
export function interpolatedPrecisionAt(ranking: JudgedRanking, fractions: readonly number[]): number[] {
  const values = fractions.map(() => 0);
  const cutoffs = recallCutoffs(fractions, ranking.numRel);
  let current = fractions.length - 1;
  while (current >= 0 && cutoffs[current]! > ranking.numRelRet) current--;
  let interpolated = ranking.numRelRet / ranking.numRet;
  let relSoFar = ranking.numRelRet;
  for (let i = ranking.numRet; i > 0 && relSoFar > 0; i--) {
    const precision = relSoFar / i;
    if (interpolated < precision) interpolated = precision;
    if (ranking.grades[i - 1]! >= ranking.relevanceLevel) {
      while (current >= 0 && relSoFar === cutoffs[current]) values[current--] = interpolated;
      relSoFar--;
    }
  }
  while (current >= 0) values[current--] = interpolated;
  return values;
}

/**
 * The mean interpolated precision over recall fractions, trec_eval `11pt_avg` (default the 11 points
 * 0, 0.1, …, 1). The fractions are used in the order given, as trec_eval does (`-m 11pt_avg..25,.5,.75`).
 */
export function elevenPointAverage(ranking: JudgedRanking, fractions: readonly number[]): number {
  const cutoffs = recallCutoffs(fractions, ranking.numRel);
  let current = fractions.length - 1;
  while (current >= 0 && cutoffs[current]! > ranking.numRelRet) current--;
  let interpolated = ranking.numRelRet / ranking.numRet;
  let relSoFar = ranking.numRelRet;
  let sum = 0;
  for (let i = ranking.numRet; i > 0 && relSoFar > 0; i--) {
    const precision = relSoFar / i;
    if (interpolated < precision) interpolated = precision;
    if (ranking.grades[i - 1]! >= ranking.relevanceLevel) {
      while (current >= 0 && relSoFar === cutoffs[current]) {
        sum += interpolated;
        current--;
      }
      relSoFar--;
    }
  }
  while (current >= 0) {
    sum += interpolated;
    current--;
  }
  return sum / fractions.length;
}

/**
 * Precision (not interpolated) after trunc(m·R + 0.9) documents for each multiple m of R, trec_eval
 * `Rprec_mult` (`Rprec_mult_1.00` is R-precision). Past the end of the ranking the missing documents
 * count as nonrelevant.
 */
export function precisionAtRMultiples(ranking: JudgedRanking, multiples: readonly number[]): number[] {
  const values = multiples.map(() => 0);
  const cutoffs = recallCutoffs(multiples, ranking.numRel);
  let current = multiples.length - 1;
  while (current >= 0 && cutoffs[current]! > ranking.numRet) {
    values[current] = ranking.numRelRet / cutoffs[current]!;
    current--;
  }
  let relSoFar = ranking.numRelRet;
  for (let i = ranking.numRet; i > 0 && relSoFar > 0; i--) {
    const precision = relSoFar / i;
    while (current >= 0 && i === cutoffs[current]) values[current--] = precision;
    if (ranking.grades[i - 1]! >= ranking.relevanceLevel) relSoFar--;
  }
  return values;
}
