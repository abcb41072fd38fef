import { describe, expect, it } from 'vitest';
import {
  packCandidates,
  packedBuffers,
  packHits,
  unpackHits,
  unpackScores,
} from '../../../src/lib/hits/packed-hits.ts';

const TABLE = ['d0', 'd1', 'd2', 'd3'];
const typed = (rows: number[], scores: Float32Array | Float64Array) => ({ rows: Int32Array.from(rows), scores });

describe('packed hits', () => {
  it('packs per-query lists into offsets, rows and scores and names them back with the table', () => {
    const packed = packHits([typed([2, 0], Float32Array.of(1.5, 0.25)), typed([], new Float64Array(0)), typed([3], Float64Array.of(-1))]);
    expect([...packed.offsets]).toEqual([0, 2, 2, 3]);
    expect([...packed.rows]).toEqual([2, 0, 3]);
    expect([...packed.scores]).toEqual([1.5, 0.25, -1]);
    expect(unpackHits(packed, TABLE)).toEqual([
      [
        { docId: 'd2', score: 1.5 },
        { docId: 'd0', score: 0.25 },
      ],
      [],
      [{ docId: 'd3', score: -1 }],
    ]);
    expect(packedBuffers(packed)).toHaveLength(3);
  });

  it('keeps float32 scores exactly (BM25 scores cross unchanged)', () => {
    const score = Math.fround(12.345678);
    const lists = unpackHits(packHits([typed([1], Float32Array.of(score))]), TABLE);
    expect(lists[0]?.[0]?.score).toBe(score);
  });

  it('packs Int32 and Uint32 rows, float and double scores alike', () => {
    const fromSigned = packHits([{ rows: Int32Array.of(3, 1, 2), scores: Float32Array.of(2.5, 1.25, -0.5) }, { rows: Int32Array.of(0), scores: Float64Array.of(0.1) }]);
    const fromUnsigned = packHits([{ rows: Uint32Array.of(3, 1, 2), scores: Float64Array.of(2.5, 1.25, -0.5) }, { rows: Uint32Array.of(0), scores: Float64Array.of(0.1) }]);
    expect(fromSigned).toEqual(fromUnsigned);
  });

  it('refuses a row outside the table instead of naming a wrong document', () => {
    expect(() => unpackHits(packHits([typed([7], Float64Array.of(1))]), TABLE)).toThrow(/row 7 is outside the table of 4/);
  });

  it('packs candidate ids as rows (-1 for unknown ids) and splits scores back per query', () => {
    const rowOf = new Map(TABLE.map((id, row) => [id, row]));
    const ids = (...docIds: string[]) => docIds.map((docId) => ({ docId }));
    const packed = packCandidates([ids('d1', 'zz'), [], ids('d3')], rowOf);
    expect([...packed.offsets]).toEqual([0, 2, 2, 3]);
    expect([...packed.rows]).toEqual([1, -1, 3]);
    expect(unpackScores(packed.offsets, Float64Array.of(0.5, Number.NaN, 2)).map((scores) => [...scores])).toEqual([[0.5, Number.NaN], [], [2]]);
  });

  it('packs hit lists that came packed from another table through their rows, as their ids would be', () => {
    // A BM25 table in another order than the dense table, with a document the dense table lacks.
    const bm25Table = ['d3', 'x9', 'd0', 'd2'];
    const lists = unpackHits(packHits([typed([2, 1, 3], Float32Array.of(3, 2, 1)), typed([0], Float32Array.of(1))]), bm25Table);
    const rowOf = new Map(TABLE.map((id, row) => [id, row]));
    const byRows = packCandidates(lists, rowOf);
    expect([...byRows.rows]).toEqual([0, -1, 2, 3]);
    // The same lists without their rows (copies) give the same packing through their ids.
    expect(packCandidates(lists.map((hits) => hits.map((hit) => ({ ...hit }))), rowOf)).toEqual(byRows);
  });
});
