/**
 * The table rows behind a hit list that crossed from a worker packed (packed-hits.ts): remembered with the
 * list, weakly, so that storing a run of such lists copies rows (and scores) instead of looking up every
 * document id and reading every hit again (packRun: 300 queries × 1,000 hits per column of an evaluation),
 * and so that the lists derived from them here (a cut, the query's own id dropped, LEDR's fusion) keep
 * their rows, their scores where unchanged, and their distinct mark.
 */
import { knownDistinct, markDistinct } from './distinct-hits.ts';
import { isRowRanking, type RowRanking } from './row-ranking.ts';
import type { Hit } from '../types.ts';

export interface HitRows {
  /** The table the rows index (a BM25 index's or an embedding matrix's document ids). */
  table: readonly string[];
  /** Row of each hit, aligned with the list. */
  rows: Uint32Array;
  /** Score of each hit, aligned with the list (absent: read them from the hits). */
  scores?: Float64Array | undefined;
}

const rowsOfList = new WeakMap<readonly object[], HitRows>();

/** Remembers that `hits[i]` is `table[rows[i]]` (scoring `scores[i]`, when given); the caller vouches for it. */
export function rememberRows<T extends readonly Hit[]>(hits: T, table: readonly string[], rows: Uint32Array, scores?: Float64Array): T {
  rowsOfList.set(hits, { table, rows, scores });
  return hits;
}

/** The rows behind a list: a ranking of rows is its own, a hit list has them when remembered. */
export function rowsOf(list: readonly object[] | RowRanking): HitRows | undefined {
  return isRowRanking(list) ? list : rowsOfList.get(list);
}

/**
 * The hits at `positions` of `hits`, in that order, as a new list that keeps what is known of the source:
 * its rows (when remembered) and its distinct mark (positions must then be distinct, as every caller's are).
 */
export function pickHits(hits: readonly Hit[], positions: ArrayLike<number>, make?: (hit: Hit, i: number) => Hit): Hit[] {
  const picked: Hit[] = new Array(positions.length);
  for (let i = 0; i < positions.length; i++) picked[i] = make === undefined ? hits[positions[i]!]! : make(hits[positions[i]!]!, i);
  const source = rowsOf(hits);
  if (source !== undefined) {
    const rows = new Uint32Array(positions.length);
    for (let i = 0; i < positions.length; i++) rows[i] = source.rows[positions[i]!]!;
    // `make` may change the scores: then they are read from the hits.
    const scores = make === undefined && source.scores !== undefined ? new Float64Array(positions.length) : undefined;
    if (scores !== undefined) for (let i = 0; i < positions.length; i++) scores[i] = source.scores![positions[i]!]!;
    rememberRows(picked, source.table, rows, scores);
  }
  return knownDistinct(hits) ? markDistinct(picked) : picked;
}

/** The first `depth` hits (the list itself when it is no longer), keeping rows and distinct mark. */
export function cutHits<T extends Hit>(hits: T[], depth: number): T[] {
  if (hits.length <= depth) return hits;
  const cut = hits.slice(0, Math.max(0, depth));
  const source = rowsOf(hits);
  if (source !== undefined) rememberRows(cut, source.table, source.rows.subarray(0, cut.length), source.scores?.subarray(0, cut.length));
  return knownDistinct(hits) ? markDistinct(cut) : cut;
}

/** The hits without document `docId`, cut to `depth`, keeping rows and distinct mark. */
export function withoutDoc(hits: Hit[], docId: string, depth: number): Hit[] {
  const positions: number[] = [];
  for (let i = 0; i < hits.length && positions.length < depth; i++) if (hits[i]!.docId !== docId) positions.push(i);
  return positions.length === hits.length ? hits : pickHits(hits, positions);
}
