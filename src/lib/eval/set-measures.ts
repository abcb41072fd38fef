import { JUDGED_UNJUDGED, NOT_IN_POOL, type JudgedRanking } from './judged-ranking.ts';

/**
 * Measures of the retrieved set as a whole, ignoring its order (trec_eval 9.0.8 m_set_P.c, m_set_recall.c,
 * m_set_rel_P.c, m_set_map.c, m_set_F.c, m_utility.c, m_num_nonrel_judged_ret.c). Each is 0 where its
 * divisor would be 0.
 */

/** set_P = relevant retrieved / retrieved. */
export function setPrecision(r: JudgedRanking): number {
  return r.numRet > 0 ? r.numRelRet / r.numRet : 0;
}

/** set_recall = relevant retrieved / relevant. */
export function setRecall(r: JudgedRanking): number {
  return r.numRel > 0 ? r.numRelRet / r.numRel : 0;
}

/** set_relative_P = relevant retrieved / min(retrieved, relevant). */
export function setRelativePrecision(r: JudgedRanking): number {
  return r.numRet > 0 && r.numRel > 0 ? r.numRelRet / Math.min(r.numRet, r.numRel) : 0;
}

/** set_map = set_P · set_recall. */
export function setAveragePrecision(r: JudgedRanking): number {
  return r.numRet > 0 && r.numRel > 0 ? (r.numRelRet * r.numRelRet) / (r.numRet * r.numRel) : 0;
}

/** set_F.β = (β + 1)·P·R / (β·P + R) (van Rijsbergen's F with trec_eval's parameter, default β = 1). */
export function setF(r: JudgedRanking, beta: number): number {
  if (r.numRelRet === 0) return 0;
  const precision = r.numRelRet / r.numRet;
  const recall = r.numRelRet / r.numRel;
  return ((beta + 1) * precision * recall) / (beta * precision + recall);
}

/**
 * utility.a,b,c,d = a·(relevant retrieved) + b·(nonrelevant retrieved) + c·(relevant missed)
 * + d·(nonrelevant missed), the last with the collection size `-N` (trec_eval's default 0).
 */
export function utility(r: JudgedRanking, weights: readonly number[], numDocsInCollection: number): number {
  const [a, b, c, d] = weights as [number, number, number, number];
  return (
    a * r.numRelRet +
    b * (r.numRet - r.numRelRet) +
    c * (r.numRel - r.numRelRet) +
    d * (numDocsInCollection + r.numRelRet - r.numRet - r.numRel)
  );
}

/** Retrieved documents judged below the relevance level (not outside the pool, not unjudged). */
export function nonrelevantJudgedRetrieved(r: JudgedRanking): number {
  let unjudged = 0;
  for (let i = 0; i < r.numRet; i++) {
    const grade = r.grades[i]!;
    if (grade === NOT_IN_POOL || grade === JUDGED_UNJUDGED) unjudged++;
  }
  return r.numRet - unjudged - r.numRelRet;
}
