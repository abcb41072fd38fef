/**
 * The search entry point: scores the clauses the host wrote (`scoring.ts`) and writes the top k to the
 * result buffers, best first, with exactly the reference's scores and tie order. Two exact methods:
 * term-at-a-time (`taat.ts`) and document-at-a-time max-score (`maxscore.ts`).
 *
 * Max-score only pays off when k is tiny next to the postings the query touches. Measured on the 300
 * SciFact test queries (Node 20, AMD EPYC, best of 7 rounds, µs per query, term-at-a-time / max-score):
 *   ×1  (≈4.3 k postings per query):  k=1 18/15   k=10 17/35    k=100 19/69    k=1000 51/163
 *   ×10 (≈43 k):                      k=1 148/49  k=10 147/119  k=100 141/282  k=1000 158/643
 *   ×50 (≈213 k):                     k=1 841/182 k=10 674/253  k=100 635/659  k=1000 810/1999
 * With k = 1000 (Pyserini's depth) most matching documents are kept, so nothing can be skipped and the
 * heap and cursor bookkeeping cost more than term-at-a-time's straight loop. Hence: max-score when the
 * query's postings exceed 2000 · k, term-at-a-time otherwise.
 */
import { DocScratch, Postings } from './postings';
import { clauseOrdinal, termEnd, termStart } from './scoring';
import { searchMaxScore } from './maxscore';
import { searchTermAtATime } from './taat';

/** `search`'s strategy codes; any other code forces term-at-a-time (the host passes 1). */
const STRATEGY_AUTO: u32 = 0;
const STRATEGY_MAX_SCORE: u32 = 2;

/** Postings per kept document above which max-score is used (see above). */
const MAX_SCORE_POSTINGS_PER_HIT: u64 = 2000;

export function resultDocs(): usize {
  return DocScratch.outDocs;
}

export function resultScores(): usize {
  return DocScratch.outScores;
}

/**
 * Scores the first `numClauses` clauses of the clause buffer (distinct term ordinals of the index) and
 * writes the best `k` documents, the `numExcluded` excluded ones left out, to `resultDocs` /
 * `resultScores`. `strategy`: 0 picks, 1 forces term-at-a-time, 2 forces max-score. Returns how many.
 */
export function search(numClauses: u32, numExcluded: u32, k: u32, strategy: u32): u32 {
  const limit = min<u32>(k, Postings.numDocs);
  if (limit == 0 || numClauses == 0) return 0;
  let useMaxScore = strategy == STRATEGY_MAX_SCORE;
  if (strategy == STRATEGY_AUTO) {
    let postings: u64 = 0;
    for (let c: u32 = 0; c < numClauses; c++) {
      const ordinal = clauseOrdinal(c);
      postings += <u64>(termEnd(ordinal) - termStart(ordinal));
    }
    useMaxScore = postings > MAX_SCORE_POSTINGS_PER_HIT * <u64>limit;
  }
  return useMaxScore ? searchMaxScore(numClauses, numExcluded, limit) : searchTermAtATime(numClauses, numExcluded, limit);
}
