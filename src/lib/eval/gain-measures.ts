import type { JudgedRanking } from './judged-ranking.ts';
import { gainOf, setupGains, type GainParam, type LevelGain } from './ndcg.ts';

/**
 * The other graded-gain measures of trec_eval 9.0.8, on the same gain table as `ndcg` (levels with
 * optional `level=gain` overrides, see ndcg.ts `setupGains`): binG (m_binG.c), G (m_G.c), ndcg_rel
 * (m_ndcg_rel.c) and Rndcg (m_Rndcg.c). Each walks the ideal ranking (judged documents by decreasing gain)
 * alongside the results in the order trec_eval does, so sums round the same way.
 */

/** The ideal ranking's gains, one step at a time (the `cur_level`/`num_at_level` walk of trec_eval). */
class IdealWalk {
  level: number;
  gain: number;
  #numAtLevel = 0;

  constructor(private readonly gains: readonly LevelGain[]) {
    this.level = gains.length - 1;
    this.gain = this.level >= 0 ? gains[this.level]!.gain : 0;
  }

  /** Moves to the next document of the ideal ranking; `gain` is then its gain (0 past the end). */
  next(): void {
    this.#numAtLevel++;
    while (this.level >= 0 && this.#numAtLevel > this.gains[this.level]!.count) {
      this.#numAtLevel = 1;
      this.level--;
      this.gain = this.level >= 0 ? this.gains[this.level]!.gain : 0;
    }
  }
}

/** binG: Σ over relevant retrieved at rank i (0-based), the k-th of them, of 1 / log2(i + 3 − k); / R. */
export function binaryG(ranking: JudgedRanking): number {
  let relSoFar = 0;
  let sum = 0;
  for (let i = 0; i < ranking.numRet; i++) {
    if (ranking.grades[i]! >= ranking.relevanceLevel) {
      relSoFar++;
      sum += 1 / Math.log2(3 + i - relSoFar);
    }
  }
  return relSoFar > 0 ? sum / ranking.numRel : 0;
}

/**
 * G (m_G.c): each retrieved gain discounted by log2(2 + cost so far − gain so far), where the cost of a
 * rank is the ideal gain there (at least 1); normalized by the total ideal gain.
 */
export function gainG(ranking: JudgedRanking, params: readonly GainParam[]): number {
  const gains = setupGains(ranking, params);
  const ideal = new IdealWalk(gains);
  const minCost = 1;
  let resultsG = 0;
  let sumResults = 0;
  let sumIdeal = 0;
  let sumCost = 0;
  let i = 0;
  for (; i < ranking.numRet && ideal.gain > 0; i++) {
    const gain = gainOf(ranking.grades[i]!, gains);
    sumResults += gain;
    ideal.next();
    if (ideal.gain > 0) sumIdeal += ideal.gain;
    sumCost += ideal.gain >= minCost ? ideal.gain : minCost;
    if (gain !== 0) resultsG += gain / Math.log2(2 + sumCost - sumResults);
  }
  for (; i < ranking.numRet; i++) {
    const gain = gainOf(ranking.grades[i]!, gains);
    sumResults += gain;
    sumCost += minCost;
    if (gain !== 0) resultsG += gain / Math.log2(2 + sumCost - sumResults);
  }
  while (ideal.gain > 0) {
    ideal.next();
    if (ideal.gain > 0) sumIdeal += ideal.gain;
  }
  return sumIdeal > 0 ? resultsG / sumIdeal : 0;
}

/**
 * ndcg_rel (m_ndcg_rel.c): nDCG averaged over the ranks of the relevant documents — at each retrieved
 * document with positive gain, DCG/IDCG so far; each relevant document not retrieved adds the final
 * DCG/IDCG; the sum is divided by the number of documents with positive ideal gain.
 */
export function ndcgRel(ranking: JudgedRanking, params: readonly GainParam[]): number {
  const gains = setupGains(ranking, params);
  const ideal = new IdealWalk(gains);
  let resultsDcg = 0;
  let idealDcg = 0;
  let sum = 0;
  let numRelRet = 0;
  let numRel = 0;
  let i = 0;
  for (; i < ranking.numRet && ideal.gain > 0; i++) {
    const gain = gainOf(ranking.grades[i]!, gains);
    if (gain !== 0) resultsDcg += gain / Math.log2(i + 2);
    ideal.next();
    if (ideal.gain > 0) {
      numRel++;
      idealDcg += ideal.gain / Math.log2(i + 2);
    }
    if (gain > 0) {
      sum += resultsDcg / idealDcg;
      numRelRet++;
    }
  }
  for (; i < ranking.numRet; i++) {
    const gain = gainOf(ranking.grades[i]!, gains);
    if (gain !== 0) resultsDcg += gain / Math.log2(i + 2);
    if (gain > 0) {
      sum += resultsDcg / idealDcg;
      numRelRet++;
    }
  }
  for (; ideal.gain > 0; i++) {
    ideal.next();
    if (ideal.gain > 0) {
      numRel++;
      idealDcg += ideal.gain / Math.log2(i + 2);
    }
  }
  sum += ((numRel - numRelRet) * resultsDcg) / idealDcg;
  return sum > 0 ? sum / numRel : 0;
}

/**
 * Rndcg (m_Rndcg.c): nDCG sampled where the ideal gain changes level (and at the end of the ranking),
 * averaged over those samples. 0 when the query has no relevant document.
 */
export function rNdcg(ranking: JudgedRanking, params: readonly GainParam[]): number {
  const gains = setupGains(ranking, params);
  if (ranking.numRel === 0) return 0;
  const ideal = new IdealWalk(gains);
  let oldIdealGain = ideal.gain;
  let resultsDcg = 0;
  let idealDcg = 0;
  let sum = 0;
  let samples = 0;
  const sampleOnLevelChange = (): void => {
    if (oldIdealGain !== ideal.gain) {
      if (idealDcg > 0) {
        sum += resultsDcg / idealDcg;
        samples++;
      }
      oldIdealGain = ideal.gain;
    }
  };
  let i = 0;
  for (; i < ranking.numRet && ideal.gain > 0; i++) {
    const gain = gainOf(ranking.grades[i]!, gains);
    ideal.next();
    sampleOnLevelChange();
    if (gain !== 0) resultsDcg += gain / Math.log2(i + 2);
    if (ideal.gain > 0) idealDcg += ideal.gain / Math.log2(i + 2);
  }
  if (i < ranking.numRet) {
    for (; i < ranking.numRet; i++) {
      const gain = gainOf(ranking.grades[i]!, gains);
      if (gain !== 0) resultsDcg += gain / Math.log2(i + 2);
    }
    if (idealDcg > 0) {
      sum += resultsDcg / idealDcg;
      samples++;
    }
  }
  for (; ideal.gain > 0; i++) {
    ideal.next();
    sampleOnLevelChange();
    if (ideal.gain > 0) idealDcg += ideal.gain / Math.log2(i + 2);
  }
  return sum / samples;
}
