import type { Bm25Index } from './bm25-index.ts';
import { docOrdinal, termFreq } from './bm25-index.ts';
import type { Bm25Query } from './bm25-query.ts';
import { collectionStats, weightQueryTerms } from './bm25-query.ts';
import type { Bm25Params } from './bm25-similarity.ts';
import {
  ANSERINI_BM25_PARAMS,
  bm25LengthNorm,
  bm25NormInverseCache,
  bm25TermScore,
  bm25TfNorm,
  validateBm25Params,
} from './bm25-similarity.ts';
import { LENGTH_TABLE } from './lucene-norms.ts';

/** Why one query term adds what it adds to one document's score (Lucene's `Explanation`, flattened). */
export interface Bm25TermExplanation {
  term: string;
  /** The query term's weight = the clause's boost (float): its count in a plain query. */
  boost: number;
  /** False when no document has the term: the clause matches nothing and has no idf. */
  inIndex: boolean;
  /** Documents holding the term. */
  df: number;
  /** ln(1 + (N − df + 0.5) / (df + 0.5)) as a float; 0 when not in the index. */
  idf: number;
  /** boost · idf (float). */
  weight: number;
  /** Occurrences of the term in the document (0: the term contributes nothing). */
  tf: number;
  /** tf / (tf + lengthNorm), computed as Lucene does (1 − 1 / (1 + tf / lengthNorm)); 0 when tf is 0. */
  tfNorm: number;
  /** This term's part of the score: weight − weight / (1 + tf · normInverse); 0 when tf is 0. */
  contribution: number;
}

/** Everything that makes one document's BM25 score for one query. */
export interface Bm25Explanation extends Bm25Params {
  docId: string;
  /** Internal docid (insertion order), which breaks ties. */
  doc: number;
  /** The float score `searchBm25` gives this document (0 if no term matches). */
  score: number;
  /** N: documents with at least one token. */
  docCount: number;
  /** Average field length (float). */
  avgdl: number;
  /** Exact number of tokens of the document. */
  docLength: number;
  /** The one-byte norm Lucene stores for that length. */
  encodedLength: number;
  /** The length that byte decodes to, which is what BM25 uses. */
  decodedLength: number;
  /** k1 · ((1 − b) + b · decodedLength / avgdl) (float): the tf saturation constant for this document. */
  lengthNorm: number;
  /** 1 / lengthNorm (float), Lucene's cached value. */
  normInverse: number;
  /** One entry per distinct query term, in order of first occurrence, with its weight and contribution. */
  terms: Bm25TermExplanation[];
}

/**
 * Explains a document's score for a query term by term, with the same float arithmetic as `searchBm25`,
 * so `score` equals the search score. The query id is not used (no hit is dropped here).
 */
export function explainBm25(
  index: Bm25Index,
  query: Bm25Query,
  docId: string,
  params: Bm25Params = ANSERINI_BM25_PARAMS,
): Bm25Explanation {
  validateBm25Params(params);
  const doc = docOrdinal(index, docId);
  if (doc < 0) throw new RangeError(`document "${docId}" is not in the index`);
  const { docCount, avgdl } = collectionStats(index);
  const encodedLength = index.norms[doc]!;
  const decodedLength = LENGTH_TABLE[encodedLength]!;
  const normInverse = bm25NormInverseCache(avgdl, params)[encodedLength]!;

  let sum = 0;
  const terms = weightQueryTerms(index, query).map((clause): Bm25TermExplanation => {
    const inIndex = clause.ordinal >= 0;
    const tf = inIndex ? termFreq(index, clause.ordinal, doc) : 0;
    const contribution = tf > 0 ? bm25TermScore(clause.weight, tf, normInverse) : 0;
    sum += contribution;
    return {
      term: clause.term,
      boost: clause.boost,
      inIndex,
      df: clause.df,
      idf: clause.idf,
      weight: clause.weight,
      tf,
      tfNorm: tf > 0 ? bm25TfNorm(tf, normInverse) : 0,
      contribution,
    };
  });

  return {
    docId,
    doc,
    score: Math.fround(sum),
    k1: Math.fround(params.k1),
    b: Math.fround(params.b),
    docCount,
    avgdl,
    docLength: index.docLengths[doc]!,
    encodedLength,
    decodedLength,
    lengthNorm: bm25LengthNorm(decodedLength, avgdl, params),
    normInverse,
    terms,
  };
}
