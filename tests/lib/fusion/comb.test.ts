import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { combMnz, combSum } from '../../../src/lib/fusion/comb.ts';
import type { Hit } from '../../../src/lib/types.ts';
import { rankingArbitrary } from './rankings.ts';

const ranking = (...pairs: [string, number][]): Hit[] => pairs.map(([docId, score]) => ({ docId, score }));

// min-max: a → d1 1, d2 0.2, d3 0; b → d4 1, d2 0.5, d5 0.
const a = ranking(['d1', 10], ['d2', 2], ['d3', 0]);
const b = ranking(['d4', 4], ['d2', 2], ['d5', 0]);

describe('combSum', () => {
  it('adds normalized scores; absent counts 0 (hand-checked)', () => {
    const fused = combSum([a, b]);
    expect(fused.map((h) => [h.docId, h.score])).toEqual([
      ['d1', 1],
      ['d4', 1],
      ['d2', 0.7],
      ['d3', 0],
      ['d5', 0],
    ]);
    expect(fused[2]!.parts).toEqual({
      lists: [
        { raw: 2, normalized: 0.2 },
        { raw: 2, normalized: 0.5 },
      ],
      sum: 0.7,
      matches: 2,
    });
    expect(fused[0]!.parts.lists[1]).toEqual({ raw: null, normalized: null });
  });

  it('can add raw scores', () => {
    expect(combSum([a, b], { normalization: 'none' }).map((h) => [h.docId, h.score])).toEqual([
      ['d1', 10],
      ['d2', 4],
      ['d4', 4],
      ['d3', 0],
      ['d5', 0],
    ]);
  });
});

describe('combMnz', () => {
  it('multiplies the sum by the number of rankings holding the document (hand-checked)', () => {
    expect(combMnz([a, b]).map((h) => [h.docId, h.score])).toEqual([
      ['d2', 1.4],
      ['d1', 1],
      ['d4', 1],
      ['d3', 0],
      ['d5', 0],
    ]);
  });

  it('equals CombSUM on a single ranking, and never ranks a document lower for appearing in more rankings', () => {
    fc.assert(
      fc.property(rankingArbitrary(), (single) => {
        expect(combMnz([single]).map((h) => [h.docId, h.score])).toEqual(combSum([single]).map((h) => [h.docId, h.score]));
      }),
    );
    fc.assert(
      fc.property(fc.array(rankingArbitrary(), { minLength: 1, maxLength: 4 }), (rankings) => {
        for (const hit of combMnz(rankings)) {
          expect(hit.score).toBe(hit.parts.sum * hit.parts.matches);
          expect(hit.parts.matches).toBe(rankings.filter((r) => r.some((h) => h.docId === hit.docId)).length);
        }
      }),
    );
  });

  it('honours depth and limit', () => {
    const fused = combMnz([a, b], { depth: 1, limit: 1 });
    // depth 1: a = [d1] and b = [d4], each normalized to 1 (single hit); tie broken by id.
    expect(fused.map((h) => [h.docId, h.score])).toEqual([['d1', 1]]);
  });
});
