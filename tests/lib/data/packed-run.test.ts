import { describe, expect, it } from 'vitest';
import { packedRunBytes, packedRunOf, packRun, storedRun, unpackRun } from '../../../src/lib/data/packed-run.ts';
import type { Run } from '../../../src/lib/types.ts';

describe('packed run', () => {
  const run: Run = new Map([
    ['q1', [{ docId: 'a', score: 2.5 }, { docId: 'b', score: Math.fround(0.1) }]],
    ['q2', []],
    ['q3', [{ docId: 'b', score: -0 }, { docId: 'c', score: 1e-30 }]],
  ]);

  it('stores each document id once and gives the same run back (order, ids, exact scores)', () => {
    const packed = packRun(run);
    expect(packed.docIds).toEqual(['a', 'b', 'c']);
    expect([...packed.docs]).toEqual([0, 1, 1, 2]);
    expect([...packed.offsets]).toEqual([0, 2, 2, 4]);
    const back = unpackRun(packed);
    expect([...back.keys()]).toEqual(['q1', 'q2', 'q3']);
    expect(back).toEqual(run);
    expect(Object.is(back.get('q3')![0]!.score, -0)).toBe(true);
  });

  it('counts its bytes: ids as UTF-16 plus the typed arrays (or the Blob that holds them)', () => {
    // ids: q1 q2 q3 (6 chars) + a b c (3 chars) = 18 bytes; offsets 4 × 4, docs 4 × 4, scores 4 × 8.
    expect(packedRunBytes(packRun(run))).toBe(18 + 16 + 16 + 32);
    expect(packedRunBytes(storedRun(packRun(run)))).toBe(18 + 16 + 16 + 32);
  });

  it('as stored (hits in a Blob) gives the same run back, exact scores and -0 included', async () => {
    const back = unpackRun(await packedRunOf(storedRun(packRun(run))));
    expect(back).toEqual(run);
    expect(Object.is(back.get('q3')![0]!.score, -0)).toBe(true);
    const damaged = { ...storedRun(packRun(run)), hits: new Blob([new Uint8Array(13)]) };
    await expect(packedRunOf(damaged)).rejects.toThrow(/damaged/);
  });

  it('refuses damaged rows with a message instead of a wrong run', () => {
    const packed = packRun(run);
    expect(() => unpackRun({ ...packed, docs: packed.docs.subarray(0, 3) })).toThrow(/damaged/);
    expect(() => unpackRun({ ...packed, docIds: ['a'] })).toThrow(/row 1 is outside/);
  });
});
