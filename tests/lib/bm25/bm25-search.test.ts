import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AnalyzedDoc } from '../../../src/lib/bm25/bm25-index.ts';
import { buildBm25Index } from '../../../src/lib/bm25/bm25-index.ts';
import { explainBm25 } from '../../../src/lib/bm25/bm25-explain.ts';
import { bagOfTerms } from '../../../src/lib/bm25/bm25-query.ts';
import { searchBm25 } from '../../../src/lib/bm25/bm25-search.ts';
import { bm25Idf } from '../../../src/lib/bm25/bm25-similarity.ts';
import { byte4ToInt, intToByte4 } from '../../../src/lib/bm25/lucene-norms.ts';

const corpus: AnalyzedDoc[] = [
  { id: 'short', terms: ['apple', 'pie'] },
  { id: 'long', terms: ['apple', 'pie', 'recip', 'oven', 'butter', 'flour', 'sugar', 'bake', 'crust', 'cinnamon'] },
  { id: 'q1', terms: ['apple', 'tart'] },
  { id: 'other', terms: ['banana', 'bread'] },
];

/** BM25 as a textbook writes it, in double, with Lucene's decoded lengths: an independent cross-check. */
function textbookScore(docs: AnalyzedDoc[], query: string[], doc: number, k1: number, b: number): number {
  const withTokens = docs.filter((d) => d.terms.length > 0);
  const docCount = withTokens.length;
  const avgdl = withTokens.reduce((n, d) => n + d.terms.length, 0) / docCount;
  const dl = byte4ToInt(intToByte4(docs[doc]!.terms.length));
  let score = 0;
  for (const { term, weight: count } of bagOfTerms(query)) {
    const df = docs.filter((d) => d.terms.includes(term)).length;
    const tf = docs[doc]!.terms.filter((t) => t === term).length;
    if (df === 0 || tf === 0) continue;
    const idf = Math.log(1 + (docCount - df + 0.5) / (df + 0.5));
    score += (count * idf * tf) / (tf + k1 * (1 - b + (b * dl) / avgdl));
  }
  return score;
}

describe('searchBm25', () => {
  const index = buildBm25Index(corpus);

  it('returns nothing for an empty query or a query of unknown terms', () => {
    expect(searchBm25(index, { terms: [] })).toEqual([]);
    expect(searchBm25(index, { terms: ['zebra', 'unicorn'] })).toEqual([]);
  });

  it('ignores unknown terms next to known ones', () => {
    expect(searchBm25(index, { terms: ['apple', 'zebra'] })).toEqual(searchBm25(index, { terms: ['apple'] }));
  });

  it('scores as the textbook formula does (within float rounding)', () => {
    const query = ['apple', 'pie', 'tart'];
    for (const hit of searchBm25(index, { terms: query })) {
      const doc = corpus.findIndex((d) => d.id === hit.docId);
      expect(hit.score).toBeCloseTo(textbookScore(corpus, query, doc, 0.9, 0.4), 5);
    }
  });

  it('boosts a repeated query term by its count', () => {
    const once = searchBm25(index, { terms: ['pie'] });
    const twice = searchBm25(index, { terms: ['pie', 'pie'] });
    expect(twice.map((h) => h.docId)).toEqual(once.map((h) => h.docId));
    twice.forEach((hit, i) => expect(hit.score).toBeCloseTo(2 * once[i]!.score, 5));
    const explanation = explainBm25(index, { terms: ['pie', 'pie'] }, 'short');
    expect(explanation.terms).toHaveLength(1);
    expect(explanation.terms[0]).toMatchObject({ term: 'pie', boost: 2, weight: Math.fround(2 * bm25Idf(2, 4)) });
  });

  it('drops the hit whose id equals the query id by default, without using up one of the k places', () => {
    const query = { id: 'q1', terms: ['apple'] };
    expect(searchBm25(index, query).map((h) => h.docId)).not.toContain('q1');
    expect(searchBm25(index, query, { k: 2 })).toHaveLength(2);
    const all = searchBm25(index, query, { ignoreIdenticalIds: false });
    expect(all.map((h) => h.docId)).toContain('q1');
    expect(all).toHaveLength(3);
  });

  it('can drop after cutting to k, as Pyserini --remove-query does', () => {
    // q1 ('apple tart', length 2) ties with 'short' and beats 'long': the top 2 are short, q1.
    const query = { id: 'q1', terms: ['apple'] };
    expect(searchBm25(index, query, { k: 2, dropAfterTopK: true }).map((h) => h.docId)).toEqual(['short']);
    expect(searchBm25(index, query, { k: 2 }).map((h) => h.docId)).toEqual(['short', 'long']);
  });

  it('drops explicitly excluded ids', () => {
    const hits = searchBm25(index, { terms: ['apple'] }, { excludeIds: ['short', 'not-there'] });
    expect(hits.map((h) => h.docId).sort()).toEqual(['long', 'q1']);
  });

  it('changes k1 and b without touching the index', () => {
    const before = structuredClone(index);
    const query = { terms: ['apple'] };
    // b = 0: length does not matter, so the three one-occurrence documents tie and keep insertion order.
    const flat = searchBm25(index, query, { params: { k1: 0.9, b: 0 } });
    expect(flat.map((h) => h.docId)).toEqual(['short', 'long', 'q1']);
    expect(new Set(flat.map((h) => h.score)).size).toBe(1);
    // b = 1: full length normalization, the long document falls last.
    const normalized = searchBm25(index, query, { params: { k1: 1.2, b: 1 } });
    expect(normalized.map((h) => h.docId)).toEqual(['short', 'q1', 'long']);
    for (const hit of normalized) {
      const doc = corpus.findIndex((d) => d.id === hit.docId);
      expect(hit.score).toBeCloseTo(textbookScore(corpus, ['apple'], doc, 1.2, 1), 5);
    }
    expect(index).toEqual(before);
  });

  it('orders equal scores by insertion order, also when k cuts through a tie', () => {
    const twins = buildBm25Index(
      ['e', 'd', 'c', 'b', 'a'].map((id) => ({ id, terms: ['same', 'words'] })).concat([{ id: 'z', terms: ['same'] }]),
    );
    expect(searchBm25(twins, { terms: ['same'] }).map((h) => h.docId)).toEqual(['z', 'e', 'd', 'c', 'b', 'a']);
    expect(searchBm25(twins, { terms: ['words'] }, { k: 3 }).map((h) => h.docId)).toEqual(['e', 'd', 'c']);
  });

  it('returns at most k hits, all of them with k = Infinity, none with k = 0', () => {
    expect(searchBm25(index, { terms: ['apple'] }, { k: 1 })).toHaveLength(1);
    expect(searchBm25(index, { terms: ['apple', 'bread'] }, { k: Infinity })).toHaveLength(4);
    expect(searchBm25(index, { terms: ['apple'] }, { k: 0 })).toEqual([]);
    expect(() => searchBm25(index, { terms: ['apple'] }, { k: -1 })).toThrow(RangeError);
  });

  it('agrees with the textbook formula and with explain on random corpora and parameters', () => {
    const term = fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'g');
    fc.assert(
      fc.property(
        fc.array(fc.array(term, { maxLength: 60 }), { minLength: 1, maxLength: 25 }),
        fc.array(term, { maxLength: 6 }),
        fc.double({ min: 0, max: 3, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (termLists, query, k1, b) => {
          const docs = termLists.map((terms, i) => ({ id: `doc${i}`, terms }));
          const built = buildBm25Index(docs);
          const hits = searchBm25(built, { terms: query }, { params: { k1, b }, k: Infinity });
          const matching = docs.filter((d) => d.terms.some((t) => query.includes(t)));
          expect(hits).toHaveLength(matching.length);
          for (const hit of hits) {
            const doc = Number(hit.docId.slice(3));
            const expected = textbookScore(docs, query, doc, Math.fround(k1), Math.fround(b));
            expect(Math.abs(hit.score - expected)).toBeLessThanOrEqual(1e-5 * Math.max(1, expected));
            expect(explainBm25(built, { terms: query }, hit.docId, { k1, b }).score).toBe(hit.score);
          }
          for (let i = 1; i < hits.length; i++) {
            const [prev, next] = [hits[i - 1]!, hits[i]!];
            expect(prev.score).toBeGreaterThanOrEqual(next.score);
            if (prev.score === next.score) expect(Number(prev.docId.slice(3))).toBeLessThan(Number(next.docId.slice(3)));
          }
        },
      ),
    );
  });
});

describe('explainBm25', () => {
  const index = buildBm25Index(corpus);

  it('gives every number of the formula', () => {
    const explanation = explainBm25(index, { terms: ['apple', 'pie', 'zebra'] }, 'long');
    expect(explanation).toMatchObject({
      docId: 'long',
      doc: 1,
      docCount: 4,
      avgdl: 4,
      docLength: 10,
      encodedLength: 10,
      decodedLength: 10,
      k1: Math.fround(0.9),
      b: Math.fround(0.4),
    });
    expect(explanation.lengthNorm).toBeCloseTo(0.9 * (0.6 + (0.4 * 10) / 4), 6);
    expect(explanation.normInverse).toBeCloseTo(1 / explanation.lengthNorm, 6);
    const [apple, pie, zebra] = explanation.terms;
    expect(apple).toMatchObject({ term: 'apple', inIndex: true, df: 3, tf: 1, idf: bm25Idf(3, 4) });
    expect(pie).toMatchObject({ term: 'pie', df: 2, tf: 1 });
    expect(zebra).toMatchObject({ term: 'zebra', inIndex: false, df: 0, tf: 0, contribution: 0 });
    expect(apple!.contribution).toBeCloseTo(apple!.weight * apple!.tfNorm, 6);
    const hit = searchBm25(index, { terms: ['apple', 'pie', 'zebra'] }).find((h) => h.docId === 'long')!;
    expect(explanation.score).toBe(hit.score);
  });

  it('scores 0 for a document without any query term and rejects unknown ids', () => {
    expect(explainBm25(index, { terms: ['apple'] }, 'other').score).toBe(0);
    expect(() => explainBm25(index, { terms: ['apple'] }, 'missing')).toThrow(RangeError);
  });
});
