import { JUDGED_UNJUDGED, NOT_IN_POOL, type JudgedRanking } from './judged-ranking.ts';

/**
 * The measures of incomplete judgments: bpref (Buckley & Voorhees, SIGIR 2004) and inferred AP (Yilmaz &
 * Aslam, CIKM 2006), as trec_eval 9.0.8 computes them (m_bpref.c, m_gm_bpref.c, m_infap.c). Both skip
 * retrieved documents outside the pool; judged documents below the relevance level are the nonrelevant
 * ones.
 */

/** trec_eval's INFAP_EPSILON. */
const INFAP_EPSILON = 0.00001;

/**
 * bpref = (1/R) · Σ_{relevant retrieved r} (1 − min(n_r, R) / min(N, R)), where n_r counts the judged
 * nonrelevant documents ranked above r and N all judged nonrelevant documents of the query. 0 when R = 0.
 */
export function bpref(ranking: JudgedRanking): number {
  const { grades, relevanceLevel, numRel } = ranking;
  let numNonrel = 0;
  for (const [grade, count] of ranking.gradeCounts) if (grade < relevanceLevel) numNonrel += count;
  let nonrelSoFar = 0;
  let sum = 0;
  for (let i = 0; i < ranking.numRet; i++) {
    const grade = grades[i]!;
    if (grade === NOT_IN_POOL || grade === JUDGED_UNJUDGED) continue;
    if (grade >= 0 && grade < relevanceLevel) {
      nonrelSoFar++;
    } else if (nonrelSoFar > 0) {
      sum += 1 - Math.min(nonrelSoFar, numRel) / Math.min(numNonrel, numRel);
    } else {
      sum += 1;
    }
  }
  return numRel > 0 ? sum / numRel : sum;
}

/**
 * Inferred AP, trec_eval `infAP`: at each relevant retrieved document at rank k > 1, the expected
 * precision 1/k + ((k−1)/k) · (judged-or-sampled above / (k−1)) · (relevant above + ε) / (judged above + 2ε),
 * where documents in the pool but unjudged (negative grades in the qrels) count as sampled; summed and
 * divided by R.
 */
export function inferredAveragePrecision(ranking: JudgedRanking): number {
  const { grades, relevanceLevel, numRel } = ranking;
  let nonrelSoFar = 0;
  let relSoFar = 0;
  let unjudgedSoFar = 0;
  let sum = 0;
  for (let j = 0; j < ranking.numRet; j++) {
    const grade = grades[j]!;
    if (grade === NOT_IN_POOL) continue;
    if (grade === JUDGED_UNJUDGED) {
      unjudgedSoFar++;
      continue;
    }
    if (grade >= 0 && grade < relevanceLevel) {
      nonrelSoFar++;
      continue;
    }
    relSoFar++;
    if (j === 0) {
      sum += 1;
    } else {
      const fj = j;
      sum +=
        1 / (fj + 1) +
        (fj / (fj + 1)) *
          ((relSoFar - 1 + nonrelSoFar + unjudgedSoFar) / fj) *
          ((relSoFar - 1 + INFAP_EPSILON) / (relSoFar - 1 + nonrelSoFar + 2 * INFAP_EPSILON));
    }
  }
  return numRel > 0 ? sum / numRel : sum;
}
