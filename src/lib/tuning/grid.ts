/**
 * A tuning grid: axes `name=from:to:step` (the CLI's `--grid`, the Tune panel's fields) and their points in
 * grid order — the first axis outermost, each axis from `from` upwards — the order that breaks ties.
 */

/** One tuned parameter and the values it takes, ascending. */
export interface GridAxis {
  name: string;
  values: readonly number[];
}

/** A setting of every axis, by name. */
export type GridParams = Readonly<Record<string, number>>;

export class GridError extends Error {
  override name = 'GridError';
}

/** Decimal places of a number as written (so 0.1 steps give 0.3, not 0.30000000000000004). */
function decimals(text: string): number {
  const match = /\.(\d+)$/.exec(text.trim());
  return match === null ? 0 : match[1]!.length;
}

function parseNumber(text: string, what: string, axis: string): number {
  const value = Number(text);
  if (text.trim() === '' || !Number.isFinite(value)) throw new GridError(`${axis}: ${what} "${text}" is not a number`);
  return value;
}

/** The values from `from` to `to` (inclusive, within rounding) by `step`, rounded to the inputs' decimals. */
export function rangeValues(from: number, to: number, step: number, places: number): number[] {
  const count = Math.floor((to - from) / step + 1e-9) + 1;
  const scale = 10 ** places;
  return Array.from({ length: count }, (_, i) => Math.round((from + i * step) * scale) / scale);
}

/** `name=from:to:step`, `name=value` or `name=v1,v2,…` as an axis. */
export function parseGridAxis(text: string): GridAxis {
  const eq = text.indexOf('=');
  if (eq <= 0) throw new GridError(`${text}: expected name=from:to:step`);
  const name = text.slice(0, eq).trim();
  const spec = text.slice(eq + 1);
  if (spec.includes(',')) {
    const values = spec.split(',').map((part) => parseNumber(part, 'value', name));
    return { name, values: [...new Set(values)].sort((a, b) => a - b) };
  }
  const parts = spec.split(':');
  if (parts.length === 1) return { name, values: [parseNumber(parts[0]!, 'value', name)] };
  if (parts.length !== 3) throw new GridError(`${text}: expected name=from:to:step`);
  const [from, to, step] = parts.map((part, i) => parseNumber(part, ['from', 'to', 'step'][i]!, name)) as [number, number, number];
  if (!(step > 0)) throw new GridError(`${name}: the step must be positive`);
  if (to < from) throw new GridError(`${name}: from ${from} is above to ${to}`);
  return { name, values: rangeValues(from, to, step, Math.max(...parts.map(decimals))) };
}

/** How many points the axes span. */
export function gridSize(axes: readonly GridAxis[]): number {
  return axes.reduce((size, axis) => size * axis.values.length, 1);
}

/** Every point in grid order: the first axis outermost. */
export function gridPoints(axes: readonly GridAxis[]): GridParams[] {
  let points: Record<string, number>[] = [{}];
  for (const axis of axes) points = points.flatMap((point) => axis.values.map((value) => ({ ...point, [axis.name]: value })));
  return points;
}

/** A point's place in grid order (its index among `gridPoints(axes)`), from each axis's value index. */
export function gridIndex(axes: readonly GridAxis[], params: GridParams): number {
  return axes.reduce((index, axis) => index * axis.values.length + axis.values.indexOf(params[axis.name]!), 0);
}

/** Refuses two axes of one name. */
export function checkDistinctAxes(axes: readonly GridAxis[]): void {
  const seen = new Set<string>();
  for (const axis of axes) {
    if (seen.has(axis.name)) throw new GridError(`${axis.name} is given twice`);
    seen.add(axis.name);
  }
}
