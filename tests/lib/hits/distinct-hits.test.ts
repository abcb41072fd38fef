/**
 * Lists the engine made distinct skip rankForEvaluation's duplicate check (distinct-hits.ts); nothing else
 * does. The check must still refuse a repeated document wherever one can arrive: a list unpacked from rows
 * that repeat, and any list nobody marked.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { knownDistinct } from '../../../src/lib/hits/distinct-hits.ts';
import { DuplicateDocumentError, rankForEvaluation } from '../../../src/lib/hits/trec-order.ts';
import { lexiconEnhancedDenseHits } from '../../../src/lib/fusion/ledr.ts';
import { packHits, unpackHits } from '../../../src/lib/hits/packed-hits.ts';

const TABLE = Array.from({ length: 20 }, (_, i) => `d${i}`);

/** Descending scores, so the lists are in trec_eval's order and only duplicates matter. */
function unpacked(rowLists: number[][]) {
  return unpackHits(packHits(rowLists.map((rows) => ({ rows: Int32Array.from(rows), scores: Float32Array.from(rows, (_, i) => rows.length - i) }))), TABLE);
}

describe('lists known to be distinct', () => {
  it('unpackHits marks a list exactly when its rows are distinct (the same row in two queries is no duplicate)', () => {
    fc.assert(
      fc.property(fc.array(fc.array(fc.integer({ min: 0, max: 19 }), { maxLength: 12 }), { maxLength: 5 }), (rowLists) => {
        const lists = unpacked(rowLists);
        lists.forEach((hits, q) => expect(knownDistinct(hits)).toBe(new Set(rowLists[q]).size === rowLists[q]!.length));
      }),
    );
  });

  it('a marked list is evaluated as the check would have; a repeated row still throws DuplicateDocumentError', () => {
    const [distinct, repeated] = unpacked([[3, 1, 7], [4, 2, 4]]);
    expect(rankForEvaluation('q1', distinct!)).toEqual(['d3', 'd1', 'd7']);
    expect(rankForEvaluation('q1', distinct!, 2)).toEqual(['d3', 'd1']);
    expect(() => rankForEvaluation('q2', repeated!)).toThrow(DuplicateDocumentError);
    expect(() => rankForEvaluation('q3', [{ docId: 'a', score: 2 }, { docId: 'a', score: 1 }])).toThrow(DuplicateDocumentError);
  });

  it("LEDR's hits are marked; over an unmarked BM25 list with a repeated document it still refuses", () => {
    const [bm25] = unpacked([[5, 6, 9]]);
    expect(knownDistinct(lexiconEnhancedDenseHits(bm25!, [0.5, 0.25, 1]))).toBe(true);
    const twice = [{ docId: 'x', score: 3 }, { docId: 'x', score: 2 }];
    expect(() => lexiconEnhancedDenseHits(twice, [1, 1])).toThrow(/holds document "x" twice/);
  });
});
