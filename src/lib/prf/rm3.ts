/**
 * RM3 pseudo-relevance feedback as Anserini's `io.anserini.rerank.lib.Rm3Reranker` (with
 * `io.anserini.util.FeatureVector`) defines it, on our Lucene-equal BM25:
 *
 *   1. first pass: the query's top `fbDocs` documents and their BM25 scores (float);
 *   2. each feedback document's term vector, keeping only terms that pass the English filter — 2 to 20
 *      characters, all of them `[a-z0-9]` (`filterTerms`, default true) — and whose document frequency is
 *      at most 10 % of the documents (`(float) df / numDocs > 0.1f` drops a term; always applied); the weight
 *      of a term is its frequency in the document; the vector is then cut to its `fbTerms` heaviest terms;
 *   3. relevance model: for every term of those vectors, Σ over feedback documents of
 *      (weight in the document / the document vector's L1 norm) · the document's score, in float, skipping
 *      documents whose norm is ≤ 0.001; cut to the `fbTerms` heaviest; scaled to unit L1 norm;
 *   4. the query vector: the query's terms weighted by their count (or the weighted query's weights),
 *      scaled to unit L1 norm;
 *   5. interpolation: `(float)(w · q(t) + (1 − w) · rm(t))` over the union of terms, w =
 *      `originalQueryWeight` (a float, and `w · q(t)` a float product, as in Java);
 *   6. second pass: a weighted BM25 query with one clause per term of the interpolation, boosted by its
 *      weight (Lucene `BoostQuery(TermQuery(t), weight)`), top k.
 * Defaults are Anserini's and Pyserini's: fbTerms 10, fbDocs 10, originalQueryWeight 0.5.
 *
 * Ties: Anserini cuts a vector to its heaviest terms by a stable sort of its fastutil hash map's
 * iteration order, so among terms of equal weight (in a document vector, every term of the same frequency;
 * in the model, terms of one document with equal frequency) the ones kept depend on string hash codes and
 * table sizes. That order is reproduced (java-hash-order.ts), as are the orders of the double sums.
 *
 * Remaining differences from Anserini:
 *   - The first pass drops the document whose id equals the query id before feedback, when the search
 *     options say so; Pyserini's `--remove-query` drops it only from the output, after RM3. This matters
 *     only where queries are also documents (ArguAna, Quora).
 *   - A weighted query (`term^w`, `+term^w`) is generalized: its weights take the place of the counts in
 *     step 4. Anserini analyzes plain text only.
 *   - Anserini versions with the `filterTerms` switch gate the same length and `[a-z0-9]+` tests with it;
 *     the 10 % document-frequency cut-off is applied in every version read.
 */
import { mergeQueryTermWeights, type QueryTermWeight } from '../bm25/bm25-query.ts';
import type { FeedbackIndex, TermFreq } from './feedback-index.ts';
import { FastutilFloatMap, javaHashSetOrder } from './java-hash-order.ts';
import { byWeightThenTerm, checkCount, type PrfResult } from './prf-result.ts';

const f32 = Math.fround;

export interface Rm3Params {
  /** Terms kept per feedback document and in the relevance model. */
  fbTerms: number;
  /** Feedback documents (the first pass's top). */
  fbDocs: number;
  /** Weight of the original query in the interpolation, 0..1. */
  originalQueryWeight: number;
  /** Anserini's English term filter (2–20 characters of `[a-z0-9]`). */
  filterTerms: boolean;
}

/** Anserini's (and Pyserini's `--rm3`) defaults. */
export const ANSERINI_RM3_PARAMS: Readonly<Rm3Params> = { fbTerms: 10, fbDocs: 10, originalQueryWeight: 0.5, filterTerms: true };

export interface Rm3Options extends Partial<Rm3Params> {
  /** Hits of the second pass; default 1000. */
  k?: number;
}

/**
 * A term → float weight vector: Anserini's `FeatureVector`, whose map is a fastutil
 * `Object2FloatOpenHashMap`; its iteration order decides ties (java-hash-order.ts).
 */
type Vector = FastutilFloatMap;

const ENGLISH_TERM = /^[a-z0-9]+$/;
const MAX_DF_RATIO = f32(0.1);
const MIN_NORM = f32(0.001);

/**
 * `FeatureVector.pruneToSize(k)`: a stable sort of the entries, heaviest first, in the map's iteration
 * order, put into a new map until it holds k (so k = 0 still keeps one entry, as in Java).
 */
function pruneToSize(vector: Vector, k: number): Vector {
  const entries = vector.entries().sort((a, b) => b[1] - a[1]);
  const pruned = new FastutilFloatMap();
  for (const [term, weight] of entries) {
    pruned.set(term, weight);
    if (pruned.size >= k) break;
  }
  return pruned;
}

/** Σ |weight| in double, in iteration order, as `computeL1Norm`. */
function l1Norm(vector: Vector): number {
  let norm = 0;
  for (const [, weight] of vector.entries()) norm += Math.abs(weight);
  return norm;
}

/** Every weight divided by the L1 norm (double), rounded to float, as `scaleToUnitL1Norm`. */
function scaleToUnitL1Norm(vector: Vector): Vector {
  const norm = l1Norm(vector);
  for (const [term, weight] of vector.entries()) vector.set(term, f32(weight / norm));
  return vector;
}

/** Does a document's term take part in feedback (`Rm3Reranker.createdFeatureVector`)? */
function isFeedbackTerm(term: string, index: FeedbackIndex, filterTerms: boolean): boolean {
  if (filterTerms && (term.length < 2 || term.length > 20 || !ENGLISH_TERM.test(term))) return false;
  return !(f32(index.docFreq(term) / index.numDocs) > MAX_DF_RATIO);
}

/** Code-point order, which is the UTF-8 byte order of Lucene's `TermsEnum`. */
function compareCodePoints(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = x[i]!.codePointAt(0)! - y[i]!.codePointAt(0)!;
    if (d !== 0) return d;
  }
  return x.length - y.length;
}

/** A document's terms that take part in feedback, in the byte order of Lucene's term vector. */
export function rm3FeedbackTerms(index: FeedbackIndex, terms: readonly TermFreq[], filterTerms: boolean): TermFreq[] {
  return terms.filter(({ term }) => isFeedbackTerm(term, index, filterTerms)).sort((a, b) => compareCodePoints(a.term, b.term));
}

/**
 * A feedback document's vector: its filtered terms weighted by frequency, added in the term vector's
 * (byte) order, then cut to the `fbTerms` heaviest.
 */
function rm3DocFeatures(index: FeedbackIndex, terms: readonly TermFreq[], params: Pick<Rm3Params, 'fbTerms' | 'filterTerms'>): Vector {
  const vector = new FastutilFloatMap();
  for (const { term, tf } of rm3FeedbackTerms(index, terms, params.filterTerms)) vector.set(term, f32(tf));
  return pruneToSize(vector, params.fbTerms);
}

/**
 * The relevance model of the feedback documents (`estimateRelevanceModel`): unit L1 norm, at most
 * `fbTerms` terms, in Anserini's iteration order. `feedback` is the first pass's top, best first, with
 * float scores.
 */
export function rm3RelevanceModel(
  index: FeedbackIndex,
  feedback: readonly { docId: string; score: number }[],
  params: Pick<Rm3Params, 'fbTerms' | 'filterTerms'>,
): Map<string, number> {
  const docVectors = feedback.map(({ docId }) => rm3DocFeatures(index, index.termVector(docId) ?? [], params));
  const norms = docVectors.map((vector) => f32(l1Norm(vector)));
  const vocab = javaHashSetOrder(docVectors.flatMap((vector) => vector.keysInOrder()));
  const model = new FastutilFloatMap();
  for (const term of vocab) {
    let weight = 0;
    docVectors.forEach((vector, i) => {
      if (norms[i]! > MIN_NORM) weight = f32(weight + f32(f32((vector.get(term) ?? 0) / norms[i]!) * feedback[i]!.score));
    });
    model.set(term, weight);
  }
  const pruned = pruneToSize(model, params.fbTerms);
  return new Map((pruned.size === 0 ? pruned : scaleToUnitL1Norm(pruned)).entries());
}

/** `FeatureVector.interpolate(query, model, originalQueryWeight)` as a weighted query, heaviest first. */
function rm3Interpolate(query: readonly QueryTermWeight[], model: ReadonlyMap<string, number>, originalQueryWeight: number): QueryTermWeight[] {
  const queryVector = new FastutilFloatMap();
  for (const { term, weight } of mergeQueryTermWeights(query)) queryVector.set(term, weight);
  const q = new Map((queryVector.size === 0 ? queryVector : scaleToUnitL1Norm(queryVector)).entries());
  const w = f32(originalQueryWeight);
  const expanded: QueryTermWeight[] = [];
  for (const term of new Set([...q.keys(), ...model.keys()])) {
    expanded.push({ term, weight: f32(f32(w * (q.get(term) ?? 0)) + (1 - w) * (model.get(term) ?? 0)) });
  }
  return expanded.sort(byWeightThenTerm);
}

/** RM3: first pass, feedback model, interpolated query, second pass. */
export function searchRm3(index: FeedbackIndex, query: readonly QueryTermWeight[], options: Rm3Options = {}): PrfResult {
  const params: Rm3Params = { ...ANSERINI_RM3_PARAMS, ...withoutUndefined(options) };
  const k = options.k ?? 1000;
  checkCount('fbTerms', params.fbTerms, 0);
  checkCount('fbDocs', params.fbDocs, 0);
  checkCount('k', k, 0);
  if (!(params.originalQueryWeight >= 0 && params.originalQueryWeight <= 1)) {
    throw new RangeError(`originalQueryWeight must be between 0 and 1, got ${params.originalQueryWeight}`);
  }
  const original = mergeQueryTermWeights(query);
  if (original.length === 0) return { expanded: [], hits: [], feedbackDocIds: [] };
  const feedback = params.fbDocs === 0 ? [] : index.search(original, params.fbDocs);
  const model = rm3RelevanceModel(index, feedback, params);
  const expanded = rm3Interpolate(original, model, params.originalQueryWeight);
  return { expanded, hits: index.search(expanded, k), feedbackDocIds: feedback.map((hit) => hit.docId) };
}

function withoutUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
