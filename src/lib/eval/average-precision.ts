import type { JudgedRanking } from './judged-ranking.ts';

/**
 * Average precision, trec_eval `map` (m_map.c, Buckley & Voorhees 2005): the precision at the rank of
 * every relevant retrieved document, summed and divided by the number of relevant documents R of the
 * query (retrieved or not):
 *
 *   AP = (1/R) · Σ_{rank r of a relevant retrieved doc} |relevant ∩ top r| / r,   0 when none retrieved.
 */
export function averagePrecision(ranking: JudgedRanking): number {
  const { sum, relRet } = precisionSum(ranking);
  return relRet > 0 ? sum / ranking.numRel : 0;
}

/**
 * "Yet another average precision", trec_eval `yaap` (m_yaap.c; Robertson, "On smoothing average
 * precision", ECIR 2012): log((1 + S) / (1 + R − S)) with S the sum AP divides by R. Monotonic with AP on one
 * query, finite at AP = 0 and 1, so its mean over queries is less dominated by extreme topics. In no
 * trec_eval nickname; `-m yaap` asks for it.
 */
export function yaap(ranking: JudgedRanking): number {
  const { sum } = precisionSum(ranking);
  return Math.log((1 + sum) / (1 + ranking.numRel - sum));
}

/** Σ precision at the rank of each relevant retrieved document, and how many there are. */
function precisionSum(ranking: JudgedRanking): { sum: number; relRet: number } {
  const { grades, relevanceLevel } = ranking;
  let relRet = 0;
  let sum = 0;
  for (let i = 0; i < ranking.numRet; i++) {
    if (grades[i]! >= relevanceLevel) {
      relRet++;
      sum += relRet / (i + 1);
    }
  }
  return { sum, relRet };
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
