import { describe, expect, it } from 'vitest';
import { bestPoint, flatRegion, FLAT_TOLERANCE, type TunedPoint } from '../../../src/lib/tuning/best.ts';

const point = (index: number, value: number): TunedPoint => ({ params: { x: index }, value, index });

describe('bestPoint', () => {
  it('is the maximum', () => {
    expect(bestPoint([point(0, 0.2), point(1, 0.7), point(2, 0.5)])?.index).toBe(1);
  });

  it('breaks ties by grid order, whatever order the points come in', () => {
    expect(bestPoint([point(3, 0.7), point(1, 0.7), point(2, 0.5), point(5, 0.7)])?.index).toBe(1);
  });

  it('never picks NaN, and has nothing to pick among NaNs', () => {
    expect(bestPoint([point(0, Number.NaN), point(1, 0.1)])?.index).toBe(1);
    expect(bestPoint([point(0, Number.NaN)])).toBeUndefined();
    expect(bestPoint([])).toBeUndefined();
  });
});

describe('flatRegion', () => {
  it('holds the points within the tolerance of the best, in grid order', () => {
    const points = [point(2, 0.7), point(0, 0.7 - FLAT_TOLERANCE), point(1, 0.69), point(3, 0.7 - FLAT_TOLERANCE - 1e-9)];
    expect(flatRegion(points).map((p) => p.index)).toEqual([0, 2]);
  });
});
