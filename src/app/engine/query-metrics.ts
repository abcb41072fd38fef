/**
 * The live metrics of one query's ranking, computed by the trec_eval-equal code of src/lib/eval on a
 * one-query run, so each value equals what `trec_eval -c` prints for that query:
 * - nDCG@10 = `ndcg_cut.10`, R@100 = `recall.100`, AP = `map` (over the whole ranking, up to 1000 hits);
 * - MRR@10 = `recip_rank` with the ranking cut to 10 documents (`-M 10`), as MS MARCO's MRR@10.
 * Rankings are re-sorted by score with trec_eval's tie order before being cut (as trec_eval does).
 */
import { evaluate } from '../../lib/eval/evaluate.ts';
import { judgedAt } from '../../lib/eval/judged.ts';
import { judgeRanking, NOT_IN_POOL } from '../../lib/eval/judged-ranking.ts';
import { rankForEvaluation } from '../../lib/hits/trec-order.ts';
import type { Hit } from '../../lib/types.ts';

export interface QueryMetrics {
  ndcg10: number;
  recall100: number;
  mrr10: number;
  ap: number;
}

export const QUERY_METRICS: ReadonlyArray<{ key: keyof QueryMetrics; label: string; title: string }> = [
  { key: 'ndcg10', label: 'nDCG@10', title: 'trec_eval ndcg_cut.10: graded gain of the top 10, normalized by the ideal ranking' },
  { key: 'recall100', label: 'R@100', title: 'trec_eval recall.100: share of the relevant documents in the top 100' },
  { key: 'mrr10', label: 'MRR@10', title: 'trec_eval recip_rank with -M 10: 1 / rank of the first relevant document in the top 10, else 0' },
  { key: 'ap', label: 'AP', title: 'trec_eval map (one query): average precision over the whole ranking' },
];

/** The metrics of `hits` for a query judged by `judgments` (doc id → grade; grade ≥ 1 is relevant). */
export function queryMetrics(judgments: ReadonlyMap<string, number>, hits: readonly Hit[]): QueryMetrics {
  // Explore shows the first column's metrics in it and again as every other column's baseline: the same
  // ranking and judgments (both are replaced, never changed in place), computed once.
  let byJudgments = computed.get(hits);
  if (byJudgments === undefined) computed.set(hits, (byJudgments = new WeakMap()));
  let metrics = byJudgments.get(judgments);
  if (metrics === undefined) byJudgments.set(judgments, (metrics = computeQueryMetrics(judgments, hits)));
  return metrics;
}

const computed = new WeakMap<readonly Hit[], WeakMap<ReadonlyMap<string, number>, QueryMetrics>>();

function computeQueryMetrics(judgments: ReadonlyMap<string, number>, hits: readonly Hit[]): QueryMetrics {
  const qid = 'q';
  const qrels = new Map([[qid, new Map(judgments)]]);
  const run = new Map([[qid, [...hits]]]);
  const main = evaluate(qrels, run, { measures: ['ndcg_cut.10', 'recall.100', 'map'], complete: true });
  const top10 = evaluate(qrels, run, { measures: ['recip_rank'], complete: true, maxDocs: 10 });
  return {
    ndcg10: main.all['ndcg_cut_10'] ?? 0,
    recall100: main.all['recall_100'] ?? 0,
    mrr10: top10.all['recip_rank'] ?? 0,
    ap: main.all['map'] ?? 0,
  };
}

/** A relevant document a ranking did not put in its top `cutoff`. */
export interface MissedDocument {
  docId: string;
  grade: number;
  /** 1-based rank in the ranking, or null when the ranking does not hold it. */
  rank: number | null;
}

/** Relevant documents (grade ≥ 1) outside the top `cutoff`, highest grade first, then by rank. */
export function missedRelevant(judgments: ReadonlyMap<string, number>, hits: readonly Hit[], cutoff: number): MissedDocument[] {
  const rankOf = new Map(hits.map((hit, i) => [hit.docId, i + 1]));
  const missed: MissedDocument[] = [];
  for (const [docId, grade] of judgments) {
    if (grade < 1) continue;
    const rank = rankOf.get(docId) ?? null;
    if (rank === null || rank > cutoff) missed.push({ docId, grade, rank });
  }
  return missed.sort((a, b) => b.grade - a.grade || (a.rank ?? Infinity) - (b.rank ?? Infinity) || a.docId.localeCompare(b.docId));
}

/** How many judged documents are relevant. */
export function relevantCount(judgments: ReadonlyMap<string, number>): number {
  let n = 0;
  for (const grade of judgments.values()) if (grade >= 1) n += 1;
  return n;
}

/** Below this judged@10 a query's metrics rest on too many unjudged documents to be read as they are. */
export const JUDGED_WARNING_BELOW = 0.9;

/** How much of a ranking's top k the judgments cover (trec_eval-equal judged@k) and what they leave out. */
export interface JudgedCoverageOfQuery {
  k: number;
  /** judged@k: judged documents (any grade) in the top k ÷ k (src/lib/eval/judged.ts). */
  judged: number;
  /** The unjudged documents of the top k, best first, with their 1-based rank in the ranking as shown. */
  unjudged: Array<{ docId: string; rank: number }>;
}

/**
 * judged@k of `hits` for a query judged by `judgments`, ranked as trec_eval ranks them (score, then its tie
 * order), so the value equals the Evaluate dashboard's per-query judged@10.
 */
export function judgedCoverage(judgments: ReadonlyMap<string, number>, hits: readonly Hit[], k = 10): JudgedCoverageOfQuery {
  const docIds = rankForEvaluation('q', hits).slice(0, k);
  const ranking = judgeRanking(docIds, judgments);
  const shownRank = new Map(hits.map((hit, i) => [hit.docId, i + 1]));
  const unjudged = docIds
    .filter((_, i) => ranking.grades[i] === NOT_IN_POOL)
    .map((docId) => ({ docId, rank: shownRank.get(docId)! }))
    .sort((a, b) => a.rank - b.rank);
  return { k, judged: judgedAt(ranking, [k])[0]!, unjudged };
}
