import { describe, expect, it } from 'vitest';
import { englishAnalyzer } from '../../../src/lib/analysis/english-analyzer.ts';
import { bm25DocText } from '../../../src/lib/services/bm25-service.ts';
import { Bm25WasmBuilder } from '../../../src/lib/bm25-wasm/wasm-builder.ts';
import { analyzedSciFact, kernelModule } from './fixtures.ts';

describe('Bm25WasmBuilder.addNumbered', () => {
  it('builds the same index as add with the terms, whatever numbers the analyzer gave terms before', async () => {
    const { collection, docs } = await analyzedSciFact();
    const module = await kernelModule();
    const byTerms = new Bm25WasmBuilder(module);
    for (const doc of docs) byTerms.add(doc.id, doc.terms);
    const analyzer = englishAnalyzer();
    // Numbers handed out in another order first (the queries, then the corpus backwards).
    for (const query of collection.queries.values()) analyzer.termNumbers!(query.text);
    for (const doc of [...collection.docs].reverse().slice(0, 500)) analyzer.termNumbers!(bm25DocText(doc));
    const byNumbers = new Bm25WasmBuilder(module);
    const numbering = { term: (n: number) => analyzer.term!(n) };
    for (const doc of collection.docs) byNumbers.addNumbered(doc.id, analyzer.termNumbers!(bm25DocText(doc)), numbering);
    const expected = byTerms.build().toParts();
    const actual = byNumbers.build().toParts();
    expect(actual.terms).toEqual(expected.terms);
    expect(actual.docIds).toEqual(expected.docIds);
    for (const key of ['docLengths', 'norms', 'starts', 'docs', 'freqs', 'overflowAt', 'overflowFreq'] as const) expect(actual[key]).toEqual(expected[key]);
    expect([actual.docCount, actual.sumTotalTermFreq]).toEqual([expected.docCount, expected.sumTotalTermFreq]);
  });

  it('refuses the numbers of a second analyzer and a repeated id', async () => {
    const builder = new Bm25WasmBuilder(await kernelModule());
    const one = englishAnalyzer();
    const two = englishAnalyzer();
    builder.addNumbered('a', one.termNumbers!('cells divide'), { term: (n) => one.term!(n) });
    expect(() => builder.addNumbered('b', two.termNumbers!('cells'), { term: (n) => two.term!(n) })).toThrow(/one analyzer/);
  });
});
