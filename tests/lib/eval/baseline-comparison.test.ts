import { describe, expect, it } from 'vitest';
import { compareWithBaseline, significanceThreshold } from '../../../src/lib/eval/baseline-comparison.ts';
import { evaluateRunReport, REPORT_MEASURE_KEYS, type RunReport } from '../../../src/lib/eval/run-report.ts';
import { fisherRandomizationTest, pairedTTest } from '../../../src/lib/eval/significance.ts';
import { qrelsOf, runOf } from './fixtures.ts';

/** A report whose every measure has these per-query values (only the tests' inputs matter here). */
function reportOf(qids: string[], values: number[]): RunReport {
  const mean = values.reduce((s, x) => s + x, 0) / values.length;
  const perQuery = Object.fromEntries(REPORT_MEASURE_KEYS.map((k) => [k, [...values]])) as RunReport['perQuery'];
  const aggregate = Object.fromEntries(REPORT_MEASURE_KEYS.map((k) => [k, mean])) as RunReport['aggregate'];
  return { qids, perQuery, aggregate, rankedQueries: qids.length };
}

describe('compareWithBaseline', () => {
  // The scipy-checked pair of tests/lib/eval/significance.test.ts: ttest_rel(a, b) p = 0.00716654878936341.
  const a = [0.61, 0.42, 0.88, 0.35, 0.72, 0.5, 0.93, 0.28, 0.66, 0.47];
  const b = [0.55, 0.4, 0.8, 0.38, 0.61, 0.52, 0.85, 0.2, 0.6, 0.41];
  const qids = a.map((_, i) => `q${i}`);

  it('gives scipy’s paired t-test p-value and ranx’s randomization test on the per-query values', () => {
    const comparison = compareWithBaseline(reportOf(qids, b), reportOf(qids, a));
    expect(comparison.queries).toBe(10);
    expect(comparison.threshold).toBe(0.05);
    for (const m of comparison.measures) {
      expect(m.tTest.pValue / 0.00716654878936341).toBeCloseTo(1, 10);
      expect(m.tTest.significant).toBe(true);
      expect(m.fisher.pValue).toBe(fisherRandomizationTest(b, a, { permutations: 1000, seed: 42 }).pValue);
      expect(m.direction).toBe('better');
      expect(m.delta).toBeCloseTo(0.05, 12); // (5.82 − 5.32) / 10
    }
  });

  it('holds each test to α / m with Bonferroni: p = 0.0072 is significant for m = 5, not for m = 10', () => {
    const five = compareWithBaseline(reportOf(qids, b), reportOf(qids, a), { correction: 'bonferroni', comparisons: 5 });
    expect(five.threshold).toBeCloseTo(0.01, 15);
    expect(five.measures[0]!.tTest.significant).toBe(true);
    const ten = compareWithBaseline(reportOf(qids, b), reportOf(qids, a), { correction: 'bonferroni', comparisons: 10 });
    expect(ten.threshold).toBeCloseTo(0.005, 15);
    expect(ten.measures[0]!.tTest.significant).toBe(false);
    // Without correction the number of comparisons does not matter.
    expect(compareWithBaseline(reportOf(qids, b), reportOf(qids, a), { comparisons: 10 }).threshold).toBe(0.05);
  });

  it('reports a worse column as worse, with the same p-values', () => {
    const comparison = compareWithBaseline(reportOf(qids, a), reportOf(qids, b));
    expect(comparison.measures[0]!.direction).toBe('worse');
    expect(comparison.measures[0]!.tTest.pValue / 0.00716654878936341).toBeCloseTo(1, 10);
  });

  it('finds nothing to test between identical columns (t-test NaN as scipy, randomization p = 1)', () => {
    const comparison = compareWithBaseline(reportOf(qids, a), reportOf(qids, a));
    for (const m of comparison.measures) {
      expect(m.direction).toBe('equal');
      expect(m.tTest.pValue).toBeNaN();
      expect(m.tTest.significant).toBe(false);
      expect(m.fisher.pValue).toBe(1);
      expect(m.fisher.significant).toBe(false);
    }
  });

  it('pairs query by query, a query one run lacks counting 0 in its place (trec_eval -c order: q10 < q2)', () => {
    const qrels = qrelsOf({ q1: { d1: 1 }, q2: { d2: 1 }, q10: { d3: 1 }, q3: { d4: 1 } });
    const baselineRun = runOf({ q1: [['d1', 2], ['x', 1]], q2: [['x', 2], ['d2', 1]], q10: [['d3', 1]], q3: [['d4', 5]] });
    // Lacks q2 altogether; q10 ranks its relevant document third.
    const otherRun = runOf({ q1: [['d1', 1]], q10: [['a', 3], ['b', 2], ['d3', 1]], q3: [['x', 5], ['d4', 4]] });
    const base = evaluateRunReport(qrels, baselineRun);
    const other = evaluateRunReport(qrels, otherRun);
    expect(base.qids).toEqual(['q1', 'q10', 'q2', 'q3']);
    // MRR@10 by query in that order: baseline 1, 1, 1/2, 1; other 1, 1/3, 0 (absent), 1/2.
    expect(base.perQuery.mrr_10).toEqual([1, 1, 0.5, 1]);
    expect(other.perQuery.mrr_10).toEqual([1, 1 / 3, 0, 0.5]);
    const comparison = compareWithBaseline(base, other);
    const mrr = comparison.measures.find((m) => m.measure === 'mrr_10')!;
    expect(mrr.tTest.pValue).toBe(pairedTTest([1, 1, 0.5, 1], [1, 1 / 3, 0, 0.5]).pValue);
    expect(mrr.fisher.pValue).toBe(fisherRandomizationTest([1, 1, 0.5, 1], [1, 1 / 3, 0, 0.5]).pValue);
    expect(mrr.delta).toBeCloseTo((1 + 1 / 3 + 0 + 0.5) / 4 - 3.5 / 4, 12);
  });

  it('refuses reports of different judgments', () => {
    expect(() => compareWithBaseline(reportOf(['a', 'b'], [1, 0]), reportOf(['a', 'c'], [1, 0]))).toThrow(RangeError);
  });
});

describe('significanceThreshold', () => {
  it('rejects a level outside (0, 1) and a non-positive number of comparisons', () => {
    expect(() => significanceThreshold(0, 'none', 1)).toThrow(RangeError);
    expect(() => significanceThreshold(0.05, 'bonferroni', 0)).toThrow(RangeError);
    expect(significanceThreshold(0.05, 'bonferroni', 4)).toBeCloseTo(0.0125, 15);
  });
});
