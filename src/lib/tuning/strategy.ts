/**
 * How a grid is searched. Every point when it is small enough; otherwise coordinate search: from the
 * starting point, each axis in turn is swept over all its values with the others held, the best point so
 * far becomes the new centre, and rounds repeat until one changes nothing. On k1 × b it evaluates about a
 * third of the points; it can stop on a local optimum, which is why the result says which search ran.
 */
import { bestPoint, type TunedPoint } from './best.ts';
import { gridIndex, gridPoints, gridSize, type GridAxis, type GridParams } from './grid.ts';

export type SearchStrategy = 'grid' | 'coordinate';

export interface StrategyOptions {
  /** The most points evaluated exhaustively (default 40); a larger grid is searched by coordinates. */
  maxPoints?: number;
  /** Where a coordinate search starts, by axis (default: each axis's middle value); the nearest grid value is taken. */
  start?: Readonly<Record<string, number | undefined>>;
  /** Force a strategy whatever the grid's size. */
  strategy?: SearchStrategy;
  /** After each evaluated point: how many so far, and at most how many there will be. */
  onProgress?: (done: number, total: number, point: TunedPoint) => void;
  signal?: AbortSignal;
}

export interface SearchResult {
  strategy: SearchStrategy;
  /** Every evaluated point, in grid order. */
  points: TunedPoint[];
  best: TunedPoint | undefined;
  /** How many points the grid has. */
  gridSize: number;
}

/** The measure of one grid point. */
export type Objective = (params: GridParams) => Promise<number>;

export const DEFAULT_MAX_POINTS = 40;

/** Which strategy a grid gets. */
export function strategyFor(axes: readonly GridAxis[], options: StrategyOptions = {}): SearchStrategy {
  if (options.strategy !== undefined) return options.strategy;
  return gridSize(axes) <= (options.maxPoints ?? DEFAULT_MAX_POINTS) || axes.length < 2 ? 'grid' : 'coordinate';
}

/** Evaluates points once each, remembering them by grid index. */
class PointBook {
  readonly byIndex = new Map<number, TunedPoint>();
  constructor(
    private readonly axes: readonly GridAxis[],
    private readonly objective: Objective,
    private readonly total: number,
    private readonly options: StrategyOptions,
  ) {}

  async value(params: GridParams): Promise<TunedPoint> {
    const index = gridIndex(this.axes, params);
    const known = this.byIndex.get(index);
    if (known !== undefined) return known;
    this.options.signal?.throwIfAborted();
    const point: TunedPoint = { params, value: await this.objective(params), index };
    this.byIndex.set(index, point);
    this.options.onProgress?.(this.byIndex.size, this.total, point);
    return point;
  }

  points(): TunedPoint[] {
    return [...this.byIndex.values()].sort((a, b) => a.index - b.index);
  }
}

/** The grid value of `axis` nearest to `wanted` (its middle value when none is wanted). */
function nearest(axis: GridAxis, wanted: number | undefined): number {
  if (wanted === undefined) return axis.values[Math.floor((axis.values.length - 1) / 2)]!;
  return axis.values.reduce((best, value) => (Math.abs(value - wanted) < Math.abs(best - wanted) ? value : best));
}

async function coordinateSearch(axes: readonly GridAxis[], book: PointBook, options: StrategyOptions): Promise<void> {
  let centre: GridParams = Object.fromEntries(axes.map((axis) => [axis.name, nearest(axis, options.start?.[axis.name])]));
  for (;;) {
    const before = gridIndex(axes, centre);
    for (const axis of axes) {
      for (const value of axis.values) await book.value({ ...centre, [axis.name]: value });
      centre = bestPoint(book.points())?.params ?? centre;
    }
    if (gridIndex(axes, centre) === before) return;
  }
}

/** Searches the grid for the point of highest measure (ties: the first in grid order). */
export async function searchGrid(axes: readonly GridAxis[], objective: Objective, options: StrategyOptions = {}): Promise<SearchResult> {
  const size = gridSize(axes);
  const strategy = strategyFor(axes, options);
  // A coordinate search's points are at most the whole grid; its progress total is that bound.
  const book = new PointBook(axes, objective, size, options);
  if (strategy === 'grid') {
    for (const params of gridPoints(axes)) await book.value(params);
  } else {
    await coordinateSearch(axes, book, options);
  }
  const points = book.points();
  return { strategy, points, best: bestPoint(points), gridSize: size };
}
