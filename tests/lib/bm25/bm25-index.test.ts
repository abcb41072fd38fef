import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  Bm25IndexBuilder,
  buildBm25Index,
  docFreq,
  docOrdinal,
  termFreq,
  termOrdinal,
} from '../../../src/lib/bm25/bm25-index.ts';
import { intToByte4 } from '../../../src/lib/bm25/lucene-norms.ts';

const docs = [
  { id: 'd0', terms: ['cat', 'sat', 'cat'] },
  { id: 'd1', terms: [] },
  { id: 'd2', terms: ['dog', 'cat'] },
];

describe('Bm25Index', () => {
  const index = buildBm25Index(docs);

  it('numbers documents in insertion order and keeps their lengths and norms', () => {
    expect(index.docIds).toEqual(['d0', 'd1', 'd2']);
    expect([...index.docLengths]).toEqual([3, 0, 2]);
    expect([...index.norms]).toEqual([3, 0, 2]);
  });

  it('counts only documents with tokens in docCount (Lucene docCount), and every token in sumTotalTermFreq', () => {
    expect(index.docCount).toBe(2);
    expect(index.sumTotalTermFreq).toBe(5);
  });

  it('stores postings by term with ascending docids and term frequencies', () => {
    expect(index.terms).toEqual(['cat', 'sat', 'dog']);
    const cat = termOrdinal(index, 'cat');
    expect(docFreq(index, cat)).toBe(2);
    expect(termFreq(index, cat, 0)).toBe(2);
    expect(termFreq(index, cat, 2)).toBe(1);
    expect(termFreq(index, cat, 1)).toBe(0);
    expect(termOrdinal(index, 'bird')).toBe(-1);
    expect(docOrdinal(index, 'd2')).toBe(2);
    expect(docOrdinal(index, 'nope')).toBe(-1);
  });

  it('is plain data that survives structured cloning', () => {
    const copy = structuredClone(index);
    expect(copy).toEqual(index);
    expect(termFreq(copy, termOrdinal(copy, 'cat'), 0)).toBe(2);
  });

  it('rejects a repeated document id', () => {
    const builder = new Bm25IndexBuilder();
    builder.add('a', ['x']);
    expect(() => builder.add('a', ['y'])).toThrow(RangeError);
  });

  it('agrees with a direct count on random corpora', () => {
    const term = fc.constantFrom<string>('a', 'b', 'c', 'd', 'e', 'f');
    fc.assert(
      fc.property(fc.array(fc.array(term, { maxLength: 40 }), { maxLength: 30 }), (corpus) => {
        const built = buildBm25Index(corpus.map((terms, i) => ({ id: `doc${i}`, terms })));
        expect(built.sumTotalTermFreq).toBe(corpus.reduce((n, terms) => n + terms.length, 0));
        expect(built.docCount).toBe(corpus.filter((terms) => terms.length > 0).length);
        for (const t of ['a', 'b', 'c', 'd', 'e', 'f']) {
          const ordinal = termOrdinal(built, t);
          const holders = corpus.flatMap((terms, doc) => (terms.includes(t) ? [doc] : []));
          if (ordinal < 0) {
            expect(holders).toEqual([]);
            continue;
          }
          const start = built.postingsStart[ordinal]!;
          expect([...built.postingsDocs.subarray(start, start + docFreq(built, ordinal))]).toEqual(holders);
          for (const doc of holders) {
            expect(termFreq(built, ordinal, doc)).toBe(corpus[doc]!.filter((x) => x === t).length);
          }
        }
        corpus.forEach((terms, doc) => expect(built.norms[doc]).toBe(intToByte4(terms.length)));
      }),
    );
  });
});
