import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { minMaxNormalize, normalizeScores, zScoreNormalize } from '../../../src/lib/fusion/normalize.ts';

const scoresArbitrary = fc.array(fc.double({ min: -1e6, max: 1e6, noNaN: true }), { minLength: 2, maxLength: 30 });

describe('minMaxNormalize', () => {
  it('maps the worst to 0 and the best to 1 (hand-checked)', () => {
    expect(minMaxNormalize([3, 1, 2])).toEqual([1, 0, 0.5]);
  });

  it('gives 1 to every hit when all scores are equal, including a single hit (Pyserini NORMALIZE)', () => {
    expect(minMaxNormalize([5, 5, 5])).toEqual([1, 1, 1]);
    expect(minMaxNormalize([7])).toEqual([1]);
    expect(minMaxNormalize([])).toEqual([]);
  });

  it('stays in [0, 1] and keeps the order', () => {
    fc.assert(
      fc.property(scoresArbitrary, (scores) => {
        const normalized = minMaxNormalize(scores);
        normalized.forEach((value, i) => {
          expect(value).toBeGreaterThanOrEqual(0);
          expect(value).toBeLessThanOrEqual(1);
          for (let j = 0; j < scores.length; j++) {
            if (scores[i]! < scores[j]!) expect(value).toBeLessThanOrEqual(normalized[j]!);
          }
        });
      }),
    );
  });
});

describe('zScoreNormalize', () => {
  it('subtracts the mean and divides by the population std (hand-checked)', () => {
    const [low, mid, high] = zScoreNormalize([1, 2, 3]);
    expect(mid).toBe(0);
    expect(high).toBeCloseTo(Math.sqrt(3 / 2), 12);
    expect(low).toBeCloseTo(-Math.sqrt(3 / 2), 12);
  });

  it('gives 0 to every hit when all scores are equal, including a single hit', () => {
    expect(zScoreNormalize([5e-324, 0])).toEqual([0, 0]);
    // 0.1 · 3 / 3 is not exactly 0.1 in floating point: equal scores must still give exactly 0.
    expect(zScoreNormalize([0.1, 0.1, 0.1])).toEqual([0, 0, 0]);
    expect(zScoreNormalize([42])).toEqual([0]);
    expect(zScoreNormalize([])).toEqual([]);
  });

  it('has mean 0 and variance 1 when scores differ', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -1e6, max: 1e6 }), { minLength: 2, maxLength: 30 }), (integers) => {
        const scores = integers.map((i) => i / 1000);
        fc.pre(new Set(scores).size > 1);
        const normalized = zScoreNormalize(scores);
        const mean = normalized.reduce((a, b) => a + b, 0) / normalized.length;
        const variance = normalized.reduce((a, b) => a + (b - mean) ** 2, 0) / normalized.length;
        expect(mean).toBeCloseTo(0, 6);
        expect(variance).toBeCloseTo(1, 6);
      }),
    );
  });
});

describe('normalizeScores', () => {
  it('dispatches on the method and copies for none', () => {
    const scores = [2, 4];
    expect(normalizeScores(scores, 'min-max')).toEqual([0, 1]);
    expect(normalizeScores(scores, 'z-score')).toEqual([-1, 1]);
    const copy = normalizeScores(scores, 'none');
    expect(copy).toEqual(scores);
    expect(copy).not.toBe(scores);
  });
});
