/**
 * Bo1 query expansion as Terrier defines it (`org.terrier.querying.QueryExpansion` with
 * `DFRBagExpansionTerms` and `org.terrier.matching.models.queryexpansion.Bo1`), PyTerrier's
 * `Bo1QueryExpansion` defaults (fb_terms 10, fb_docs 3), on our Lucene-equal BM25:
 *
 *   1. first pass: the query's top `fbDocs` documents;
 *   2. the feedback documents as one bag: for every term, tfx = its occurrences in them and n = how many
 *      of them hold it;
 *   3. Bo1 (Bose–Einstein with a Poisson mean): with F the term's occurrences in the collection and N the
 *      number of documents, f = F / N and
 *          w(t) = tfx · log2((1 + f) / f) + log2(1 + f);
 *      a term held by fewer than `minDocuments` (Terrier's `expansion.mindocuments`, 2) feedback documents
 *      weighs 0 unless it is a query term; the rule is off when there are fewer feedback documents than that;
 *   4. parameter-free normalisation (Terrier's default `parameter.free.expansion=true`): every w(t) is
 *      divided by the Bo1 value of the heaviest term's tfx taken as its own collection frequency,
 *          norm = (tfx_max · ln((1 + f') / f') + ln(1 + f')) / ln 2,  f' = tfx_max / (tokens / avgdl);
 *   5. the max(fbTerms, distinct query terms) heaviest terms are added to the query: a query term's weight
 *      (its count, or its `^w`) grows by its normalised w(t), a new term enters with it. fbTerms 0 is
 *      Terrier's "conservative" expansion: only the query terms are re-weighted;
 *   6. second pass: the expanded weighted query, top k.
 *
 * Remaining differences from Terrier / PyTerrier:
 *   - Both passes are Lucene 8.7 BM25 (k1 0.9, b 0.4), where the weight of a term is a linear boost.
 *     Terrier's BM25 has other idf and length terms and saturates a query term's weight w as
 *     (k3 + 1) · w / (k3 + w) with k3 = 8, so the same expanded query ranks differently.
 *   - Terms are our analyzer's (Lucene EnglishAnalyzer: 33 stop words, Lucene's Porter), not Terrier's
 *     (its 733-word stop list, Terrier's Porter), so the candidate terms and F differ.
 *   - Ties: Terrier sorts a Trove hash map's values by weight, so equal weights come out in hash order;
 *     here ties go by term (code-unit order), and the heaviest term of step 4 is the first in term order.
 *   - A selected new term whose weight is 0 is not added (it would only add documents scoring 0).
 */
import { mergeQueryTermWeights, type QueryTermWeight } from '../bm25/bm25-query.ts';
import type { FeedbackIndex } from './feedback-index.ts';
import { byWeightThenTerm, checkCount, type PrfResult } from './prf-result.ts';

export interface Bo1Params {
  /** Expansion terms (Terrier `expansion.terms`, PyTerrier `fb_terms`); 0 re-weights the query terms only. */
  fbTerms: number;
  /** Feedback documents (Terrier `expansion.documents`, PyTerrier `fb_docs`). */
  fbDocs: number;
  /** Feedback documents a new term must occur in (Terrier `expansion.mindocuments`). */
  minDocuments: number;
}

/** PyTerrier's `Bo1QueryExpansion` defaults with Terrier's `expansion.mindocuments`. */
export const TERRIER_BO1_PARAMS: Readonly<Bo1Params> = { fbTerms: 10, fbDocs: 3, minDocuments: 2 };

export interface Bo1Options extends Partial<Bo1Params> {
  /** Hits of the second pass; default 1000. */
  k?: number;
}

/** Terrier's `WeightingModelLibrary.log`: base-2 logarithm as ln(x) · (1 / ln 2). */
const REC_LOG_2 = 1 / Math.log(2);
const log2 = (x: number) => Math.log(x) * REC_LOG_2;

/** `Bo1.score(withinDocumentFrequency, termFrequency)`: f = F / N. */
export function bo1Score(tfx: number, collectionFreq: number, numDocs: number): number {
  const f = collectionFreq / numDocs;
  return tfx * log2((1 + f) / f) + log2(1 + f);
}

/** `Bo1.parameterFreeNormaliser()`: the Bo1 value of tfx_max occurrences taken as the collection frequency. */
export function bo1ParameterFreeNormaliser(maxTfx: number, numTokens: number, numDocs: number): number {
  const averageDocumentLength = numTokens / numDocs;
  const numberOfDocuments = numTokens / averageDocumentLength;
  const f = maxTfx / numberOfDocuments;
  return (maxTfx * Math.log((1 + f) / f) + Math.log(1 + f)) / Math.log(2);
}

interface Bo1TermWeight extends QueryTermWeight {
  /** Occurrences in the feedback documents. */
  tfx: number;
  /** Feedback documents holding the term. */
  feedbackDocs: number;
}

/**
 * Every term of the feedback documents with its normalised Bo1 weight (`DFRBagExpansionTerms.assignWeights`),
 * in term order. `queryTerms` are exempt from the `minDocuments` rule.
 */
function bo1TermWeights(
  index: FeedbackIndex,
  feedbackDocIds: readonly string[],
  queryTerms: ReadonlySet<string>,
  minDocuments: number = TERRIER_BO1_PARAMS.minDocuments,
): Bo1TermWeight[] {
  const bag = new Map<string, { tfx: number; docs: number }>();
  for (const docId of feedbackDocIds) {
    for (const { term, tf } of index.termVector(docId) ?? []) {
      const entry = bag.get(term);
      if (entry === undefined) bag.set(term, { tfx: tf, docs: 1 });
      else {
        entry.tfx += tf;
        entry.docs += 1;
      }
    }
  }
  if (bag.size === 0) return [];
  const minDf = feedbackDocIds.length < minDocuments ? 0 : minDocuments;
  const terms = [...bag.keys()].sort();
  const weights = terms.map((term) => {
    const { tfx, docs } = bag.get(term)!;
    const weight = minDf > 0 && docs < minDf && !queryTerms.has(term) ? 0 : bo1Score(tfx, index.collectionFreq(term), index.numDocs);
    return { term, weight, tfx, feedbackDocs: docs };
  });
  let heaviest = 0;
  weights.forEach((entry, i) => {
    if (entry.weight > weights[heaviest]!.weight) heaviest = i;
  });
  const normaliser = bo1ParameterFreeNormaliser(weights[heaviest]!.tfx, index.numTokens, index.numDocs);
  for (const entry of weights) entry.weight /= normaliser;
  return weights;
}

/** The query after Bo1 expansion (`QueryExpansion.expandQuery`), heaviest first. */
function bo1Expand(
  query: readonly QueryTermWeight[],
  weights: readonly Bo1TermWeight[],
  params: Pick<Bo1Params, 'fbTerms'>,
): QueryTermWeight[] {
  const expanded = new Map(mergeQueryTermWeights(query).map(({ term, weight }) => [term, weight]));
  const count = params.fbTerms === 0 ? 0 : Math.max(params.fbTerms, expanded.size);
  const chosen = count === 0 ? weights.filter(({ term }) => expanded.has(term)) : [...weights].sort(byWeightThenTerm).slice(0, count);
  for (const { term, weight } of chosen) {
    const before = expanded.get(term);
    if (before !== undefined) expanded.set(term, Math.fround(before + weight));
    else if (weight > 0) expanded.set(term, Math.fround(weight));
  }
  return [...expanded].map(([term, weight]) => ({ term, weight })).sort(byWeightThenTerm);
}

/** Bo1: first pass, feedback term weights, expanded query, second pass. */
export function searchBo1(index: FeedbackIndex, query: readonly QueryTermWeight[], options: Bo1Options = {}): PrfResult {
  const params: Bo1Params = {
    fbTerms: options.fbTerms ?? TERRIER_BO1_PARAMS.fbTerms,
    fbDocs: options.fbDocs ?? TERRIER_BO1_PARAMS.fbDocs,
    minDocuments: options.minDocuments ?? TERRIER_BO1_PARAMS.minDocuments,
  };
  const k = options.k ?? 1000;
  checkCount('fbTerms', params.fbTerms, 0);
  checkCount('fbDocs', params.fbDocs, 0);
  checkCount('minDocuments', params.minDocuments, 0);
  checkCount('k', k, 0);
  const original = mergeQueryTermWeights(query);
  if (original.length === 0) return { expanded: [], hits: [], feedbackDocIds: [] };
  const feedbackDocIds = params.fbDocs === 0 ? [] : index.search(original, params.fbDocs).map((hit) => hit.docId);
  const weights = bo1TermWeights(index, feedbackDocIds, new Set(original.map((t) => t.term)), params.minDocuments);
  const expanded = bo1Expand(original, weights, params);
  return { expanded, hits: index.search(expanded, k), feedbackDocIds };
}
