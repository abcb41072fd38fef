import type { JudgedRanking } from './judged-ranking.ts';

/**
 * Reciprocal rank of the first relevant retrieved document, trec_eval `recip_rank` (m_recip_rank.c):
 * 1 / rank, or 0 when no relevant document is retrieved. There is no cutoff: MRR@k is not this measure.
 */
export function reciprocalRank(ranking: JudgedRanking): number {
  for (let i = 0; i < ranking.numRet; i++) {
    if (ranking.grades[i]! >= ranking.relevanceLevel) return 1 / (i + 1);
  }
  return 0;
}
