import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TopK } from '../../../src/lib/hits/top-k.ts';

const pair = (id: number, score: number) => ({ id, score });

/** What TopK must equal: a stable full sort by score, lower id first on ties, cut to k. */
function fullSort(scores: readonly number[], k: number): Array<{ id: number; score: number }> {
  return scores
    .map((score, id) => ({ id, score }))
    .sort((x, y) => y.score - x.score || x.id - y.id)
    .slice(0, k);
}

describe('TopK', () => {
  it('keeps the k best with lower ids winning ties, like a full sort (many ties)', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 5 }), { maxLength: 60 }), fc.integer({ min: 0, max: 70 }), (scores, k) => {
        const top = new TopK(k);
        scores.forEach((score, id) => top.offer(id, score));
        expect(top.sorted(pair)).toEqual(fullSort(scores, k));
      }),
    );
  });

  it('returns doubles exactly as offered, over a wide range (few ties)', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: -1e6, max: 1e6, noNaN: true }), { maxLength: 200 }), fc.integer({ min: 0, max: 50 }), (scores, k) => {
        const top = new TopK(k);
        scores.forEach((score, id) => top.offer(id, score));
        expect(top.sorted(pair)).toEqual(fullSort(scores, k));
      }),
    );
  });

  it('refuses a k that is not a non-negative integer', () => {
    expect(() => new TopK(-1)).toThrow(RangeError);
    expect(() => new TopK(1.5)).toThrow(RangeError);
  });
});
