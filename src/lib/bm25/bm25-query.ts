import type { Bm25Index } from './bm25-index.ts';
import { docFreq, termOrdinal } from './bm25-index.ts';
import { bm25AvgFieldLength, bm25Idf, bm25Weight } from './bm25-similarity.ts';

/**
 * One distinct query term and its weight: the boost of the term's clause (Lucene's `BoostQuery`), a float32.
 * A plain query's weights are the terms' counts; a weighted query (`query-syntax.ts`, pseudo-relevance
 * feedback) gives any non-negative finite weight. The paper's `w(q) ⊙ (bow(q) + a(q))` is this weight.
 */
export interface QueryTermWeight {
  term: string;
  weight: number;
}

/**
 * A query as BM25 sees it, in one of two forms:
 * - `terms`: analyzed terms, repeats allowed — Anserini's bag of words, each distinct term weighted by its count;
 * - `weighted`: a bag of `{ term, weight }` — terms already analyzed (index terms), weights ≥ 0; a term listed
 *   twice has its weights added (`mergeQueryTermWeights`).
 * With `weighted` holding each term's count, both forms give the same scores bit for bit.
 */
export type Bm25Query =
  | {
      /** Query id; hits whose document id equals it can be dropped (`ignoreIdenticalIds`). */
      id?: string;
      terms: readonly string[];
      weighted?: undefined;
    }
  | {
      id?: string;
      weighted: readonly QueryTermWeight[];
      terms?: undefined;
    };

/**
 * Anserini's bag-of-words query (`BagOfWordsQueryGenerator`, as used by Pyserini's BEIR regressions): one
 * SHOULD clause per distinct term, boosted by the term's count in the query — a `BooleanQuery` of
 * `BoostQuery(TermQuery(t), count)`. Terms keep the order of their first occurrence.
 */
export function bagOfTerms(terms: readonly string[]): QueryTermWeight[] {
  const counts = new Map<string, number>();
  for (const term of terms) counts.set(term, (counts.get(term) ?? 0) + 1);
  return [...counts].map(([term, weight]) => ({ term, weight }));
}

/** Why a weight cannot be a clause boost (Lucene's `BoostQuery` rejects the same), or null. */
export function boostProblem(weight: number): string | null {
  const boost = Math.fround(weight);
  if (Number.isNaN(boost) || boost < 0 || Object.is(boost, -0)) return `a weight must be a number ≥ 0, got ${weight}`;
  if (!Number.isFinite(boost)) return `a weight must be at most ${MAX_FLOAT32} (the largest float), got ${weight}`;
  return null;
}

/** Largest finite float32. */
const MAX_FLOAT32 = 3.4028234663852886e38;

/**
 * One entry per distinct term, in order of first occurrence, with the weights of its occurrences added as
 * Lucene 8.7's `BooleanQuery.rewrite` adds the boosts of duplicate SHOULD clauses: each boost a float,
 * summed in double, the sum rounded to float. Sums of counts are exact, so a bag of counts comes out as it
 * went in. Throws a RangeError for a weight `boostProblem` rejects or a sum beyond the float range.
 */
export function mergeQueryTermWeights(entries: Iterable<QueryTermWeight>): QueryTermWeight[] {
  const sums = new Map<string, number>();
  for (const { term, weight } of entries) {
    const problem = boostProblem(weight);
    if (problem !== null) throw new RangeError(`query term "${term}": ${problem}`);
    sums.set(term, (sums.get(term) ?? 0) + Math.fround(weight));
  }
  return [...sums].map(([term, sum]) => {
    const weight = Math.fround(sum);
    if (!Number.isFinite(weight)) throw new RangeError(`query term "${term}": its weights add up to more than the largest float`);
    return { term, weight };
  });
}

/** The distinct terms of a query with their clause boosts, in order of first occurrence. */
export function queryTermWeights(query: Bm25Query): QueryTermWeight[] {
  return query.weighted !== undefined ? mergeQueryTermWeights(query.weighted) : bagOfTerms(query.terms);
}

/** A query clause resolved against an index: what `TermQuery.createWeight` computes once per query. */
export interface WeightedTerm {
  term: string;
  /** The query term's weight: the clause's boost (float; the term's count for a plain query). */
  boost: number;
  /** Term ordinal in the index, or -1 when no document has the term (the clause then matches nothing). */
  ordinal: number;
  /** Documents holding the term. */
  df: number;
  /** BM25 idf (float); 0 for a term that is not in the index, whose clause Lucene never scores. */
  idf: number;
  /** `boost · idf` (float, `BM25Scorer.weight`); 0 for a term that is not in the index. */
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

/**
 * Resolves a query's distinct terms to ordinals, document frequencies, idfs and clause weights. A term of
 * weight 0 keeps its clause (weight 0): Lucene scores it as a constant 0 (`BoostQuery.rewrite` wraps it
 * in a `ConstantScoreQuery`), so documents matching only such terms are still hits, with score 0.
 */
export function weightQueryTerms(index: Bm25Index, query: Bm25Query): WeightedTerm[] {
  return queryTermWeights(query).map(({ term, weight: boost }) => {
    const ordinal = termOrdinal(index, term);
    if (ordinal < 0) return { term, boost, ordinal, df: 0, idf: 0, weight: 0 };
    const df = docFreq(index, ordinal);
    const idf = bm25Idf(df, index.docCount);
    return { term, boost, ordinal, df, idf, weight: bm25Weight(boost, idf) };
  });
}
