import type { JudgedRanking } from './judged-ranking.ts';

/**
 * Relevant documents among the first `k` retrieved, for each cutoff `k`: the shared kernel of P, recall,
 * success and BEIR's capped recall. Cutoffs beyond the end of the ranking count as if non-relevant
 * documents filled the rest, which is how trec_eval's cutoff measures (m_P.c, m_recall.c, m_success.c)
 * treat a short ranking.
 *
 * @param cutoffs positive integers in increasing order
 */
export function relevantInTop(ranking: JudgedRanking, cutoffs: readonly number[]): number[] {
  const { grades, relevanceLevel } = ranking;
  const counts: number[] = [];
  let relSoFar = 0;
  let rank = 0;
  for (const cutoff of cutoffs) {
    const end = Math.min(cutoff, ranking.numRet);
    for (; rank < end; rank++) if (grades[rank]! >= relevanceLevel) relSoFar++;
    counts.push(relSoFar);
  }
  return counts;
}
