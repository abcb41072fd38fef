import { describe, expect, it } from 'vitest';
import { bestPoint } from '../../../src/lib/tuning/best.ts';
import { gridPoints, parseGridAxis, type GridParams } from '../../../src/lib/tuning/grid.ts';
import { searchGrid, strategyFor } from '../../../src/lib/tuning/strategy.ts';

const axes = [parseGridAxis('k1=0.5:1.5:0.1'), parseGridAxis('b=0.2:1:0.1')];
/** A smooth hill with its top at k1 1.2, b 0.7 (a grid point), so both searches must find it. */
const hill = (params: GridParams) => 1 - (params.k1! - 1.2) ** 2 - 2 * (params.b! - 0.7) ** 2;

describe('searchGrid', () => {
  it('evaluates every point of a small grid, in grid order', async () => {
    const seen: GridParams[] = [];
    const result = await searchGrid(axes.slice(0, 1), async (params) => (seen.push(params), 0));
    expect(result.strategy).toBe('grid');
    expect(seen).toEqual(gridPoints(axes.slice(0, 1)));
    // All equal: the tie goes to the first point.
    expect(result.best?.index).toBe(0);
  });

  it('searches a large grid by coordinates: the optimum of a hill, with fewer points', async () => {
    expect(strategyFor(axes)).toBe('coordinate');
    const result = await searchGrid(axes, async (params) => hill(params), { start: { k1: 0.9, b: 0.4 } });
    const exhaustive = await searchGrid(axes, async (params) => hill(params), { strategy: 'grid' });
    expect(result.strategy).toBe('coordinate');
    expect(result.best?.params).toEqual(exhaustive.best?.params);
    expect(result.best?.params).toEqual({ k1: 1.2, b: 0.7 });
    expect(result.points.length).toBeLessThan(exhaustive.points.length / 2);
    // Each point once, in grid order, each value the objective's.
    expect(result.points.map((p) => p.index)).toEqual([...new Set(result.points.map((p) => p.index))].sort((a, b) => a - b));
    for (const point of result.points) expect(point.value).toBe(hill(point.params));
    expect(result.best).toEqual(bestPoint(result.points));
  });

  it('follows --max-points', () => {
    expect(strategyFor(axes, { maxPoints: 99 })).toBe('grid');
    expect(strategyFor(axes, { maxPoints: 98 })).toBe('coordinate');
  });

  it('reports progress and stops when cancelled', async () => {
    const controller = new AbortController();
    const done: number[] = [];
    const run = searchGrid(axes, async () => 0, {
      strategy: 'grid',
      signal: controller.signal,
      onProgress: (n) => {
        done.push(n);
        if (n === 3) controller.abort();
      },
    });
    await expect(run).rejects.toThrow();
    expect(done).toEqual([1, 2, 3]);
  });
});
