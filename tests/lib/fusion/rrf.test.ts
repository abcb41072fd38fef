import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { reciprocalRankFusion } from '../../../src/lib/fusion/rrf.ts';
import type { Hit } from '../../../src/lib/types.ts';
import { rankingArbitrary } from './rankings.ts';

const hits = (...ids: string[]): Hit[] => ids.map((docId, i) => ({ docId, score: 100 - i }));

describe('reciprocalRankFusion', () => {
  it('sums 1 / (60 + rank) over the rankings (hand-checked)', () => {
    const fused = reciprocalRankFusion([hits('d1', 'd2', 'd3'), hits('d3', 'd1', 'd4')]);
    expect(fused.map((h) => h.docId)).toEqual(['d1', 'd3', 'd2', 'd4']);
    expect(fused[0]!.score).toBe(1 / 61 + 1 / 62);
    expect(fused[1]!.score).toBe(1 / 63 + 1 / 61);
    expect(fused[2]!.score).toBe(1 / 62);
    expect(fused[3]!.score).toBe(1 / 63);
    expect(fused[1]!.parts).toEqual([
      { rank: 3, contribution: 1 / 63 },
      { rank: 1, contribution: 1 / 61 },
    ]);
    expect(fused[3]!.parts[0]).toEqual({ rank: null, contribution: 0 });
  });

  it('breaks ties by document id ascending, as Pyserini sorts by (−score, docid)', () => {
    const fused = reciprocalRankFusion([hits('b', 'a'), hits('a', 'b')]);
    expect(fused.map((h) => h.docId)).toEqual(['a', 'b']);
    expect(fused[0]!.score).toBe(fused[1]!.score);
  });

  it('uses the given k, depth and limit', () => {
    const fused = reciprocalRankFusion([hits('x', 'y', 'z'), hits('z', 'y', 'x')], { k: 1, depth: 2, limit: 2 });
    // depth 2: x only in the first list (rank 1), z only in the second (rank 1), y at rank 2 in both;
    // x and z tie at 1/2 and x wins on its id; limit 2 drops z.
    expect(fused.map((h) => [h.docId, h.score])).toEqual([
      ['y', 1 / 3 + 1 / 3],
      ['x', 1 / 2],
    ]);
  });

  it('rejects a ranking that holds a document twice', () => {
    expect(() => reciprocalRankFusion([hits('a', 'a')])).toThrow(RangeError);
  });

  it('does not depend on score scale (only ranks count)', () => {
    fc.assert(
      fc.property(
        fc.array(rankingArbitrary(), { minLength: 1, maxLength: 4 }),
        fc.double({ min: 1e-3, max: 1e3, noNaN: true }),
        (rankings, factor) => {
          const scaled = rankings.map((ranking) => ranking.map((hit) => ({ ...hit, score: hit.score * factor })));
          expect(reciprocalRankFusion(scaled)).toEqual(reciprocalRankFusion(rankings));
        },
      ),
    );
  });

  it('scores every document of the inputs with the sum of its parts, best first', () => {
    fc.assert(
      fc.property(fc.array(rankingArbitrary(), { minLength: 1, maxLength: 4 }), (rankings) => {
        const fused = reciprocalRankFusion(rankings);
        expect(new Set(fused.map((h) => h.docId))).toEqual(new Set(rankings.flat().map((h) => h.docId)));
        for (const hit of fused) {
          expect(hit.score).toBe(hit.parts.reduce((sum, part) => sum + part.contribution, 0));
        }
        for (let i = 1; i < fused.length; i++) expect(fused[i - 1]!.score).toBeGreaterThanOrEqual(fused[i]!.score);
      }),
    );
  });
});
