/** The best of the evaluated grid points, and how flat the optimum is. */
import type { GridParams } from './grid.ts';

/** A grid point with its measure on the tuning split. */
export interface TunedPoint {
  params: GridParams;
  value: number;
  /** Its place in grid order (ties go to the lowest). */
  index: number;
}

/** How far below the best a point may be and still count as on the optimum's plateau. */
export const FLAT_TOLERANCE = 0.005;

/** The point of highest value; of equal values the first in grid order. NaN never wins; undefined when no point has a number. */
export function bestPoint(points: readonly TunedPoint[]): TunedPoint | undefined {
  let best: TunedPoint | undefined;
  for (const point of points) {
    if (Number.isNaN(point.value)) continue;
    if (best === undefined || point.value > best.value || (point.value === best.value && point.index < best.index)) best = point;
  }
  return best;
}

/** The points within `tolerance` of the best (the best among them), in grid order. */
export function flatRegion(points: readonly TunedPoint[], tolerance = FLAT_TOLERANCE): TunedPoint[] {
  const best = bestPoint(points);
  if (best === undefined) return [];
  return points.filter((point) => point.value >= best.value - tolerance).sort((a, b) => a.index - b.index);
}
