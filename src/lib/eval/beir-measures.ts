import type { JudgedRanking } from './judged-ranking.ts';
import { relevantInTop } from './relevant-counts.ts';

/**
 * The two measures BEIR adds to trec_eval's (Thakur et al. 2021; beir/retrieval/custom_metrics.py,
 * functions `recall_cap` and `hole`), computed per query on trec_eval's ranking so they can be averaged,
 * `-c`'d and `-M`'d like the others. Differences from BEIR's script, on purpose:
 * - ties are broken by decreasing document id (trec_eval) instead of Python's dict insertion order;
 * - "relevant" is grade ≥ the relevance level (`-l`, default 1), which for integer grades is BEIR's
 *   `> 0`;
 * - a query without relevant documents scores 0 for R_cap (BEIR divides by zero);
 * - queries are averaged over the evaluated set (the queries in both qrels and run, or every qrels query
 *   with `-c`), whereas BEIR divides by the number of queries in the run; identical when the run holds
 *   exactly the qrels queries, as in BEIR's own pipeline.
 */

/**
 * Capped recall, BEIR `R_cap@k`: relevant retrieved in the top k divided by min(k, R), so a query with
 * more than k relevant documents can still reach 1.
 *
 *   R_cap@k = |relevant ∩ top k| / min(k, R),   0 when R = 0.
 *
 * @param cutoffs positive integers in increasing order
 */
export function cappedRecallAt(ranking: JudgedRanking, cutoffs: readonly number[]): number[] {
  if (ranking.numRel === 0) return cutoffs.map(() => 0);
  return relevantInTop(ranking, cutoffs).map((relevant, i) => relevant / Math.min(cutoffs[i]!, ranking.numRel));
}

/**
 * Hole rate, BEIR `Hole@k`: the share of the top k that nobody judged, where "judged" means the document
 * id appears anywhere in the qrels — for ANY query and with ANY grade (BEIR's `annotated_corpus` is the
 * union over all queries). The divisor is k even when fewer than k documents were retrieved.
 *
 *   Hole@k = |top k \ annotated| / k
 *
 * @param docIds the evaluated ranking (best first), as used for `ranking`
 * @param annotated every document id present in the qrels
 * @param cutoffs positive integers in increasing order
 */
export function holeAt(docIds: readonly string[], annotated: ReadonlySet<string>, cutoffs: readonly number[]): number[] {
  const values: number[] = [];
  let holes = 0;
  let rank = 0;
  for (const cutoff of cutoffs) {
    const end = Math.min(cutoff, docIds.length);
    for (; rank < end; rank++) if (!annotated.has(docIds[rank]!)) holes++;
    values.push(holes / cutoff);
  }
  return values;
}
