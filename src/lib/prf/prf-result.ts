import type { QueryTermWeight } from '../bm25/bm25-query.ts';
import type { Hit } from '../types.ts';

/** What a pseudo-relevance-feedback retriever returns: the query it searched in the end, and its ranking. */
export interface PrfResult {
  /** The expanded weighted query, heaviest term first (ties by term), as the second pass searched it. */
  expanded: QueryTermWeight[];
  /** The second pass's top k, best first. */
  hits: Hit[];
  /** The documents the feedback came from, in first-pass rank order. */
  feedbackDocIds: string[];
}

/** Heaviest first, ties by term (code-unit order), so a displayed query is stable. */
export function byWeightThenTerm(a: QueryTermWeight, b: QueryTermWeight): number {
  return b.weight - a.weight || (a.term < b.term ? -1 : a.term > b.term ? 1 : 0);
}

export function checkCount(name: string, value: number, min: number): void {
  if (!Number.isInteger(value) || value < min) throw new RangeError(`${name} must be an integer ≥ ${min}, got ${value}`);
}
