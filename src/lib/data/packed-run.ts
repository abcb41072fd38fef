/**
 * A run in a compact, structured-clone-friendly form for storage: every distinct document id once, hits as
 * indexes into that table, scores as doubles. Storing SciFact's 300 × 1,000 hits this way is a few typed
 * arrays (≈ 3.6 MB) instead of 12 MB of TREC text that takes over a second to format; the TREC text is
 * made from it only when someone exports it (src/lib/data/trec.ts).
 */
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

export function packRun(run: Run): PackedRun {
  const queryIds = [...run.keys()];
  const offsets = new Uint32Array(queryIds.length + 1);
  queryIds.forEach((qid, q) => (offsets[q + 1] = offsets[q]! + run.get(qid)!.length));
  const total = offsets[queryIds.length]!;
  const docs = new Uint32Array(total);
  const scores = new Float64Array(total);
  const docIds: string[] = [];
  const rowOf = new Map<string, number>();
  let p = 0;
  for (const hits of run.values()) {
    for (const { docId, score } of hits) {
      let row = rowOf.get(docId);
      if (row === undefined) {
        row = docIds.length;
        docIds.push(docId);
        rowOf.set(docId, row);
      }
      docs[p] = row;
      scores[p++] = score;
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

/** Bytes the packed run occupies (ids counted as UTF-16, as browsers hold them). */
export function packedRunBytes(packed: PackedRun): number {
  let chars = 0;
  for (const id of packed.queryIds) chars += id.length;
  for (const id of packed.docIds) chars += id.length;
  return 2 * chars + packed.offsets.byteLength + packed.docs.byteLength + packed.scores.byteLength;
}
