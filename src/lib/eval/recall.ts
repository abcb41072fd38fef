import type { JudgedRanking } from './judged-ranking.ts';
import { relevantInTop } from './relevant-counts.ts';

/**
 * Recall at cutoffs, trec_eval `recall.k` (m_recall.c):
 *
 *   R@k = |relevant ∩ top k| / |relevant|
 *
 * A query without relevant documents scores 0 (trec_eval returns before setting a value).
 *
 * @param cutoffs positive integers in increasing order
 */
export function recallAt(ranking: JudgedRanking, cutoffs: readonly number[]): number[] {
  if (ranking.numRel === 0) return cutoffs.map(() => 0);
  return relevantInTop(ranking, cutoffs).map((relevant) => relevant / ranking.numRel);
}
