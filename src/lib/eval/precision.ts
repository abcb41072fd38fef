import type { JudgedRanking } from './judged-ranking.ts';
import { relevantInTop } from './relevant-counts.ts';

/**
 * Precision at cutoffs, trec_eval `P.k` (m_P.c):
 *
 *   P@k = |relevant ∩ top k| / k
 *
 * The divisor is always k, even when fewer than k documents were retrieved ("it is assumed nonrelevant
 * docs fill in the rest"; `-M 50 -m set_P` differs on exactly this point).
 *
 * @param cutoffs positive integers in increasing order
 */
export function precisionAt(ranking: JudgedRanking, cutoffs: readonly number[]): number[] {
  return relevantInTop(ranking, cutoffs).map((relevant, i) => relevant / cutoffs[i]!);
}

/**
 * Relative precision at cutoffs, trec_eval `relative_P.k` (m_rel_P.c): |relevant ∩ top k| / min(k, R),
 * so a query with fewer than k relevant documents can still reach 1. 0 when R = 0.
 *
 * @param cutoffs positive integers in increasing order
 */
export function relativePrecisionAt(ranking: JudgedRanking, cutoffs: readonly number[]): number[] {
  if (ranking.numRel === 0) return cutoffs.map(() => 0);
  return relevantInTop(ranking, cutoffs).map((relevant, i) => relevant / Math.min(cutoffs[i]!, ranking.numRel));
}
