import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { differenceSeries } from '../../../src/lib/eval/query-differences.ts';
import { evaluateRunReport, REPORT_MEASURE_KEYS, type RunReport } from '../../../src/lib/eval/run-report.ts';
import { qrelsOf, runOf } from './fixtures.ts';

function reportOf(qids: string[], values: number[]): RunReport {
  const mean = values.length === 0 ? 0 : values.reduce((s, x) => s + x, 0) / values.length;
  return {
    qids,
    perQuery: Object.fromEntries(REPORT_MEASURE_KEYS.map((k) => [k, [...values]])) as RunReport['perQuery'],
    aggregate: Object.fromEntries(REPORT_MEASURE_KEYS.map((k) => [k, mean])) as RunReport['aggregate'],
    rankedQueries: qids.length,
  };
}

describe('differenceSeries', () => {
  it('sorts B − A from the largest gain to the largest loss and counts wins, ties and losses', () => {
    const qids = ['q1', 'q2', 'q3', 'q4', 'q5'];
    const a = reportOf(qids, [0.5, 0.2, 0.9, 0.0, 0.3]);
    const b = reportOf(qids, [0.7, 0.2, 0.4, 0.0, 0.6]);
    const series = differenceSeries(a, b, 'ndcg_cut_10');
    expect(series.points.map((p) => p.qid)).toEqual(['q5', 'q1', 'q2', 'q4', 'q3']);
    expect(series.points.map((p) => Number(p.difference.toFixed(10)))).toEqual([0.3, 0.2, 0, 0, -0.5]);
    expect([series.wins, series.ties, series.losses]).toEqual([2, 2, 1]);
    expect(series.points[0]).toMatchObject({ qid: 'q5', a: 0.3, b: 0.6 });
    expect(series.meanDifference).toBeCloseTo(0, 12);
  });

  it('counts as a tie a difference that exists only in the last bits (1/3 + 1/6 against 1/2)', () => {
    const series = differenceSeries(reportOf(['q'], [1 / 3 + 1 / 6]), reportOf(['q'], [0.5]), 'P_10');
    expect(series.ties).toBe(1);
    expect(series.points[0]!.difference).toBe(0);
  });

  it('includes a query one run does not rank, as a loss of its whole value (trec_eval -c)', () => {
    const qrels = qrelsOf({ q1: { d1: 1 }, q2: { d2: 1 } });
    const a = evaluateRunReport(qrels, runOf({ q1: [['d1', 1]], q2: [['d2', 1]] }));
    const b = evaluateRunReport(qrels, runOf({ q1: [['d1', 1]] }));
    const series = differenceSeries(a, b, 'ndcg_cut_10');
    expect(series.points).toEqual([
      { qid: 'q1', a: 1, b: 1, difference: 0 },
      { qid: 'q2', a: 1, b: 0, difference: -1 },
    ]);
    expect([series.wins, series.ties, series.losses]).toEqual([0, 1, 1]);
  });

  it('holds every query once; wins + ties + losses = queries; the mean is mean B − mean A; swapping A and B mirrors it', () => {
    const values = fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 1, maxLength: 40 });
    fc.assert(
      fc.property(values, values, (x, y) => {
        const n = Math.min(x.length, y.length);
        const qids = Array.from({ length: n }, (_, i) => `q${i}`);
        const a = reportOf(qids, x.slice(0, n));
        const b = reportOf(qids, y.slice(0, n));
        const series = differenceSeries(a, b, 'recall_100');
        expect(series.points.map((p) => p.qid).sort()).toEqual([...qids].sort());
        expect(series.wins + series.ties + series.losses).toBe(n);
        for (let i = 1; i < n; i++) expect(series.points[i - 1]!.difference).toBeGreaterThanOrEqual(series.points[i]!.difference);
        expect(Math.abs(series.meanDifference - (b.aggregate.recall_100 - a.aggregate.recall_100))).toBeLessThan(1e-8);
        const mirrored = differenceSeries(b, a, 'recall_100');
        expect([mirrored.wins, mirrored.ties, mirrored.losses]).toEqual([series.losses, series.ties, series.wins]);
      }),
    );
  });
});
