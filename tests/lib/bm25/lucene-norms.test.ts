import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  LENGTH_TABLE,
  NUM_FREE_VALUES,
  byte4ToInt,
  int4ToLong,
  intToByte4,
  longToInt4,
} from '../../../src/lib/bm25/lucene-norms.ts';

// Expected values are worked out by hand from Lucene 8.7's SmallFloat algorithm (see lucene-norms.ts).
describe('SmallFloat.intToByte4 / byte4ToInt', () => {
  it('keeps 24 free values: longToInt4(2^31 − 1) = 231', () => {
    // 2^31 − 1 has 31 bits: shift 27, top bits 0b1111 → (0b111) | (28 << 3) = 7 | 224 = 231.
    expect(longToInt4(2 ** 31 - 1)).toBe(231);
    expect(NUM_FREE_VALUES).toBe(24);
  });

  it('stores lengths 0..23 as themselves', () => {
    for (let length = 0; length < 24; length++) {
      expect(intToByte4(length)).toBe(length);
      expect(byte4ToInt(length)).toBe(length);
    }
  });

  it('encodes worked examples', () => {
    // 24 → 24 + longToInt4(0) = 24.
    expect(intToByte4(24)).toBe(24);
    // 31 → 24 + longToInt4(7) = 31 (7 is still subnormal).
    expect(intToByte4(31)).toBe(31);
    // 32 → 24 + longToInt4(8): 4 bits, shift 0 → (8 & 7) | (1 << 3) = 8 → 32.
    expect(intToByte4(32)).toBe(32);
    // 100 → 24 + longToInt4(76): 76 = 0b1001100, shift 3, 76 >>> 3 = 0b1001 → 1 | (4 << 3) = 33 → 57.
    expect(intToByte4(100)).toBe(57);
    // ...which decodes to 24 + (0b1001 << 3) = 24 + 72 = 96.
    expect(byte4ToInt(57)).toBe(96);
    // 1000 → 24 + longToInt4(976): 976 = 0b1111010000, shift 6, top 0b1111 → 7 | (7 << 3) = 63 → 87.
    expect(intToByte4(1000)).toBe(87);
    expect(byte4ToInt(87)).toBe(24 + 15 * 64);
    // The largest int takes the largest byte.
    expect(intToByte4(2 ** 31 - 1)).toBe(255);
    expect(byte4ToInt(255)).toBe(24 + 15 * 2 ** 27);
  });

  it('is exact up to length 40 and approximate from 41 (Lucene explains norms > 39 as approximate)', () => {
    for (let length = 0; length <= 40; length++) expect(byte4ToInt(intToByte4(length))).toBe(length);
    expect(intToByte4(41)).toBe(40);
    expect(byte4ToInt(40)).toBe(40);
    expect(byte4ToInt(41)).toBe(42);
  });

  it('round-trips every byte (Lucene TestSmallFloat.testByte4RoundTrip)', () => {
    for (let norm = 0; norm < 256; norm++) expect(intToByte4(byte4ToInt(norm))).toBe(norm);
  });

  it('decodes strictly increasing lengths', () => {
    for (let norm = 1; norm < 256; norm++) expect(byte4ToInt(norm)).toBeGreaterThan(byte4ToInt(norm - 1));
  });

  it('truncates: the decoded length never exceeds the length and keeps 4 significant bits', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 31 - 1 }), (length) => {
        const decoded = byte4ToInt(intToByte4(length));
        expect(decoded).toBeLessThanOrEqual(length);
        // The next byte up decodes past the length, so this byte is the largest one not above it.
        const norm = intToByte4(length);
        if (norm < 255) expect(byte4ToInt(norm + 1)).toBeGreaterThan(length);
        // Relative error of a 4-significant-bit float: under 1/8.
        expect(length - decoded).toBeLessThanOrEqual(Math.max(0, (length - NUM_FREE_VALUES) / 8));
      }),
    );
  });

  it('encodes monotonically', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 31 - 2 }), (length) => {
        expect(intToByte4(length + 1)).toBeGreaterThanOrEqual(intToByte4(length));
      }),
    );
  });

  it('rejects negative and fractional lengths', () => {
    expect(() => intToByte4(-1)).toThrow(RangeError);
    expect(() => intToByte4(1.5)).toThrow(RangeError);
    expect(() => intToByte4(2 ** 31)).toThrow(RangeError);
    expect(() => byte4ToInt(256)).toThrow(RangeError);
  });

  it('int4ToLong inverts longToInt4 on 4-bit values', () => {
    for (let value = 0; value < 16; value++) expect(int4ToLong(longToInt4(value))).toBe(value);
  });

  it('LENGTH_TABLE holds the decoded lengths as Java floats', () => {
    expect(LENGTH_TABLE).toHaveLength(256);
    expect(LENGTH_TABLE[57]).toBe(96);
    // 24 + 15·2^27 = 2013265944 is not a float; Java's (float) rounds it to 2013265920.
    expect(LENGTH_TABLE[255]).toBe(2013265920);
    expect(LENGTH_TABLE[255]).toBe(Math.fround(byte4ToInt(255)));
  });
});
