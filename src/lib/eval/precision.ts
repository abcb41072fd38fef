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
