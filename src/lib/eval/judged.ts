import type { Qrels } from '../types.ts';
import { judgeRanking, NOT_IN_POOL, type JudgedRanking } from './judged-ranking.ts';
import { compareStrcmp, rankForEvaluation } from '../hits/trec-order.ts';
import { filterRows, isRowRanking, type RankedList, type RankedRun } from '../hits/row-ranking.ts';

/**
 * How much of a run's ranking rests on judged documents, and measures computed on judged documents only.
 *
 * **judged@k** of one query: the share of the top k of its ranking that has a judgment of any grade
 * (0 and negative grades included — a judged non-relevant document is judged):
 *
 *   judged@k = |{d ∈ top k : d appears in the query's qrels}| / k
 *
 * - the divisor is k even when fewer than k documents were retrieved (like trec_eval's P@k; so a ranking
 *   of 5 documents, all judged, has judged@10 = 0.5);
 * - the ranking is trec_eval's (score descending, ties by decreasing document id, then `-M`, then `-J`);
 * - over queries it is averaged like every other measure: over the qrels queries the run ranks, or with
 *   `-c` (the dashboard, `eval`, {@link judgedAtK}) over every qrels query, one the run does not rank
 *   counting 0. Queries without judgments are not evaluated (as for every measure).
 *
 * The same measure elsewhere, and where it differs (checked against their sources):
 * - Pyserini's `python -m pyserini.eval.trec_eval -m judged.k` (pyserini/eval/trec_eval.py) computes it
 *   itself, outside trec_eval, and prints only an `all` line: the judged (query, document) pairs among the
 *   first k lines of each query in FILE order, divided by the number of those lines over all queries of the
 *   run (a micro-average; queries without judgments count in the divisor). Equal to ours when the run file
 *   is sorted, ranks at least k documents for every query, and holds exactly the qrels queries — the usual
 *   case for a Pyserini run;
 * - ir_measures `Judged@k` (providers/judged_provider.py, from OpenNIR): per query, ties by increasing
 *   document id; up to version 0.3.1 divided by k as here, since 0.3.3 by min(k, documents retrieved);
 *   queries the run lacks get no value.
 */
export function judgedAt(ranking: JudgedRanking, cutoffs: readonly number[]): number[] {
  const values: number[] = [];
  let judged = 0;
  let rank = 0;
  for (const cutoff of cutoffs) {
    const end = Math.min(cutoff, ranking.grades.length);
    // NOT_IN_POOL is the only grade of a document absent from the qrels (negative grades map to JUDGED_UNJUDGED).
    for (; rank < end; rank++) if (ranking.grades[rank] !== NOT_IN_POOL) judged++;
    values.push(judged / cutoff);
  }
  return values;
}

/** judged@k of every judged query and their mean, the dashboard's way (trec_eval `-c`). */
export interface JudgedCoverage {
  k: number;
  /** Every qrels query, in `strcmp` order of ids; 0 for one the run does not rank. */
  perQuery: Array<{ qid: string; judged: number }>;
  /** Mean over every qrels query (0 when there are none). */
  mean: number;
}

/** judged@k of a run: every qrels query, one the run does not rank counting 0 (see {@link judgedAt}). */
export function judgedAtK(run: RankedRun, qrels: Qrels, k = 10): JudgedCoverage {
  if (!Number.isInteger(k) || k <= 0) throw new RangeError(`judged@k needs a positive integer k, got ${k}`);
  const perQuery = [...qrels.keys()].sort(compareStrcmp).map((qid) => {
    const hits = run.get(qid) ?? [];
    // Only the top k is judged (the report has ranked the whole list already: the cut is a slice of it).
    const ranking = judgeRanking(rankForEvaluation(qid, hits, k), qrels.get(qid));
    return { qid, judged: judgedAt(ranking, [k])[0]! };
  });
  const sum = perQuery.reduce((total, query) => total + query.judged, 0);
  return { k, perQuery, mean: perQuery.length > 0 ? sum / perQuery.length : 0 };
}

/**
 * Condensed lists (Sakai 2007, "Alternatives to Bpref"; ir_measures' `judged_only=True`): every ranking
 * with its unjudged documents removed, the judged ones keeping their order, so that any measure computed
 * on the result ignores documents nobody judged instead of counting them non-relevant.
 *
 * "Judged" is decided exactly as trec_eval `-J` decides it (`judgedOnly` in judged-ranking.ts, which is
 * what ir_measures' `judged_only` passes to pytrec_eval): a judgment with grade ≥ 0; a negative grade
 * (trec_eval's "in the pool but unjudged") is removed too. Evaluating the condensed run equals evaluating
 * the original with `-J`, except that
 * - `-M` cuts before `-J` removes, whereas a condensed run is cut after condensing;
 * - a query all of whose documents are removed keeps an empty ranking, which evaluation treats as not
 *   ranked (0 under `-c`, as with `-J`; left out without `-c`, where `-J` would count it 0).
 * Queries without judgments keep an empty ranking. The run is not modified.
 */
export function condenseRun(run: RankedRun, qrels: Qrels): Map<string, RankedList> {
  const condensed = new Map<string, RankedList>();
  for (const [qid, hits] of run) {
    // The grade judgeRanking gives (absent → NOT_IN_POOL, negative → JUDGED_UNJUDGED) without its arrays.
    const judgments = qrels.get(qid);
    if (judgments === undefined) condensed.set(qid, []);
    else {
      const judged = (docId: string) => (judgments.get(docId) ?? NOT_IN_POOL) >= 0;
      condensed.set(qid, isRowRanking(hits) ? filterRows(hits, judged) : hits.filter((hit) => judged(hit.docId)));
    }
  }
  return condensed;
}
