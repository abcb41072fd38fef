/**
 * What a retriever column produces for one query: its hits, best first, and — for fusions — the parts each
 * fused score is made of (the fusion functions of src/lib/fusion return them), so the detail view can show
 * the formula with its numbers. Plain data: it crosses worker boundaries and can be stored.
 */
import type { ColumnRanking, RankQuery } from '../../lib/retrievers/ranking.ts';

export { emptyRanking, plainHits, type ColumnRanking } from '../../lib/retrievers/ranking.ts';

/** The result of ranking one query with one column. */
export interface RankResult {
  ranking: ColumnRanking;
  /** Wall time of the ranking (index and embedding preparation excluded). */
  ms: number;
  /** Why the ranking is empty or partial, in words for the person reading the column. */
  note?: string;
  /** Shown as the last visit saved it (saved-rankings.ts), not ranked now: `ms` is 0. */
  saved?: true;
}

/** The weighted bag as a key part ('' for none); exact weights, so two bags share a key only when equal. */
export function weightedKey(query: RankQuery): string {
  return query.weighted === undefined ? '' : query.weighted.map(({ term, weight }) => `${term}^${weight}`).join('\u0001');
}

/** Identifies what a query ranks: its id, text and weighted bag. */
export function queryKey(query: RankQuery): string {
  return `${query.id ?? ''}\u0000${query.text}\u0000${weightedKey(query)}`;
}
