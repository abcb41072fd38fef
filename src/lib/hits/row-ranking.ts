/**
 * A query's ranking as rows of a document table, the form in which a worker's answer crosses to the page
 * (packed-hits.ts): an evaluation keeps its columns' rankings this way instead of as 1,000 `{ docId, score }`
 * objects per query. Making those objects (and collecting them) cost the page more than the BM25 worker's
 * search of the same queries: 300 × 1,000 objects per column of a SciFact evaluation, each with its boxed
 * score. The measures need only the ids in trec_eval's order (ranking.ts reads them from the rows); hit
 * objects are made only for what needs them (an exported run file, more measures).
 */
import type { Hit, Run } from '../types.ts';

export interface RowRanking {
  /** The document ids the rows index (an index's or an embedding matrix's table, shared by many rankings). */
  readonly table: readonly string[];
  /** Best first; each row names `table[row]`. */
  readonly rows: Uint32Array;
  /** Aligned with `rows`. */
  readonly scores: Float64Array;
}

/** A query's hits, as objects or as rows. */
export type RankedList = readonly Hit[] | RowRanking;

/** Query id → ranking: a run whose lists may be rows (what the measures accept). */
export type RankedRun = ReadonlyMap<string, RankedList>;

export function isRowRanking<T>(list: RowRanking | readonly T[]): list is RowRanking {
  return !Array.isArray(list);
}

export function rankedLength(list: RowRanking | readonly unknown[]): number {
  return isRowRanking(list) ? list.rows.length : list.length;
}

/** The rankings of `packed`'s queries as views of its arrays (no copy), named by `table`. */
export function rowRankings(packed: { offsets: Uint32Array; rows: Uint32Array; scores: Float64Array }, table: readonly string[]): RowRanking[] {
  const { offsets, rows, scores } = packed;
  const rankings: RowRanking[] = [];
  for (let q = 0; q + 1 < offsets.length; q++) {
    const start = offsets[q]!;
    const end = offsets[q + 1]!;
    for (let p = start; p < end; p++) if (rows[p]! >= table.length) throw new RangeError(`row ${rows[p]} is outside the table of ${table.length} documents`);
    rankings.push({ table, rows: rows.subarray(start, end), scores: scores.subarray(start, end) });
  }
  return rankings;
}

/** The first position whose row an earlier position holds too (-1: every row is distinct). */
export function firstRepeatedRow(list: RowRanking): number {
  const { seen, stamp } = rowStamp(list.table.length);
  for (let i = 0; i < list.rows.length; i++) {
    const row = list.rows[i]!;
    if (seen[row] === stamp) return i;
    seen[row] = stamp;
  }
  return -1;
}

/**
 * A fresh stamp and the array it marks rows in (`seen[row] === stamp`: met in this pass). One array serves
 * every pass, grown to the largest table, instead of a Set of ids or an array per ranking.
 */
export function rowStamp(tableSize: number): { seen: Uint32Array; stamp: number } {
  if (stamps.seen.length < tableSize || stamps.stamp >= 0xfffffffe) {
    stamps.seen = new Uint32Array(Math.max(tableSize, stamps.seen.length));
    stamps.stamp = 0;
  }
  return { seen: stamps.seen, stamp: ++stamps.stamp };
}

const stamps = { stamp: 0, seen: new Uint32Array(0) };

/** The positions of `list` kept by `keep`, as a new ranking of the same table (views are not shared). */
export function filterRows(list: RowRanking, keep: (docId: string) => boolean): RowRanking {
  const positions: number[] = [];
  for (let i = 0; i < list.rows.length; i++) if (keep(list.table[list.rows[i]!]!)) positions.push(i);
  if (positions.length === list.rows.length) return list;
  return { table: list.table, rows: Uint32Array.from(positions, (i) => list.rows[i]!), scores: Float64Array.from(positions, (i) => list.scores[i]!) };
}

/** The first `depth` rows (the ranking itself when it is no longer). */
export function cutRows(list: RowRanking, depth: number): RowRanking {
  if (list.rows.length <= depth) return list;
  const end = Math.max(0, depth);
  return { table: list.table, rows: list.rows.subarray(0, end), scores: list.scores.subarray(0, end) };
}

/** The ranking as hit objects, best first (rows and their order unchanged). */
export function hitsOf(list: RankedList): Hit[] {
  if (!isRowRanking(list)) return list as Hit[];
  const hits: Hit[] = new Array(list.rows.length);
  for (let i = 0; i < hits.length; i++) hits[i] = { docId: list.table[list.rows[i]!]!, score: list.scores[i]! };
  return hits;
}

/** A run of hit objects (for a run file, more measures): rankings of rows are made into hits here. */
export function runOfRanked(run: RankedRun): Run {
  const out: Run = new Map();
  for (const [qid, list] of run) out.set(qid, hitsOf(list));
  return out;
}
