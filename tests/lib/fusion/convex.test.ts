import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { convexCombination } from '../../../src/lib/fusion/convex.ts';
import type { Hit } from '../../../src/lib/types.ts';
import { rankingArbitrary } from './rankings.ts';

const ranking = (...pairs: [string, number][]): Hit[] => pairs.map(([docId, score]) => ({ docId, score }));

describe('convexCombination', () => {
  it('mixes min-max scores; a missing document gets the floor 0 (hand-checked)', () => {
    const a = ranking(['a1', 10], ['a2', 5], ['a3', 0]);
    const b = ranking(['a2', 1], ['b1', 0.5], ['b2', 0]);
    const fused = convexCombination(a, b);
    expect(fused.map((h) => [h.docId, h.score])).toEqual([
      ['a2', 0.75],
      ['a1', 0.5],
      ['b1', 0.25],
      ['a3', 0],
      ['b2', 0],
    ]);
    expect(fused[1]!.parts).toEqual([
      { raw: 10, normalized: 1, imputed: false, weight: 0.5, contribution: 0.5 },
      { raw: null, normalized: 0, imputed: true, weight: 0.5, contribution: 0 },
    ]);
  });

  it('with z-scores, a missing document gets the ranking’s lowest z-score, not the mean (hand-checked)', () => {
    const a = ranking(['x', 3], ['y', 1]); // z: x 1, y −1
    const b = ranking(['z', 2], ['x', 0]); // z: z 1, x −1
    const fused = convexCombination(a, b, { normalization: 'z-score', alpha: 0.5 });
    expect(fused.map((h) => [h.docId, h.score])).toEqual([
      ['x', 0],
      ['z', 0],
      ['y', -1],
    ]);
    expect(fused[2]!.parts[1]).toMatchObject({ raw: null, normalized: -1, imputed: true });
  });

  it('weights the first ranking by alpha', () => {
    const a = ranking(['p', 1], ['q', 0]);
    const b = ranking(['q', 1], ['p', 0]);
    expect(convexCombination(a, b, { alpha: 0.8 }).map((h) => h.docId)).toEqual(['p', 'q']);
    expect(convexCombination(a, b, { alpha: 0.2 }).map((h) => h.docId)).toEqual(['q', 'p']);
    expect(() => convexCombination(a, b, { alpha: 1.5 })).toThrow(RangeError);
  });

  it('treats an empty ranking as contributing 0', () => {
    const fused = convexCombination(ranking(['only', 3]), [], { alpha: 0.3 });
    expect(fused).toEqual([
      {
        docId: 'only',
        score: 0.3,
        parts: [
          { raw: 3, normalized: 1, imputed: false, weight: 0.3, contribution: 0.3 },
          { raw: null, normalized: 0, imputed: true, weight: 0.7, contribution: 0 },
        ],
      },
    ]);
  });

  it('with alpha = 1 keeps the first ranking’s order; with alpha = 0 the second’s', () => {
    const distinct = rankingArbitrary({ distinctScores: true });
    fc.assert(
      fc.property(distinct, distinct, fc.constantFrom('min-max', 'z-score') , (a, b, normalization) => {
        const only = (fused: Hit[], ids: Hit[]) => {
          const wanted = new Set(ids.map((h) => h.docId));
          return fused.filter((h) => wanted.has(h.docId)).map((h) => h.docId);
        };
        expect(only(convexCombination(a, b, { alpha: 1, normalization }), a)).toEqual(a.map((h) => h.docId));
        expect(only(convexCombination(a, b, { alpha: 0, normalization }), b)).toEqual(b.map((h) => h.docId));
      }),
    );
  });

  it('scores are the sum of the parts and lie in [0, 1] with min-max', () => {
    fc.assert(
      fc.property(rankingArbitrary(), rankingArbitrary(), fc.double({ min: 0, max: 1, noNaN: true }), (a, b, alpha) => {
        const fused = convexCombination(a, b, { alpha });
        expect(new Set(fused.map((h) => h.docId))).toEqual(new Set([...a, ...b].map((h) => h.docId)));
        for (const hit of fused) {
          expect(hit.score).toBe(hit.parts[0].contribution + hit.parts[1].contribution);
          expect(hit.score).toBeGreaterThanOrEqual(0);
          expect(hit.score).toBeLessThanOrEqual(1 + 1e-12);
        }
      }),
    );
  });
});
