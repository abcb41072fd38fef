import type { Doc, Qrels, Query } from '../types.ts';
import type { ValidationReport } from './validate.ts';

/** A whole BEIR dataset in memory: corpus, queries, one qrels map per split, and its validation report. */
export interface BeirCollection {
  /** In corpus order, first occurrence of each id. */
  docs: Doc[];
  /** Id → query, in file order. */
  queries: Map<string, Query>;
  /** Split → judgments. */
  qrels: Map<string, Qrels>;
  report: ValidationReport;
}

/**
 * The queries a split evaluates: those with at least one judgment in `qrels` and present in `queries`,
 * in queries-file order. (BEIR keeps exactly the queries that appear in the split's qrels.)
 */
export function judgedQueries(queries: ReadonlyMap<string, Query>, qrels: Qrels): Query[] {
  return [...queries.values()].filter((query) => qrels.has(query.id));
}
