import type { Bm25Index } from './bm25-index.ts';
import { docFreq, termOrdinal } from './bm25-index.ts';
import { bm25AvgFieldLength, bm25Idf, bm25Weight } from './bm25-similarity.ts';

/** A query as BM25 sees it: analyzed terms (repeats allowed) and, optionally, the query's own id. */
export interface Bm25Query {
  /** Query id; hits whose document id equals it can be dropped (`ignoreIdenticalIds`). */
  id?: string;
  terms: readonly string[];
}

/** One distinct query term and how many times the analyzed query holds it. */
export interface QueryTermCount {
  term: string;
  count: number;
}

/**
 * Anserini's bag-of-words query (`BagOfWordsQueryGenerator`, as used by Pyserini's BEIR regressions): one
 * SHOULD clause per distinct term, boosted by the term's count in the query — a `BooleanQuery` of
 * `BoostQuery(TermQuery(t), count)`. Terms keep the order of their first occurrence.
 */
export function bagOfTerms(terms: readonly string[]): QueryTermCount[] {
  const counts = new Map<string, number>();
  for (const term of terms) counts.set(term, (counts.get(term) ?? 0) + 1);
  return [...counts].map(([term, count]) => ({ term, count }));
}

/** A query clause resolved against an index: what `TermQuery.createWeight` computes once per query. */
export interface WeightedTerm {
  term: string;
  /** Occurrences in the query: the clause's boost. */
  count: number;
  /** Term ordinal in the index, or -1 when no document has the term (the clause then matches nothing). */
  ordinal: number;
  /** Documents holding the term. */
  df: number;
  /** BM25 idf (float); 0 for a term that is not in the index, whose clause Lucene never scores. */
  idf: number;
  /** `count · idf` (float); 0 for a term that is not in the index. */
  weight: number;
}

/** Collection statistics of the index, as `CollectionStatistics` and `BM25Similarity` see them. */
export interface CollectionStats {
  /** Documents with at least one token (N in the idf). */
  docCount: number;
  sumTotalTermFreq: number;
  /** `sumTotalTermFreq / docCount` as a float; 1 for an index without tokens (as Lucene's older versions did). */
  avgdl: number;
}

export function collectionStats(index: Bm25Index): CollectionStats {
  const { docCount, sumTotalTermFreq } = index;
  return {
    docCount,
    sumTotalTermFreq,
    avgdl: docCount > 0 ? bm25AvgFieldLength(sumTotalTermFreq, docCount) : 1,
  };
}

/** Resolves the bag of a query's terms to ordinals, document frequencies, idfs and clause weights. */
export function weightQueryTerms(index: Bm25Index, terms: readonly string[]): WeightedTerm[] {
  return bagOfTerms(terms).map(({ term, count }) => {
    const ordinal = termOrdinal(index, term);
    if (ordinal < 0) return { term, count, ordinal, df: 0, idf: 0, weight: 0 };
    const df = docFreq(index, ordinal);
    const idf = bm25Idf(df, index.docCount);
    return { term, count, ordinal, df, idf, weight: bm25Weight(count, idf) };
  });
}
