/**
 * What pseudo-relevance feedback needs from a BM25 index, as one small interface, so RM3 and Bo1 run the
 * same on the TypeScript reference index (`bm25FeedbackIndex` here), on the WASM kernel
 * (`Bm25Service.feedbackIndex`) or on anything else that can rank a weighted query and list a
 * document's terms.
 */
import { docOrdinal, docFreq as indexDocFreq, termOrdinal, type Bm25Index } from '../bm25/bm25-index.ts';
import type { QueryTermWeight } from '../bm25/bm25-query.ts';
import { searchBm25, type Bm25SearchOptions } from '../bm25/bm25-search.ts';
import { collectionFreq as indexCollectionFreq, docTermVector, type TermFreq } from '../bm25/doc-vectors.ts';
import type { Hit } from '../types.ts';

export type { TermFreq } from '../bm25/doc-vectors.ts';

export interface FeedbackIndex {
  /** Documents in the index (Lucene's `numDocs`, Terrier's `numberOfDocuments`). */
  readonly numDocs: number;
  /** Tokens in the index (Terrier's `numberOfTokens`). */
  readonly numTokens: number;
  /** The top `k` hits of a weighted query, best first (the second pass searches the expanded query here). */
  search(query: readonly QueryTermWeight[], k: number): Hit[];
  /** A document's analyzed terms with their frequencies (its term vector); undefined for an unknown id. */
  termVector(docId: string): readonly TermFreq[] | undefined;
  /** Documents holding `term` (0 when none does). */
  docFreq(term: string): number;
  /** Occurrences of `term` in the whole collection (0 when none). */
  collectionFreq(term: string): number;
}

/**
 * A `FeedbackIndex` over the TypeScript reference index; `options` are the BM25 search options of both
 * passes (k1, b, the query id whose document is dropped, …; `k` is set per call).
 */
export function bm25FeedbackIndex(index: Bm25Index, options: Omit<Bm25SearchOptions, 'k'> & { queryId?: string } = {}): FeedbackIndex {
  const { queryId, ...searchOptions } = options;
  return feedbackIndexOf(index, (query, k) => searchBm25(index, { id: queryId, weighted: query }, { ...searchOptions, k }));
}

/** A `FeedbackIndex` whose statistics and term vectors come from `index` and whose searches from `search`. */
export function feedbackIndexOf(index: Bm25Index, search: FeedbackIndex['search']): FeedbackIndex {
  return {
    numDocs: index.docIds.length,
    numTokens: index.sumTotalTermFreq,
    search,
    termVector(docId) {
      const doc = docOrdinal(index, docId);
      return doc < 0 ? undefined : docTermVector(index, doc);
    },
    docFreq(term) {
      const ordinal = termOrdinal(index, term);
      return ordinal < 0 ? 0 : indexDocFreq(index, ordinal);
    },
    collectionFreq: (term) => indexCollectionFreq(index, termOrdinal(index, term)),
  };
}
