/**
 * What eq. 1 reads of a BM25 index: v (each term's IDF), f(d) (each document's BM25 term-frequency part,
 * Lucene's `1 − 1/(1 + freq/lengthNorm)`, the same float the search multiplies by the clause weight), and
 * sqrt(h) of the sparsity penalty (h: the share of documents holding the term).
 */
import type { Bm25Index } from '../bm25/bm25-index.ts';
import { bm25AvgFieldLength, bm25Idf, bm25NormInverseCache, bm25TfNorm, type Bm25Params } from '../bm25/bm25-similarity.ts';

export interface CorpusFeatures {
  idf: Float32Array;
  sqrtShare: Float32Array;
  /** numDocs + 1 offsets into `ordinals` / `tf`: each document's terms (CSR). */
  starts: Uint32Array;
  ordinals: Uint32Array;
  tf: Float32Array;
}

export function corpusFeatures(index: Bm25Index, params: Bm25Params): CorpusFeatures {
  const numTerms = index.terms.length;
  const numDocs = index.docIds.length;
  const { postingsStart, postingsDocs, postingsFreqs, norms } = index;
  const idf = new Float32Array(numTerms);
  const sqrtShare = new Float32Array(numTerms);
  for (let t = 0; t < numTerms; t++) {
    const df = postingsStart[t + 1]! - postingsStart[t]!;
    idf[t] = bm25Idf(df, index.docCount);
    sqrtShare[t] = Math.sqrt(df / numDocs);
  }
  const normInverse = bm25NormInverseCache(bm25AvgFieldLength(index.sumTotalTermFreq, index.docCount), params);
  const starts = new Uint32Array(numDocs + 1);
  for (const doc of postingsDocs) starts[doc + 1]! += 1;
  for (let d = 0; d < numDocs; d++) starts[d + 1]! += starts[d]!;
  const next = starts.slice(0, numDocs);
  const ordinals = new Uint32Array(postingsDocs.length);
  const tf = new Float32Array(postingsDocs.length);
  for (let t = 0; t < numTerms; t++) {
    for (let p = postingsStart[t]!; p < postingsStart[t + 1]!; p++) {
      const doc = postingsDocs[p]!;
      const slot = next[doc]!++;
      ordinals[slot] = t;
      tf[slot] = bm25TfNorm(postingsFreqs[p]!, normInverse[norms[doc]!]!);
    }
  }
  return { idf, sqrtShare, starts, ordinals, tf };
}
