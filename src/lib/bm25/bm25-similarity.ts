import { LENGTH_TABLE } from './lucene-norms.ts';

/**
 * Lucene 8.7's `BM25Similarity` / `BM25Scorer` arithmetic, operation by operation, in Java `float`.
 *
 *   idf(t)       = ln(1 + (N − df + 0.5) / (df + 0.5))                      in double, then to float
 *   avgdl        = sumTotalTermFreq / N                                     in double, then to float
 *   weight(t)    = boost(t) · idf(t)                                        float
 *   normInv[n]   = 1 / (k1 · ((1 − b) + b · LENGTH_TABLE[n] / avgdl))       float, per norm byte n
 *   score(t, d)  = weight − weight / (1 + tf · normInv[norm(d)])            float
 *
 * N is `docCount` (documents that have the field), not `maxDoc`. Since Lucene 8.0 (LUCENE-8563) there is no
 * (k1 + 1) factor in the numerator, and since 8.4 (LUCENE-9071) the tf part `tf / (tf + norm)` is computed as
 * `1 − 1 / (1 + tf · (1 / norm))` with the reciprocal cached per norm byte; both are what 8.7 ships, and
 * they change the last bits of scores, so they are reproduced exactly. Every float operation is one
 * `Math.fround` of the double result: for +, −, ×, ÷ of two floats that equals Java's float arithmetic
 * (a double holds the exact result closely enough that rounding twice cannot differ).
 *
 * A query's score is the sum of its terms' scores in double, then rounded to float, as Lucene's
 * disjunction scorers do (`WANDScorer`, `DisjunctionSumScorer`, `BooleanScorer`). For BM25 term scores
 * that double sum is exact (floats whose magnitudes lie within 2^29 of each other add exactly in a
 * double), so the order of the terms does not matter.
 *
 * Checked against Lucene 8.7's printed scores on SciFact (tests/lib/bm25/bm25.lucene.parity.test.ts):
 * all 29,966 scores of the top 100 of 300 queries print identically. Measured while writing this: the
 * pre-8.4 form `weight · (float)(tf / (tf + norm))` changed about 3,400 of those printed scores, and one
 * clause per repeated query term (instead of one boosted clause) changed 63, so the reference tells them
 * apart.
 */

const f32 = Math.fround;

/** BM25's free parameters. */
export interface Bm25Params {
  /** Term-frequency saturation, ≥ 0. */
  k1: number;
  /** Length normalization strength, 0..1. */
  b: number;
}

/** Anserini / Pyserini defaults (`--bm25 --k1 0.9 --b 0.4`), used by the BEIR `bm25-flat` regressions. */
export const ANSERINI_BM25_PARAMS: Readonly<Bm25Params> = Object.freeze({ k1: 0.9, b: 0.4 });

/** Throws like Lucene's `BM25Similarity(float k1, float b)` constructor for values it rejects. */
export function validateBm25Params(params: Bm25Params): void {
  if (!Number.isFinite(params.k1) || params.k1 < 0) {
    throw new RangeError(`illegal k1 value: ${params.k1}, must be a non-negative finite value`);
  }
  if (Number.isNaN(params.b) || params.b < 0 || params.b > 1) {
    throw new RangeError(`illegal b value: ${params.b}, must be between 0 and 1`);
  }
}

/** `BM25Similarity.idf`: `(float) Math.log(1 + (docCount − docFreq + 0.5D) / (docFreq + 0.5D))`. */
export function bm25Idf(docFreq: number, docCount: number): number {
  return f32(Math.log(1 + (docCount - docFreq + 0.5) / (docFreq + 0.5)));
}

/** `BM25Similarity.avgFieldLength`: `(float) (sumTotalTermFreq / (double) docCount)`. */
export function bm25AvgFieldLength(sumTotalTermFreq: number, docCount: number): number {
  return f32(sumTotalTermFreq / docCount);
}

/** `k1 · ((1 − b) + b · dl / avgdl)` in float: the length-normalized saturation constant of one length. */
export function bm25LengthNorm(decodedLength: number, avgdl: number, params: Bm25Params): number {
  const k1 = f32(params.k1);
  const b = f32(params.b);
  return f32(k1 * f32(f32(1 - b) + f32(f32(b * f32(decodedLength)) / avgdl)));
}

/**
 * `BM25Similarity.scorer`'s `cache`: `1f / lengthNorm` for each of the 256 norm bytes. It depends only on
 * (k1, b, avgdl), so changing k1 or b needs a new cache (256 divisions), never a new index.
 */
export function bm25NormInverseCache(avgdl: number, params: Bm25Params): Float32Array {
  const cache = new Float32Array(256);
  for (let norm = 0; norm < 256; norm++) {
    cache[norm] = f32(1 / bm25LengthNorm(LENGTH_TABLE[norm]!, avgdl, params));
  }
  return cache;
}

/**
 * `BM25Scorer.weight`: `boost · idf` in float. The boost is the query term's weight: its count in a plain
 * query (Anserini's `BoostQuery(TermQuery, count)`), any float ≥ 0 in a weighted one.
 */
export function bm25Weight(boost: number, idf: number): number {
  return f32(f32(boost) * idf);
}

/** `BM25Scorer.score(freq, norm)`: `weight − weight / (1 + freq · normInverse)` in float. */
export function bm25TermScore(weight: number, freq: number, normInverse: number): number {
  return f32(weight - f32(weight / f32(1 + f32(freq * normInverse))));
}

/** `BM25Scorer.explainTF`'s tf value: `1 − 1 / (1 + freq · normInverse)` in float (0..1). */
export function bm25TfNorm(freq: number, normInverse: number): number {
  return f32(1 - f32(1 / f32(1 + f32(freq * normInverse))));
}
