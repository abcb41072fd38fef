import type { QueryTermWeight } from '../../../src/lib/bm25/bm25-query.ts';
import type { FeedbackIndex, TermFreq } from '../../../src/lib/prf/feedback-index.ts';
import type { Hit } from '../../../src/lib/types.ts';

/**
 * A FeedbackIndex with hand-set statistics, so the feedback formulas can be checked with numbers worked out
 * on paper: `search` returns `ranking` cut to k whatever the query, and records every query it was given.
 */
export function fakeFeedbackIndex(spec: {
  numDocs: number;
  numTokens: number;
  ranking: Hit[];
  vectors: Record<string, TermFreq[]>;
  docFreqs?: Record<string, number>;
  collectionFreqs?: Record<string, number>;
}): FeedbackIndex & { queries: QueryTermWeight[][] } {
  const queries: QueryTermWeight[][] = [];
  return {
    queries,
    numDocs: spec.numDocs,
    numTokens: spec.numTokens,
    search(query, k) {
      queries.push([...query]);
      return spec.ranking.slice(0, k);
    },
    termVector: (docId) => spec.vectors[docId],
    docFreq: (term) => spec.docFreqs?.[term] ?? 1,
    collectionFreq: (term) => spec.collectionFreqs?.[term] ?? 1,
  };
}

export const tf = (term: string, count: number): TermFreq => ({ term, tf: count });
