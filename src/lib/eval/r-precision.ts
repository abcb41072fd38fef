import type { JudgedRanking } from './judged-ranking.ts';

/**
 * R-precision, trec_eval `Rprec` (m_Rprec.c): precision after R documents, R = number of relevant
 * documents of the query. When fewer than R documents were retrieved, trec_eval still divides by R:
 *
 *   Rprec = |relevant ∩ top min(R, retrieved)| / R,   0 when R = 0 or nothing was retrieved.
 */
export function rPrecision(ranking: JudgedRanking): number {
  const lookAt = Math.min(ranking.numRet, ranking.numRel);
  if (lookAt === 0) return 0;
  let relevant = 0;
  for (let i = 0; i < lookAt; i++) if (ranking.grades[i]! >= ranking.relevanceLevel) relevant++;
  return relevant / ranking.numRel;
}
