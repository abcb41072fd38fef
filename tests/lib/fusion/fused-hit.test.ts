import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareCodePoints, compareFused, rankFused, topOf } from '../../../src/lib/fusion/fused-hit.ts';

describe('compareCodePoints', () => {
  it('orders by code point as Python does, not by UTF-16 code unit', () => {
    // Python: '\uffff' < '\U00010000' is True; JavaScript's < says the opposite.
    expect(compareCodePoints('\uFFFF', '\u{10000}')).toBeLessThan(0);
    expect(compareCodePoints('\u{10000}', '\uFFFF')).toBeGreaterThan(0);
    expect(compareCodePoints('doc10', 'doc9')).toBeLessThan(0);
    expect(compareCodePoints('ab', 'abc')).toBeLessThan(0);
    expect(compareCodePoints('same', 'same')).toBe(0);
  });

  it('agrees with the order of code point arrays', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), fc.string({ unit: 'grapheme' }), (a, b) => {
        const pa = [...a].map((c) => c.codePointAt(0)!);
        const pb = [...b].map((c) => c.codePointAt(0)!);
        let expected = 0;
        for (let i = 0; i < Math.min(pa.length, pb.length) && expected === 0; i++) expected = pa[i]! - pb[i]!;
        if (expected === 0) expected = pa.length - pb.length;
        expect(Math.sign(compareCodePoints(a, b))).toBe(Math.sign(expected));
      }),
    );
  });
});

describe('rankFused', () => {
  it('sorts by score descending then id ascending, and cuts to limit', () => {
    const hits = [
      { docId: 'b', score: 1 },
      { docId: 'a', score: 1 },
      { docId: 'c', score: 2 },
    ];
    expect(rankFused([...hits], undefined).map((h) => h.docId)).toEqual(['c', 'a', 'b']);
    expect(rankFused([...hits], 2).map((h) => h.docId)).toEqual(['c', 'a']);
    expect(compareFused(hits[0]!, hits[1]!)).toBeGreaterThan(0);
    expect(() => rankFused([...hits], -1)).toThrow(RangeError);
  });

  it('topOf keeps the first depth hits', () => {
    const hits = [
      { docId: 'x', score: 3 },
      { docId: 'y', score: 2 },
    ];
    expect(topOf(hits, 1)).toEqual([{ docId: 'x', score: 3 }]);
    expect(topOf(hits, undefined)).toBe(hits);
  });
});
