import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatFixed, padRight } from '../../../src/lib/data/c-format.ts';

describe('formatFixed = printf("%.Nf")', () => {
  // Expected strings printed by glibc's printf("%.4f %.6f %.0f") for the same doubles.
  it.each([
    [0.03125, '0.0312', '0.031250', '0'],
    [0.09375, '0.0938', '0.093750', '0'],
    [9.5, '9.5000', '9.500000', '10'],
    [0.5, '0.5000', '0.500000', '0'],
    [1.5, '1.5000', '1.500000', '2'],
    [2.5, '2.5000', '2.500000', '2'],
    [-0.03125, '-0.0312', '-0.031250', '-0'],
    [0.99995, '1.0000', '0.999950', '1'],
    [123456.78125, '123456.7812', '123456.781250', '123457'],
    [-1e-9, '-0.0000', '-0.000000', '-0'],
    [-412.66666666666669, '-412.6667', '-412.666667', '-413'],
    [-0, '-0.0000', '-0.000000', '-0'],
  ])('%s → %s / %s / %s', (value, four, six, zero) => {
    expect([formatFixed(value, 4), formatFixed(value, 6), formatFixed(value, 0)]).toEqual([four, six, zero]);
  });

  it('agrees with toFixed away from exact ties', () => {
    fc.assert(
      fc.property(fc.double({ min: -1e6, max: 1e6, noNaN: true }), fc.integer({ min: 0, max: 8 }), (value, digits) => {
        const text = formatFixed(value, digits);
        const reference = value.toFixed(digits);
        if (text !== reference && !(value === 0 || (value < 0 && Number(reference) === 0))) {
          // Only an exact tie may differ, and then only by one unit in the last place.
          expect(Math.abs(Number(text) - Number(reference))).toBeCloseTo(10 ** -digits, 12);
          expect(Math.abs(value * 10 ** digits) % 1).toBe(0.5);
        }
      }),
    );
  });
});

describe('padRight = printf("%-22s")', () => {
  it('pads to the width and never truncates', () => {
    expect(padRight('P_5', 22)).toBe('P_5                   ');
    expect(padRight('ndcg_1=3,2=9,4=4.5,5=10', 22)).toBe('ndcg_1=3,2=9,4=4.5,5=10');
  });
});
