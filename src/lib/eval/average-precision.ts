import type { JudgedRanking } from './judged-ranking.ts';

/**
 * Average precision, trec_eval `map` (m_map.c, Buckley & Voorhees 2005): the precision at the rank of
 * every relevant retrieved document, summed and divided by the number of relevant documents R of the
 * query (retrieved or not):
 *
 *   AP = (1/R) · Σ_{rank r of a relevant retrieved doc} |relevant ∩ top r| / r,   0 when none retrieved.
 */
export function averagePrecision(ranking: JudgedRanking): number {
  const { grades, relevanceLevel } = ranking;
  let relSoFar = 0;
  let sum = 0;
  for (let i = 0; i < ranking.numRet; i++) {
    if (grades[i]! >= relevanceLevel) {
      relSoFar++;
      sum += relSoFar / (i + 1);
    }
  }
  return relSoFar > 0 ? sum / ranking.numRel : 0;
}

/**
 * Average precision over the first k documents, trec_eval `map_cut.k` (m_map_cut.c): the same sum cut at
 * rank k, still divided by the full R (not min(R, k)). 0 for every cutoff when R = 0.
 *
 * @param cutoffs positive integers in increasing order
 */
export function averagePrecisionAt(ranking: JudgedRanking, cutoffs: readonly number[]): number[] {
  const { grades, relevanceLevel, numRel } = ranking;
  if (numRel === 0) return cutoffs.map(() => 0);
  const values: number[] = [];
  let relSoFar = 0;
  let sum = 0;
  let rank = 0;
  for (const cutoff of cutoffs) {
    const end = Math.min(cutoff, ranking.numRet);
    for (; rank < end; rank++) {
      if (grades[rank]! >= relevanceLevel) {
        relSoFar++;
        sum += relSoFar / (rank + 1);
      }
    }
    values.push(sum / numRel);
  }
  return values;
}
