/**
 * The dashboard's own choices, mirrored in the address so a link shows the same comparison:
 *
 *   ?view=evaluate&…&base=1&cmp=1,3&dm=ndcg_cut_10
 *
 * `base` is the baseline column of the significance tests, `cmp` the two columns of the difference plot
 * (A, B), `dm` its measure, `jo=1` the judged-only mode (metrics of condensed lists; absent: all documents) — columns by their 1-based position in the Explore view (the columns themselves
 * are already in the address). The parameters are written while the Evaluate view is shown.
 */
import type { Correction } from '../../lib/eval/baseline-comparison.ts';
import { isReportMeasure, type ReportMeasure } from '../../lib/eval/run-report.ts';
import { app } from '../app-state.svelte.ts';
import { registerUrlSlice } from '../url-slices.svelte.ts';

export type MarkerTest = 't' | 'fisher';

class DashboardState {
  /** 0-based column index of the baseline. */
  baseline = $state(0);
  /** 0-based column indexes of the difference plot's A and B (difference = B − A). */
  pair = $state.raw<readonly [number, number]>([0, 1]);
  diffMeasure = $state<ReportMeasure>('ndcg_cut_10');
  /** The test whose result marks the metrics table (both are listed in the significance table). */
  markerTest = $state<MarkerTest>('t');
  correction = $state<Correction>('none');
  /** Show the per-query differences as a table instead of the chart. */
  diffAsTable = $state(false);
  /** Metrics of condensed lists (unjudged documents removed before scoring) instead of the runs as they are. */
  judgedOnly = $state(false);
  /** The two columns of the per-query overlap plot (0-based). */
  overlapPair = $state.raw<readonly [number, number]>([0, 1]);
}

export const dashboard = new DashboardState();

/** A 1-based position from the address, as a 0-based index; undefined when it is not one. */
function position(text: string | undefined): number | undefined {
  if (text === undefined || !/^[1-9]\d{0,2}$/.test(text)) return undefined;
  return Number(text) - 1;
}

/** Index clamped to the columns there are (0 when there are none). */
export function clampColumn(index: number, count: number): number {
  return Math.max(0, Math.min(index, count - 1));
}

registerUrlSlice({
  keys: ['base', 'cmp', 'dm', 'jo', 'ovl'],
  write() {
    if (app.view !== 'evaluate') return [];
    const [a, b] = dashboard.pair;
    return [
      ['base', String(dashboard.baseline + 1)],
      ['cmp', `${a + 1},${b + 1}`],
      ['dm', dashboard.diffMeasure],
      ...(dashboard.judgedOnly ? [['jo', '1'] as [string, string]] : []),
      ['ovl', `${dashboard.overlapPair[0] + 1},${dashboard.overlapPair[1] + 1}`],
    ];
  },
  read(params) {
    const base = position(params.get('base') ?? undefined);
    if (base !== undefined) dashboard.baseline = base;
    const [a, b] = (params.get('cmp') ?? '').split(',');
    const first = position(a);
    const second = position(b);
    if (first !== undefined && second !== undefined) dashboard.pair = [first, second];
    const measure = params.get('dm');
    if (measure !== null && isReportMeasure(measure)) dashboard.diffMeasure = measure;
    // Only an Evaluate address says which mode it shows (other views do not write `jo`).
    if (params.get('view') === 'evaluate') dashboard.judgedOnly = params.get('jo') === '1';
    const [c, d] = (params.get('ovl') ?? '').split(',');
    const left = position(c);
    const right = position(d);
    if (left !== undefined && right !== undefined) dashboard.overlapPair = [left, right];
  },
});
