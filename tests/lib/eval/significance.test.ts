import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fisherRandomizationTest, pairedTTest } from '../../../src/lib/eval/significance.ts';

describe('pairedTTest (ranx paired_student_t_test = scipy ttest_rel)', () => {
  it('gives scipy’s statistic and p-value', () => {
    const a = [0.61, 0.42, 0.88, 0.35, 0.72, 0.5, 0.93, 0.28, 0.66, 0.47];
    const b = [0.55, 0.4, 0.8, 0.38, 0.61, 0.52, 0.85, 0.2, 0.6, 0.41];
    // scipy 1.17 ttest_rel(a, b): statistic 3.4594920301083176, pvalue 0.00716654878936341
    const result = pairedTTest(a, b);
    expect(result.statistic).toBeCloseTo(3.4594920301083176, 12);
    expect(result.pValue / 0.00716654878936341).toBeCloseTo(1, 10);
    expect(result.degreesOfFreedom).toBe(9);
    expect(result.significant).toBe(true);
  });

  it('matches the 2-df closed form on differences 1, 2, 3 (t = 2√3, p = 1 − t/√(2 + t²))', () => {
    const result = pairedTTest([1, 2, 3], [0, 0, 0]);
    const t = 2 * Math.sqrt(3);
    expect(result.statistic).toBeCloseTo(t, 13);
    expect(result.pValue).toBeCloseTo(1 - t / Math.sqrt(2 + t * t), 13);
    expect(result.significant).toBe(false);
  });

  it('returns NaN like scipy for identical systems, and p = 0 for a constant non-zero difference', () => {
    expect(pairedTTest([1, 2], [1, 2]).pValue).toBeNaN();
    expect(pairedTTest([1, 2], [1, 2]).significant).toBe(false);
    expect(pairedTTest([2, 3, 4], [1, 2, 3]).pValue).toBe(0);
  });
});

/** The exact randomization p-value: all 2^n swaps enumerated (the test's independent oracle). */
function exactRandomizationP(a: readonly number[], b: readonly number[]): number {
  const n = a.length;
  const observed = Math.abs(a.reduce((s, x, i) => s + x - b[i]!, 0));
  let count = 0;
  for (let mask = 0; mask < 2 ** n; mask++) {
    let diff = 0;
    for (let i = 0; i < n; i++) diff += (mask & (1 << i) ? -1 : 1) * (a[i]! - b[i]!);
    if (Math.abs(diff) >= observed - 1e-9) count++;
  }
  return count / 2 ** n;
}

describe('fisherRandomizationTest (ranx fisher_randomization_test)', () => {
  const a = [0.9, 0.7, 0.8, 0.65, 0.4, 0.95, 0.3, 0.75];
  const b = [0.6, 0.5, 0.85, 0.45, 0.35, 0.7, 0.1, 0.7];

  it('approaches the exact enumeration of all 256 swaps', () => {
    const exact = exactRandomizationP(a, b);
    const { pValue } = fisherRandomizationTest(a, b, { permutations: 200_000 });
    // Binomial standard error at 200k draws is ≤ 0.0012; 0.005 is > 4 standard errors.
    expect(Math.abs(pValue - exact)).toBeLessThan(0.005);
    expect(exact).toBeGreaterThan(0.01);
    expect(exact).toBeLessThan(0.1);
  });

  it('is reproducible for a seed, with ranx defaults (1000 permutations, seed 42, max_p 0.01)', () => {
    expect(fisherRandomizationTest(a, b)).toEqual(fisherRandomizationTest(a, b, { permutations: 1000, seed: 42, maxP: 0.01 }));
    const p = fisherRandomizationTest(a, b).pValue;
    expect(p * 1000).toBe(Math.round(p * 1000));
  });

  it('gives p = 1 for identical systems and stays in [0, 1]', () => {
    expect(fisherRandomizationTest(a, a).pValue).toBe(1);
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true })), { minLength: 1, maxLength: 30 }), (pairs) => {
        const { pValue } = fisherRandomizationTest(pairs.map((p) => p[0]), pairs.map((p) => p[1]), { permutations: 50 });
        expect(pValue).toBeGreaterThanOrEqual(0);
        expect(pValue).toBeLessThanOrEqual(1);
      }),
    );
  });

  it('refuses unpaired inputs', () => {
    expect(() => fisherRandomizationTest([1], [1, 2])).toThrow(RangeError);
    expect(() => pairedTTest([], [])).toThrow(RangeError);
  });
});
