import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DuplicateDocumentError, compareStrcmp, compareTrecHits, rankForEvaluation } from '../../../src/lib/hits/trec-order.ts';

/** strcmp on UTF-8 bytes, done with Node's Buffer: the independent reference. */
const byteCompare = (a: string, b: string) => Math.sign(Buffer.compare(Buffer.from(a), Buffer.from(b)));

describe('compareStrcmp', () => {
  it('orders like strcmp on UTF-8 bytes, also across surrogate pairs and U+E000–U+FFFF', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), fc.string({ unit: 'grapheme' }), (a, b) => {
        expect(Math.sign(compareStrcmp(a, b))).toBe(byteCompare(a, b));
      }),
    );
    expect(Math.sign(compareStrcmp('\u{1d538}', '\uffff'))).toBe(1);
    expect(Math.sign(compareStrcmp('10', '9'))).toBe(-1);
  });
});

describe('rankForEvaluation', () => {
  it('sorts by score descending, ties by document id in decreasing byte order', () => {
    const hits = fc.uniqueArray(fc.record({ docId: fc.string({ minLength: 1, unit: 'grapheme' }), score: fc.constantFrom(0, 1, 2) }), {
      selector: (hit) => hit.docId,
    });
    fc.assert(
      fc.property(hits, (list) => {
        const expected = [...list].sort((a, b) => b.score - a.score || byteCompare(b.docId, a.docId)).map((hit) => hit.docId);
        expect(rankForEvaluation('q', list)).toEqual(expected);
      }),
    );
  });

  it('puts D before C before B at equal scores (trec_eval comp_sim_docno)', () => {
    const hits = ['B', 'D', 'C'].map((docId) => ({ docId, score: 1 }));
    expect(rankForEvaluation('q', hits)).toEqual(['D', 'C', 'B']);
    expect(compareTrecHits({ docId: 'a', score: 2 }, { docId: 'z', score: 1 })).toBeLessThan(0);
  });

  it('cuts at maxDocs before looking for duplicates', () => {
    const hits = [
      { docId: 'a', score: 3 },
      { docId: 'b', score: 2 },
      { docId: 'a', score: 1 },
    ];
    expect(() => rankForEvaluation('q', hits)).toThrow(DuplicateDocumentError);
    expect(rankForEvaluation('q', hits, 2)).toEqual(['a', 'b']);
  });
});
