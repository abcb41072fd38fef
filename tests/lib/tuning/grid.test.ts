import { describe, expect, it } from 'vitest';
import { checkDistinctAxes, GridError, gridIndex, gridPoints, gridSize, parseGridAxis } from '../../../src/lib/tuning/grid.ts';

describe('parseGridAxis', () => {
  it('spans from:to:step inclusively, with the decimals written', () => {
    expect(parseGridAxis('alpha=0:1:0.1')).toEqual({ name: 'alpha', values: [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1] });
    expect(parseGridAxis('k1=0.5:1.5:0.1').values).toHaveLength(11);
    expect(parseGridAxis('b=0.2:1:0.1').values).toEqual([0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1]);
    expect(parseGridAxis('k=10:100:10').values).toEqual([10, 20, 30, 40, 50, 60, 70, 80, 90, 100]);
  });

  it('stops below `to` when the step does not reach it', () => {
    expect(parseGridAxis('k=1:10:4').values).toEqual([1, 5, 9]);
  });

  it('takes one value or a list (sorted, once each)', () => {
    expect(parseGridAxis('k=60')).toEqual({ name: 'k', values: [60] });
    expect(parseGridAxis('k=60,10,60,20').values).toEqual([10, 20, 60]);
  });

  it('refuses what is not a range', () => {
    for (const text of ['alpha', '=0:1:0.1', 'alpha=0:1', 'alpha=a:1:0.1', 'alpha=0:1:0', 'alpha=1:0:0.1', 'alpha=0:1:-0.1']) {
      expect(() => parseGridAxis(text), text).toThrow(GridError);
    }
  });
});

describe('grid order', () => {
  const axes = [parseGridAxis('k1=0.8:1:0.1'), parseGridAxis('b=0.3,0.4')];

  it('puts the first axis outermost', () => {
    expect(gridPoints(axes)).toEqual([
      { k1: 0.8, b: 0.3 },
      { k1: 0.8, b: 0.4 },
      { k1: 0.9, b: 0.3 },
      { k1: 0.9, b: 0.4 },
      { k1: 1, b: 0.3 },
      { k1: 1, b: 0.4 },
    ]);
    expect(gridSize(axes)).toBe(6);
  });

  it('gives each point its index in that order', () => {
    gridPoints(axes).forEach((params, i) => expect(gridIndex(axes, params)).toBe(i));
  });

  it('refuses an axis given twice', () => {
    expect(() => checkDistinctAxes([parseGridAxis('b=0.1'), parseGridAxis('b=0.2')])).toThrow(/b is given twice/);
  });
});
