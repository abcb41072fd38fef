import type { JudgedRanking } from './judged-ranking.ts';
import { relevantInTop } from './relevant-counts.ts';

/**
 * Success at cutoffs, trec_eval `success.k` (m_success.c, after Stephen Tomlinson): 1 when at least one
 * relevant document is among the first k retrieved, else 0.
 *
 * @param cutoffs positive integers in increasing order
 */
export function successAt(ranking: JudgedRanking, cutoffs: readonly number[]): number[] {
  return relevantInTop(ranking, cutoffs).map((relevant) => (relevant > 0 ? 1 : 0));
}
