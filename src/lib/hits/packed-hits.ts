/**
 * The rankings of many queries as three flat typed arrays, for crossing a worker boundary: structured
 * cloning 300 queries × 1,000 `{ docId, score }` objects costs more than ranking them (about half a second
 * on SciFact), while typed arrays are transferred without a copy. Documents are rows of a table both sides
 * hold (a BM25 index's or an embedding matrix's document ids, sent once per opened collection).
 *
 * Query i's hits are `rows[offsets[i] … offsets[i + 1])`, best first, with `scores` aligned to them.
 * Scores are doubles, so BM25's floats and the dense dot products cross unchanged.
 */
import type { Hit } from '../types.ts';
import { markDistinct } from './distinct-hits.ts';
import { firstRepeatedRow, hitsOf, rankedLength, rowRankings, type RowRanking } from './row-ranking.ts';
import { rememberRows, rowsOf } from './hit-rows.ts';

export interface PackedHits {
  /** queries + 1 entries; the last is the number of hits. */
  offsets: Uint32Array;
  rows: Uint32Array;
  scores: Float64Array;
}

/**
 * One query's rows and scores, best first (aligned): a BM25 kernel's result (float scores) or an exact or
 * HNSW search's (double scores).
 */
export interface TypedRows {
  rows: Int32Array | Uint32Array;
  scores: Float32Array | Float64Array;
}

/** Packs per-query lists, each copied in one call per array. */
export function packHits(lists: readonly TypedRows[]): PackedHits {
  const offsets = new Uint32Array(lists.length + 1);
  for (let q = 0; q < lists.length; q++) offsets[q + 1] = offsets[q]! + lists[q]!.rows.length;
  const total = offsets[lists.length]!;
  const rows = new Uint32Array(total);
  const scores = new Float64Array(total);
  lists.forEach((list, q) => {
    // A search's rows are never negative, so the Int32 → Uint32 conversion of `set` keeps them.
    rows.set(list.rows, offsets[q]!);
    scores.set(list.scores, offsets[q]!);
  });
  return { offsets, rows, scores };
}

/** Back to hit lists, naming each row by `docIds[row]` (unpackRanking). */
export function unpackHits(packed: PackedHits, docIds: readonly string[]): Hit[][] {
  return rowRankings(packed, docIds).map(unpackRanking);
}

/**
 * A ranking of rows as hit objects. A list whose rows are distinct is marked so (distinct-hits.ts): told
 * here from one number per row, where the evaluation would hash 1,000 ids. The list remembers its rows
 * (hit-rows.ts), for storing it or sending it to a worker without looking its ids up again.
 */
export function unpackRanking(list: RowRanking): Hit[] {
  const hits = rememberRows(hitsOf(list), list.table, list.rows, list.scores);
  return firstRepeatedRow(list) < 0 ? markDistinct(hits) : hits;
}

/** The buffers to transfer (Comlink.transfer) instead of copying. */
export function packedBuffers(packed: PackedHits): ArrayBuffer[] {
  return [packed.offsets.buffer, packed.rows.buffer, packed.scores.buffer] as ArrayBuffer[];
}

/**
 * Candidate lists as rows of a table, for scoring in a worker (LEDR sends BM25's candidates to the dense
 * worker): ids the table lacks become -1, which the scorer answers with NaN.
 */
export interface PackedCandidates {
  offsets: Uint32Array;
  rows: Int32Array;
}

export function packCandidates(candidates: Candidates, rowOf: ReadonlyMap<string, number>): PackedCandidates {
  const offsets = new Uint32Array(candidates.length + 1);
  candidates.forEach((list, q) => (offsets[q + 1] = offsets[q]! + rankedLength(list)));
  const rows = new Int32Array(offsets[candidates.length]!);
  let p = 0;
  for (const list of candidates) {
    // A list that came packed from a worker knows its rows in that worker's table (hit-rows.ts): each of
    // the table's rows is looked up once per target table, not each candidate (LEDR sends 300 × 1,000).
    const source = rowsOf(list);
    if (source !== undefined) {
      const remap = remapOf(source.table, rowOf);
      for (let i = 0; i < source.rows.length; i++) rows[p++] = remap[source.rows[i]!]!;
    } else for (const { docId } of list as readonly { readonly docId: string }[]) rows[p++] = rowOf.get(docId) ?? -1;
  }
  return { offsets, rows };
}

/** Candidate documents of each query (a ranking's hits or rows, or bare ids as `{ docId }`). */
export type Candidates = readonly (readonly { readonly docId: string }[] | RowRanking)[];

const remaps = new WeakMap<readonly string[], WeakMap<ReadonlyMap<string, number>, Int32Array>>();

/** remap[row of `table`] = that document's row by `rowOf` (-1: none), made once per pair. */
function remapOf(table: readonly string[], rowOf: ReadonlyMap<string, number>): Int32Array {
  let byTarget = remaps.get(table);
  if (byTarget === undefined) remaps.set(table, (byTarget = new WeakMap()));
  let remap = byTarget.get(rowOf);
  if (remap === undefined) {
    remap = Int32Array.from(table, (docId) => rowOf.get(docId) ?? -1);
    byTarget.set(rowOf, remap);
  }
  return remap;
}

/** Splits a flat score array by the candidates' offsets (views of it, not copies). */
export function unpackScores(offsets: Uint32Array, scores: Float64Array): Float64Array[] {
  const lists: Float64Array[] = [];
  for (let q = 0; q + 1 < offsets.length; q++) lists.push(scores.subarray(offsets[q]!, offsets[q + 1]!));
  return lists;
}
