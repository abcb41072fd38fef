import { describe, expect, it } from 'vitest';
import { packRun } from '../../../src/lib/data/packed-run.ts';
import { knownDistinct, markDistinct } from '../../../src/lib/hits/distinct-hits.ts';
import { lexiconEnhancedDenseHits } from '../../../src/lib/fusion/ledr.ts';
import { cutHits, pickHits, rowsOf, withoutDoc } from '../../../src/lib/hits/hit-rows.ts';
import { packHits, unpackHits } from '../../../src/lib/hits/packed-hits.ts';
import type { Hit, Run } from '../../../src/lib/types.ts';

const table = ['d0', 'd1', 'd2', 'd3', 'd4'];

/** Lists as a worker's packed hits give them (rows remembered, distinct marked). */
function fromWorker(lists: Array<Array<[number, number]>>): Hit[][] {
  return unpackHits(packHits(lists.map((list) => ({ rows: Int32Array.from(list, ([row]) => row), scores: Float64Array.from(list, ([, score]) => score) }))), table);
}

/** The same lists made by hand: nothing remembered. */
function plain(lists: Hit[][]): Hit[][] {
  return lists.map((hits) => hits.map((hit) => ({ ...hit })));
}

describe('rows remembered with hit lists', () => {
  it('unpacked lists know their rows and scores; cuts, dropped ids and picks keep them and the distinct mark', () => {
    const [hits] = fromWorker([[[3, 9], [0, 7], [4, 5], [1, 2]]]);
    expect(rowsOf(hits!)).toEqual({ table, rows: Uint32Array.from([3, 0, 4, 1]), scores: Float64Array.from([9, 7, 5, 2]) });
    const cut = cutHits(hits!, 2);
    expect(cut.map((h) => h.docId)).toEqual(['d3', 'd0']);
    expect([...rowsOf(cut)!.rows]).toEqual([3, 0]);
    expect([...rowsOf(cut)!.scores!]).toEqual([9, 7]);
    expect(knownDistinct(cut)).toBe(true);
    const dropped = withoutDoc(hits!, 'd0', 3);
    expect(dropped.map((h) => h.docId)).toEqual(['d3', 'd4', 'd1']);
    expect([...rowsOf(dropped)!.rows]).toEqual([3, 4, 1]);
    expect([...rowsOf(dropped)!.scores!]).toEqual([9, 5, 2]);
    expect(knownDistinct(dropped)).toBe(true);
    expect(withoutDoc(hits!, 'd9', 10)).toBe(hits);
    const picked = pickHits(hits!, [2, 0], (hit, i) => ({ docId: hit.docId, score: i }));
    expect(picked).toEqual([{ docId: 'd4', score: 0 }, { docId: 'd3', score: 1 }]);
    expect([...rowsOf(picked)!.rows]).toEqual([4, 3]);
    // New scores: read from the hits, not remembered.
    expect(rowsOf(picked)!.scores).toBeUndefined();
  });

  it('a list with nothing remembered stays so, and an unmarked one stays unmarked', () => {
    const hits: Hit[] = [{ docId: 'x', score: 2 }, { docId: 'x', score: 1 }];
    const cut = cutHits(hits, 1);
    expect(rowsOf(cut)).toBeUndefined();
    expect(knownDistinct(cut)).toBe(false);
    expect(knownDistinct(cutHits(markDistinct([{ docId: 'y', score: 1 }, { docId: 'z', score: 0 }]), 1))).toBe(true);
  });

  it('LEDR’s fused list keeps the rows of its BM25 candidates', () => {
    const [bm25] = fromWorker([[[2, 4], [0, 3], [1, 1]]]);
    const fused = lexiconEnhancedDenseHits(bm25!, [0.1, 0.5, 0.9], { k: 3 });
    expect(fused.map((h) => h.docId)).toEqual(['d0', 'd1', 'd2']);
    expect([...rowsOf(fused)!.rows]).toEqual([0, 1, 2]);
  });

  it('packRun gives the same packed run for lists with rows as for the same lists without', () => {
    const lists = fromWorker([[[3, 9], [0, 7]], [], [[0, 1.5], [4, -0], [2, 1e-30]]]);
    const fused = lexiconEnhancedDenseHits(lists[0]!, [0.5, 0.25]);
    const withRows: Run = new Map([['q1', lists[0]!], ['q2', lists[1]!], ['q3', withoutDoc(lists[2]!, 'd4', 5)], ['q4', [{ docId: 'other', score: 1 }, { docId: 'd3', score: 0 }]], ['q5', fused], ['q6', cutHits(lists[2]!, 2)]]);
    const without: Run = new Map([...withRows].map(([qid, hits]) => [qid, plain([hits])[0]!]));
    expect([...without.values()].some((hits) => rowsOf(hits) !== undefined)).toBe(false);
    const fast = packRun(withRows);
    expect(fast).toEqual(packRun(without));
    expect(fast.docIds).toEqual(['d3', 'd0', 'd2', 'other', 'd4']);
  });
});
