import type { Hit } from '../types.ts';
import type { Bm25Index } from './bm25-index.ts';
import { docOrdinal } from './bm25-index.ts';
import type { Bm25Query } from './bm25-query.ts';
import { collectionStats, weightQueryTerms } from './bm25-query.ts';
import type { Bm25Params } from './bm25-similarity.ts';
import { ANSERINI_BM25_PARAMS, bm25NormInverseCache, bm25TermScore, validateBm25Params } from './bm25-similarity.ts';
import { TopK } from '../hits/top-k.ts';

/** Pyserini's default depth (`--hits 1000`). */
export const DEFAULT_BM25_HITS = 1000;

export interface Bm25SearchOptions {
  /** How many hits to return (after dropped ids); default 1000; `Infinity` for every match. */
  k?: number;
  /** k1 and b; default Anserini's 0.9 / 0.4. Changing them never touches the index. */
  params?: Bm25Params;
  /**
   * Drop the hit whose document id equals the query id (Pyserini's `--remove-query`, which BEIR's
   * ArguAna and Quora need); default true.
   */
  ignoreIdenticalIds?: boolean;
  /** Further document ids never to return. */
  excludeIds?: Iterable<string>;
  /**
   * When false (default), dropped documents do not use up one of the k places: k hits come back whenever
   * k documents match. When true, the top k are taken first and dropped documents removed afterwards, so
   * k − 1 hits may come back — exactly what Pyserini's `--hits k --remove-query` writes. The two differ
   * only at the last place of the list.
   */
  dropAfterTopK?: boolean;
}

/** Per-index scratch accumulators, reused across queries so a query allocates nothing per document. */
interface Scratch {
  sums: Float64Array;
  matched: Uint8Array;
  touched: Uint32Array;
}
const scratches = new WeakMap<Bm25Index, Scratch>();

function scratchFor(index: Bm25Index): Scratch {
  const numDocs = index.docIds.length;
  let scratch = scratches.get(index);
  if (scratch === undefined) {
    scratch = { sums: new Float64Array(numDocs), matched: new Uint8Array(numDocs), touched: new Uint32Array(numDocs) };
    scratches.set(index, scratch);
  }
  return scratch;
}

function excludedDocs(index: Bm25Index, query: Bm25Query, options: Bm25SearchOptions): Set<number> {
  const excluded = new Set<number>();
  const add = (id: string) => {
    const doc = docOrdinal(index, id);
    if (doc >= 0) excluded.add(doc);
  };
  if ((options.ignoreIdenticalIds ?? true) && query.id !== undefined) add(query.id);
  for (const id of options.excludeIds ?? []) add(id);
  return excluded;
}

/**
 * Scores every document matching at least one query term and keeps the top k, with the scores and order
 * of Lucene's `IndexSearcher.search(BooleanQuery, k)` for Anserini's bag-of-words query, or for a weighted
 * query's `BoostQuery(TermQuery(t), weight)` clauses (`bm25-query.ts`):
 * each term's float score (`bm25TermScore`) is added into a double per document and the sum rounded to
 * float at the end. Lucene goes document-at-a-time and this goes term-at-a-time; the result is the same
 * because a double sum of a few float term scores is exact (unless their magnitudes span more than about
 * 2^29), so the order of addition does not matter. Equal scores rank by internal docid, lower first.
 *
 * Returns internal docids; `searchBm25` maps them to document ids.
 */
/** A document of the index by its internal number, with its score. */
export interface ScoredDoc {
  doc: number;
  score: number;
}

export function searchBm25Docs(index: Bm25Index, query: Bm25Query, options: Bm25SearchOptions = {}): ScoredDoc[] {
  const params = options.params ?? ANSERINI_BM25_PARAMS;
  validateBm25Params(params);
  const k = options.k ?? DEFAULT_BM25_HITS;
  if (!(k >= 0) || (!Number.isInteger(k) && k !== Infinity)) throw new RangeError(`k must be a non-negative integer, got ${k}`);
  const clauses = weightQueryTerms(index, query).filter((clause) => clause.ordinal >= 0);
  if (clauses.length === 0 || k === 0) return [];

  const normInverse = bm25NormInverseCache(collectionStats(index).avgdl, params);
  const { sums, matched, touched } = scratchFor(index);
  const { norms, postingsStart, postingsDocs, postingsFreqs } = index;
  let numTouched = 0;
  for (const { ordinal, weight } of clauses) {
    const end = postingsStart[ordinal + 1]!;
    for (let p = postingsStart[ordinal]!; p < end; p++) {
      const doc = postingsDocs[p]!;
      if (matched[doc] === 0) {
        matched[doc] = 1;
        touched[numTouched++] = doc;
      }
      sums[doc]! += bm25TermScore(weight, postingsFreqs[p]!, normInverse[norms[doc]!]!);
    }
  }

  const excluded = excludedDocs(index, query, options);
  const dropAfter = options.dropAfterTopK ?? false;
  const top = new TopK(Math.min(k, numTouched));
  for (let i = 0; i < numTouched; i++) {
    const doc = touched[i]!;
    if (dropAfter || !excluded.has(doc)) top.offer(doc, Math.fround(sums[doc]!));
    sums[doc] = 0;
    matched[doc] = 0;
  }
  const hits = top.sorted((doc, score): ScoredDoc => ({ doc, score }));
  return dropAfter ? hits.filter((hit) => !excluded.has(hit.doc)) : hits;
}

/** BM25 top-k hits of one query (document ids and Lucene-equal float scores), best first. */
export function searchBm25(index: Bm25Index, query: Bm25Query, options: Bm25SearchOptions = {}): Hit[] {
  return searchBm25Docs(index, query, options).map(({ doc, score }) => ({ docId: index.docIds[doc]!, score }));
}
