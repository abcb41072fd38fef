/**
 * A run in a compact, structured-clone-friendly form for storage: every distinct document id once, hits as
 * indexes into that table, scores as doubles. Storing SciFact's 300 × 1,000 hits this way is a few typed
 * arrays (≈ 3.6 MB) instead of 12 MB of TREC text that takes over a second to format; the TREC text is
 * made from it only when someone exports it (src/lib/data/trec.ts).
 */
import { rankedLength, type RankedRun } from '../hits/row-ranking.ts';
import { rowsOf } from '../hits/hit-rows.ts';
import type { Hit, Run } from '../types.ts';

export interface PackedRun {
  queryIds: string[];
  /** Distinct document ids, in order of first appearance. */
  docIds: string[];
  /** queryIds.length + 1 entries: query i's hits are [offsets[i], offsets[i + 1]). */
  offsets: Uint32Array;
  docs: Uint32Array;
  scores: Float64Array;
}

export function packRun(run: RankedRun): PackedRun {
  const queryIds = [...run.keys()];
  const offsets = new Uint32Array(queryIds.length + 1);
  queryIds.forEach((qid, q) => (offsets[q + 1] = offsets[q]! + rankedLength(run.get(qid)!)));
  const total = offsets[queryIds.length]!;
  const docs = new Uint32Array(total);
  const scores = new Float64Array(total);
  const docIds: string[] = [];
  const rowOf = new Map<string, number>();
  const packedRow = (docId: string): number => {
    let row = rowOf.get(docId);
    if (row === undefined) {
      row = docIds.length;
      docIds.push(docId);
      rowOf.set(docId, row);
    }
    return row;
  };
  // A list that came packed from a worker knows its table rows (hit-rows.ts): each table row is looked up
  // once (remap[row] = packed row + 1), not each of its hits.
  const remaps = new Map<readonly string[], Uint32Array>();
  let p = 0;
  for (const hits of run.values()) {
    const source = rowsOf(hits);
    if (source === undefined) {
      for (const { docId, score } of hits as readonly Hit[]) {
        docs[p] = packedRow(docId);
        scores[p++] = score;
      }
      continue;
    }
    let remap = remaps.get(source.table);
    if (remap === undefined) remaps.set(source.table, (remap = new Uint32Array(source.table.length)));
    const length = rankedLength(hits);
    if (source.scores !== undefined && source.scores.length === length) scores.set(source.scores, p);
    else for (let i = 0; i < length; i++) scores[p + i] = (hits as readonly Hit[])[i]!.score;
    for (let i = 0; i < length; i++) {
      const tableRow = source.rows[i]!;
      let row = remap[tableRow]! - 1;
      if (row < 0) remap[tableRow] = (row = packedRow(source.table[tableRow]!)) + 1;
      docs[p++] = row;
    }
  }
  return { queryIds, docIds, offsets, docs, scores };
}

export function unpackRun(packed: PackedRun): Run {
  const { queryIds, docIds, offsets, docs, scores } = packed;
  if (offsets.length !== queryIds.length + 1 || docs.length !== scores.length || offsets[queryIds.length] !== docs.length) {
    throw new Error('a stored run is damaged (its arrays disagree in length)');
  }
  const run: Run = new Map();
  queryIds.forEach((qid, q) => {
    const hits: Hit[] = [];
    for (let p = offsets[q]!; p < offsets[q + 1]!; p++) {
      const docId = docIds[docs[p]!];
      if (docId === undefined) throw new Error(`a stored run is damaged (document row ${docs[p]} is outside its table)`);
      hits.push({ docId, score: scores[p]! });
    }
    run.set(qid, hits);
  });
  return run;
}

/**
 * A packed run as IndexedDB keeps it: the hits (scores, then document rows) in one Blob. IndexedDB stores a
 * Blob by reference, so putting a row costs the page almost nothing, where the typed arrays themselves would
 * be serialized on the page's thread.
 */
export interface StoredRun {
  queryIds: string[];
  docIds: string[];
  offsets: Uint32Array;
  /** scores (float64 × hits) followed by docs (uint32 × hits). */
  hits: Blob;
}

export function storedRun(packed: PackedRun): StoredRun {
  const { queryIds, docIds, offsets, docs, scores } = packed;
  return { queryIds, docIds, offsets, hits: new Blob([scores as Float64Array<ArrayBuffer>, docs as Uint32Array<ArrayBuffer>]) };
}

function isStoredRun(packed: PackedRun | StoredRun): packed is StoredRun {
  return 'hits' in packed;
}

/** The packed run of a stored row (rows stored before runs were kept in a Blob hold the arrays themselves). */
export async function packedRunOf(stored: PackedRun | StoredRun): Promise<PackedRun> {
  if (!isStoredRun(stored)) return stored;
  const { queryIds, docIds, offsets, hits } = stored;
  const bytes = await hits.arrayBuffer();
  const count = bytes.byteLength / 12;
  if (!Number.isInteger(count)) throw new Error(`a stored run is damaged (its hits take ${bytes.byteLength} bytes, not a multiple of 12)`);
  return { queryIds, docIds, offsets, scores: new Float64Array(bytes, 0, count), docs: new Uint32Array(bytes, count * 8, count) };
}

/** Bytes the packed run occupies (ids counted as UTF-16, as browsers hold them). */
export function packedRunBytes(packed: PackedRun | StoredRun): number {
  let chars = 0;
  for (const id of packed.queryIds) chars += id.length;
  for (const id of packed.docIds) chars += id.length;
  const hits = isStoredRun(packed) ? packed.hits.size : packed.docs.byteLength + packed.scores.byteLength;
  return 2 * chars + packed.offsets.byteLength + hits;
}
