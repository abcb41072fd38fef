import type { Hit } from '../types.ts';
import type { FusedHit } from './fused-hit.ts';
import { assertCount, assertUniqueIds, compareCodePoints, rankFused, topOf } from './fused-hit.ts';
import { cutRows, firstRepeatedRow, type RowRanking } from '../hits/row-ranking.ts';
import { knownDistinct, markDistinct } from '../hits/distinct-hits.ts';
import { pickHits } from '../hits/hit-rows.ts';
import { orderByScore } from '../hits/top-of-scores.ts';

/** LaPraDoR's cut-off: BM25 scores past the top 1,000 are set to 0. */
const DEFAULT_LEDR_BM25_DEPTH = 1000;

/**
 * Dense similarity of the query to a candidate: a precomputed map, a function, or the similarities of the
 * BM25 hits in their order (what a dense worker returns for given candidates; no lookup by id needed).
 */
export type DenseScores = ReadonlyMap<string, number> | ((docId: string) => number) | ArrayLike<number>;

export interface LedrOptions {
  /** K: how many BM25 hits are candidates (and keep a non-zero BM25 score); default 1000. */
  k?: number;
  /** Length of the fused ranking; default: all candidates. */
  limit?: number;
}

/** The two factors of a LEDR score. */
export interface LedrParts {
  /** The document's BM25 score (it is among the BM25 top K, so this is its real score). */
  bm25: number;
  /** 1-based rank in the BM25 ranking. */
  bm25Rank: number;
  /** Dense similarity (cosine) of query and document. */
  dense: number;
}

/**
 * Lexicon-Enhanced Dense Retrieval (LaPraDoR, Xu et al., Findings of ACL 2022, §3.4, eq. 9):
 *
 *   score(q, d) = sim_dense(q, d) · BM25(q, d)
 *
 * where BM25 is 0 for documents outside the BM25 top K (the paper's K = 1,000). A document with BM25 0
 * scores 0 whatever its dense similarity, so — like the authors' code — only the BM25 top K are
 * candidates, and the dense scores are needed for those alone. `bm25` must be ordered best first.
 * The product is taken in double. Ordered by score descending, then document id.
 */
export function lexiconEnhancedDense(
  bm25: readonly Hit[],
  dense: DenseScores,
  options: LedrOptions = {},
): FusedHit<LedrParts>[] {
  const candidates = ledrCandidates(bm25, options);
  const denseOf = denseLookup(dense);
  const fused = candidates.map((hit, position): FusedHit<LedrParts> => {
    const similarity = checkedSimilarity(denseOf(hit.docId, position), hit.docId);
    return {
      docId: hit.docId,
      score: similarity * hit.score,
      parts: { bm25: hit.score, bm25Rank: position + 1, dense: similarity },
    };
  });
  return rankFused(fused, options.limit);
}

/**
 * {@link lexiconEnhancedDense}'s hits without their parts: the same documents, scores and order, made
 * without an object per candidate (an evaluation fuses 300 queries × 1,000 candidates, and the fused
 * objects, their parts and their plain copies were the largest item in a page profile of it). `dense` holds the
 * candidates' similarities in their order.
 */
export function lexiconEnhancedDenseHits(bm25: readonly Hit[], dense: ArrayLike<number>, options: LedrOptions = {}): Hit[] {
  const candidates = ledrCandidates(bm25, options);
  const scores = new Float64Array(candidates.length);
  for (let i = 0; i < candidates.length; i++) {
    const similarity = checkedSimilarity(i < dense.length ? dense[i] : undefined, candidates[i]!.docId);
    scores[i] = similarity * candidates[i]!.score;
  }
  const kept = fusedOrder(scores, (i) => candidates[i]!.docId, options.limit);
  // The candidates are BM25's first hits, so positions in them are positions in `bm25` (whose rows the
  // fused list keeps: hit-rows.ts). Each candidate at most once, and the candidates are distinct.
  return markDistinct(pickHits(bm25, kept, (hit, i) => ({ docId: hit.docId, score: scores[kept[i]!]! })));
}

/**
 * {@link lexiconEnhancedDenseHits} on rows of a document table (an evaluation's rankings cross from the
 * workers as rows): the candidates are `rows` (BM25's top K, distinct, best first) with their BM25 scores
 * and dense similarities aligned. Returns the fused ranking's rows and scores: the same documents, scores
 * and order, without an object per candidate.
 */
export function lexiconEnhancedDenseRows(
  rows: ArrayLike<number>,
  bm25: ArrayLike<number>,
  dense: ArrayLike<number>,
  docIds: readonly string[],
  limit?: number,
): { rows: Uint32Array; scores: Float64Array } {
  const n = rows.length;
  const scores = new Float64Array(n);
  for (let i = 0; i < n; i++) scores[i] = checkedSimilarity(i < dense.length ? dense[i] : undefined, docIds[rows[i]!] ?? `row ${rows[i]}`) * bm25[i]!;
  const kept = fusedOrder(scores, (i) => docIds[rows[i]!]!, limit);
  const fusedRows = new Uint32Array(kept.length);
  const fusedScores = new Float64Array(kept.length);
  for (let i = 0; i < kept.length; i++) {
    fusedRows[i] = rows[kept[i]!]!;
    fusedScores[i] = scores[kept[i]!]!;
  }
  return { rows: fusedRows, scores: fusedScores };
}

/**
 * compareFused on positions, the first `limit` of them: by score (a radix sort, as a comparison sort of
 * 1,000 candidates per query was the largest item of an evaluation's LEDR column), then equal scores by
 * document id.
 */
function fusedOrder(scores: Float64Array, idAt: (position: number) => string, limit: number | undefined): Int32Array {
  const order = orderByScore(scores);
  for (let start = 0; start < order.length; ) {
    let end = start + 1;
    while (end < order.length && scores[order[end]!] === scores[order[start]!]) end++;
    if (end - start > 1) order.subarray(start, end).sort((a, b) => compareCodePoints(idAt(a), idAt(b)));
    start = end;
  }
  return limit !== undefined && limit < order.length ? order.subarray(0, Math.max(0, limit)) : order;
}

/** The BM25 top K, checked for a document named twice unless the list is known to be distinct. */
export function ledrCandidates(bm25: readonly Hit[], options: LedrOptions): readonly Hit[] {
  const k = options.k ?? DEFAULT_LEDR_BM25_DEPTH;
  // A list within K is its own top K, kept as it is: with its rows (hit-rows.ts), where a copy has none.
  const candidates = Number.isInteger(k) && k >= bm25.length ? bm25 : topOf(bm25, k);
  if (!knownDistinct(bm25)) assertUniqueIds(candidates, 'the BM25 ranking');
  return candidates;
}

/** `ledrCandidates` of a ranking of rows: the same top K, checked for a document named twice by row. */
export function ledrCandidateRows(bm25: RowRanking, options: LedrOptions): RowRanking {
  const k = options.k ?? DEFAULT_LEDR_BM25_DEPTH;
  // As topOf checks it for hits: a K that is no count fails, whether or not the ranking is longer.
  assertCount(k, 'depth');
  const candidates = cutRows(bm25, k);
  const repeated = firstRepeatedRow(candidates);
  if (repeated >= 0) throw new RangeError(`the BM25 ranking holds document "${candidates.table[candidates.rows[repeated]!]}" twice`);
  return candidates;
}

function checkedSimilarity(similarity: number | undefined, docId: string): number {
  if (similarity === undefined || !Number.isFinite(similarity)) throw new RangeError(`no dense score for BM25 candidate "${docId}"`);
  return similarity;
}

function denseLookup(dense: DenseScores): (docId: string, position: number) => number | undefined {
  if (typeof dense === 'function') return dense;
  if (isMap(dense)) return (docId) => dense.get(docId);
  return (_docId, position) => (position < dense.length ? dense[position] : undefined);
}

function isMap(dense: ReadonlyMap<string, number> | ArrayLike<number>): dense is ReadonlyMap<string, number> {
  return typeof (dense as ReadonlyMap<string, number>).get === 'function';
}
