import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  bm25AvgFieldLength,
  bm25Idf,
  bm25LengthNorm,
  bm25NormInverseCache,
  bm25TermScore,
  bm25TfNorm,
  bm25Weight,
  validateBm25Params,
} from '../../../src/lib/bm25/bm25-similarity.ts';
import { LENGTH_TABLE } from '../../../src/lib/bm25/lucene-norms.ts';

describe('BM25Similarity arithmetic', () => {
  it('idf = ln(1 + (N − df + 0.5) / (df + 0.5)) rounded to float', () => {
    // Elasticsearch (Lucene 8) explains docFreq 1, docCount 1 as idf 0.2876821 = (float) ln(4/3).
    expect(bm25Idf(1, 1)).toBe(Math.fround(Math.log(4 / 3)));
    expect(bm25Idf(1, 1).toPrecision(7)).toBe('0.2876821');
    expect(bm25Idf(10, 5183)).toBe(Math.fround(Math.log(1 + 5173.5 / 10.5)));
    // A term in every document still gets a positive idf (the 1 + inside the log).
    expect(bm25Idf(100, 100)).toBeGreaterThan(0);
  });

  it('idf falls as df rises', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1_000_000 }), fc.integer({ min: 1, max: 1_000_000 }), (a, b) => {
        const docCount = Math.max(a, b);
        const [low, high] = a < b ? [a, b] : [b, a];
        expect(bm25Idf(low, docCount)).toBeGreaterThanOrEqual(bm25Idf(high, docCount));
      }),
    );
  });

  it('every value is a float32', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 100 }),
        fc.integer({ min: 0, max: 255 }),
        fc.double({ min: 0, max: 3, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (freq, norm, k1, b) => {
          const avgdl = bm25AvgFieldLength(838128, 5183);
          const cache = bm25NormInverseCache(avgdl, { k1, b });
          const weight = bm25Weight(2, bm25Idf(3, 5183));
          for (const value of [avgdl, cache[norm]!, weight, bm25TermScore(weight, freq, cache[norm]!)]) {
            expect(Math.fround(value)).toBe(value);
          }
        },
      ),
    );
  });

  it('term score ≈ weight · tf / (tf + k1 · (1 − b + b · dl / avgdl)) (no (k1 + 1) since Lucene 8)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 50 }),
        fc.integer({ min: 0, max: 255 }),
        fc.double({ min: 0.1, max: 3, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (tf, norm, k1, b) => {
          const avgdl = 161.7;
          const weight = bm25Weight(1, bm25Idf(7, 1000));
          const normInverse = bm25NormInverseCache(Math.fround(avgdl), { k1, b })[norm]!;
          const dl = LENGTH_TABLE[norm]!;
          const textbook = (weight * tf) / (tf + k1 * (1 - b + (b * dl) / Math.fround(avgdl)));
          expect(bm25TermScore(weight, tf, normInverse)).toBeCloseTo(textbook, 4);
          expect(bm25TfNorm(tf, normInverse)).toBeCloseTo(textbook / weight, 5);
        },
      ),
    );
  });

  it('lengthNorm is k1 at b = 0 and k1 · dl / avgdl at b = 1', () => {
    expect(bm25LengthNorm(500, 100, { k1: 0.9, b: 0 })).toBe(Math.fround(0.9));
    expect(bm25LengthNorm(200, 100, { k1: 1, b: 1 })).toBe(2);
  });

  it('k1 = 0 makes the score the weight whatever tf and length (normInverse is infinite, as in Java)', () => {
    const cache = bm25NormInverseCache(100, { k1: 0, b: 0.4 });
    expect(cache[50]).toBe(Infinity);
    expect(bm25TermScore(Math.fround(1.5), 3, cache[50]!)).toBe(Math.fround(1.5));
  });

  it('rejects what Lucene rejects', () => {
    expect(() => validateBm25Params({ k1: -0.1, b: 0.4 })).toThrow(RangeError);
    expect(() => validateBm25Params({ k1: Infinity, b: 0.4 })).toThrow(RangeError);
    expect(() => validateBm25Params({ k1: 0.9, b: 1.1 })).toThrow(RangeError);
    expect(() => validateBm25Params({ k1: 0.9, b: Number.NaN })).toThrow(RangeError);
    expect(() => validateBm25Params({ k1: 0, b: 0 })).not.toThrow();
  });
});
