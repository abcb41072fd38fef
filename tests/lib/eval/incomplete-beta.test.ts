import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { logGamma, regularizedIncompleteBeta, studentTTwoSidedP } from '../../../src/lib/eval/incomplete-beta.ts';

describe('logGamma', () => {
  it('matches factorials and Γ(1/2) = √π', () => {
    expect(logGamma(1)).toBeCloseTo(0, 13);
    expect(logGamma(5)).toBeCloseTo(Math.log(24), 13);
    expect(logGamma(20)).toBeCloseTo(Math.log(121645100408832000), 11);
    expect(logGamma(0.5)).toBeCloseTo(Math.log(Math.sqrt(Math.PI)), 13);
  });
});

describe('regularizedIncompleteBeta', () => {
  const unit = fc.double({ min: 0.001, max: 0.999, noNaN: true });
  const shape = fc.double({ min: 0.1, max: 50, noNaN: true });

  it('has the closed forms I_x(a,1) = x^a and I_x(1,b) = 1 − (1−x)^b', () => {
    fc.assert(
      fc.property(unit, shape, (x, a) => {
        expect(regularizedIncompleteBeta(x, a, 1)).toBeCloseTo(x ** a, 12);
        expect(regularizedIncompleteBeta(x, 1, a)).toBeCloseTo(1 - (1 - x) ** a, 12);
      }),
    );
  });

  it('satisfies I_x(a,b) = 1 − I_{1−x}(b,a) and I_{1/2}(a,a) = 1/2', () => {
    fc.assert(
      fc.property(unit, shape, shape, (x, a, b) => {
        expect(regularizedIncompleteBeta(x, a, b)).toBeCloseTo(1 - regularizedIncompleteBeta(1 - x, b, a), 11);
        expect(regularizedIncompleteBeta(0.5, a, a)).toBeCloseTo(0.5, 12);
      }),
    );
  });
});

describe('studentTTwoSidedP', () => {
  it('matches the closed forms for 1 (Cauchy) and 2 degrees of freedom', () => {
    fc.assert(
      fc.property(fc.double({ min: -1e3, max: 1e3, noNaN: true }), (t) => {
        expect(studentTTwoSidedP(t, 1)).toBeCloseTo(1 - (2 / Math.PI) * Math.atan(Math.abs(t)), 12);
        expect(studentTTwoSidedP(t, 2)).toBeCloseTo(1 - Math.abs(t) / Math.sqrt(2 + t * t), 12);
      }),
    );
  });

  it.each([
    // Two-sided critical values of Student's t table (p = 0.05 and 0.01).
    [12.706, 1, 0.05],
    [2.228, 10, 0.05],
    [2.042, 30, 0.05],
    [4.032, 5, 0.01],
    [2.845, 20, 0.01],
  ])('t = %s with %s df is at p ≈ %s', (t, df, p) => {
    expect(studentTTwoSidedP(t, df)).toBeCloseTo(p, 3);
  });

  it.each([
    // scipy 1.17: 2 * scipy.stats.t.sf(t, df)
    [0.5, 1, 0.7048327646991335],
    [1.2, 3, 0.31626211469810517],
    [2.9, 7, 0.02298593015238953],
    [0.01, 29, 0.9920897648032249],
    [1.97, 299, 0.0497610048373944],
    [3.5, 1000, 0.0004857743459678326],
  ])('t = %s with %s df gives scipy’s %s', (t, df, p) => {
    expect(studentTTwoSidedP(t, df) / p).toBeCloseTo(1, 10);
  });

  it('is 0 at infinite t and NaN at NaN', () => {
    expect(studentTTwoSidedP(Infinity, 4)).toBe(0);
    expect(studentTTwoSidedP(Number.NaN, 4)).toBeNaN();
  });
});
