/**
 * The WebAssembly kernel against the TypeScript reference BM25 (src/lib/bm25: `buildBm25Index` +
 * `searchBm25`, itself equal to Lucene 8.7 on SciFact — tests/lib/bm25/bm25.lucene.parity.test.ts), on
 * every SciFact test and train query (1,109), top 1000: same documents in the same order (ties included)
 * and every score bit-identical (the kernel does the same float32 operations in the same order), with each
 * of the kernel's two exact scoring methods (term-at-a-time, max-score) and its own choice.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { buildBm25Index, type Bm25Index } from '../../../src/lib/bm25/bm25-index.ts';
import { searchBm25 } from '../../../src/lib/bm25/bm25-search.ts';
import { partsFromBm25Index } from '../../../src/lib/bm25-wasm/index-parts.ts';
import { Bm25WasmBuilder } from '../../../src/lib/bm25-wasm/wasm-builder.ts';
import { Bm25WasmIndex, type Bm25WasmSearchOptions } from '../../../src/lib/bm25-wasm/wasm-index.ts';
import type { Hit } from '../../../src/lib/types.ts';
import { analyzedSciFact, kernelModule, type AnalyzedSciFact } from './fixtures.ts';

interface Comparison {
  queries: number;
  hits: number;
  /** Queries whose ranked document ids differ anywhere in the list. */
  orderMismatches: number;
  /** Positions where both lists hold the same document with an equal score to one of its neighbours. */
  tiedPositions: number;
  maxRelativeDiff: number;
  bitIdentical: number;
}

function compareRuns(reference: Hit[][], ours: Hit[][]): Comparison {
  const result: Comparison = { queries: reference.length, hits: 0, orderMismatches: 0, tiedPositions: 0, maxRelativeDiff: 0, bitIdentical: 0 };
  reference.forEach((expected, q) => {
    const actual = ours[q]!;
    if (actual.length !== expected.length || expected.some((hit, i) => hit.docId !== actual[i]!.docId)) result.orderMismatches += 1;
    expected.forEach((hit, i) => {
      const other = actual[i];
      if (other === undefined) return;
      result.hits += 1;
      if (other.score === hit.score) result.bitIdentical += 1;
      const relative = Math.abs(other.score - hit.score) / Math.max(Math.abs(hit.score), Number.MIN_VALUE);
      result.maxRelativeDiff = Math.max(result.maxRelativeDiff, relative);
      if (i > 0 && expected[i - 1]!.score === hit.score) result.tiedPositions += 1;
    });
  });
  return result;
}

describe('WASM BM25 equals the TypeScript reference on SciFact (every test and train query)', () => {
  let data: AnalyzedSciFact;
  let reference: Bm25Index;
  let built: Bm25WasmIndex;

  beforeAll(async () => {
    data = await analyzedSciFact();
    reference = buildBm25Index(data.docs);
    const builder = new Bm25WasmBuilder(await kernelModule());
    for (const doc of data.docs) builder.add(doc.id, doc.terms);
    built = builder.build();
  });

  it('covers the 1,109 judged queries (300 test + 809 train)', () => {
    expect(data.collection.qrels.get('test')?.size).toBe(300);
    expect(data.collection.qrels.get('train')?.size).toBe(809);
    expect(data.queries.length).toBe(1109);
  });

  it('builds the same postings, norms and statistics as Bm25IndexBuilder', () => {
    const ours = built.toBm25Index();
    expect(ours.docIds).toEqual(reference.docIds);
    expect(ours.terms).toEqual(reference.terms);
    expect(ours.docLengths).toEqual(reference.docLengths);
    expect(ours.norms).toEqual(reference.norms);
    expect(ours.postingsStart).toEqual(reference.postingsStart);
    expect(ours.postingsDocs).toEqual(reference.postingsDocs);
    expect(ours.postingsFreqs).toEqual(reference.postingsFreqs);
    expect(ours.docCount).toBe(reference.docCount);
    expect(ours.sumTotalTermFreq).toBe(reference.sumTotalTermFreq);
  });

  const cases: { name: string; options: Bm25WasmSearchOptions }[] = [
    { name: 'Anserini k1 0.9, b 0.4, top 1000 (the default)', options: { k: 1000 } },
    { name: 'Lucene k1 1.2, b 0.75, top 1000', options: { k: 1000, params: { k1: 1.2, b: 0.75 } } },
    { name: 'top 1000, term-at-a-time forced', options: { k: 1000, strategy: 'term-at-a-time' } },
    { name: 'top 1000, max-score forced', options: { k: 1000, strategy: 'max-score' } },
    { name: 'top 10 (max-score chosen)', options: { k: 10 } },
  ];

  it.each(cases)('top-1000 ids, scores and tie order: $name', ({ options }) => {
    const queries = data.queries.map((query) => ({ id: query.id, terms: query.terms }));
    const expected = queries.map((query) => searchBm25(reference, query, options));
    const fromBuilder = compareRuns(expected, queries.map((query) => built.search(query, options)));
    console.log(
      `WASM vs TS reference (${JSON.stringify(options)}): ${fromBuilder.queries} queries, ${fromBuilder.hits} hits, ` +
        `${fromBuilder.orderMismatches} order mismatches, ${fromBuilder.tiedPositions} tied positions, ` +
        `max relative score diff ${fromBuilder.maxRelativeDiff.toExponential(2)}, ${fromBuilder.bitIdentical} bit-identical scores`,
    );
    expect(fromBuilder.queries).toBe(1109);
    expect(fromBuilder.hits).toBe(expected.reduce((sum, hits) => sum + hits.length, 0));
    if (options.k === 1000) expect(fromBuilder.tiedPositions).toBeGreaterThan(0); // the comparison does exercise tie order
    expect(fromBuilder.orderMismatches).toBe(0);
    expect(fromBuilder.maxRelativeDiff).toBe(0);
    expect(fromBuilder.bitIdentical).toBe(fromBuilder.hits);
  });

  it('gives the same results from an index copied from the reference as from its own build', async () => {
    const copied = Bm25WasmIndex.fromParts(await kernelModule(), partsFromBm25Index(reference));
    for (const query of data.queries) {
      expect(copied.search(query)).toEqual(built.search(query));
    }
  });

  it('changes k1, b and k live (no rebuild) and still equals the reference', () => {
    const settings: Bm25WasmSearchOptions[] = [
      { k: 10, params: { k1: 0, b: 0.4 } },
      { k: 100, params: { k1: 2, b: 0 } },
      { k: 7, params: { k1: 0.5, b: 1 } },
      { k: Infinity, params: { k1: 0.9, b: 0.4 } },
      { k: 1000, dropAfterTopK: true },
      { k: 1000, ignoreIdenticalIds: false },
      { k: 5, params: { k1: 1.2, b: 0.75 }, strategy: 'max-score' },
      { k: 50, params: { k1: 0, b: 0.4 }, strategy: 'max-score' },
      { k: 20, dropAfterTopK: true, strategy: 'max-score' },
    ];
    for (const options of settings) {
      for (const query of data.queries.slice(0, 100)) {
        expect(built.search(query, options), JSON.stringify(options)).toEqual(searchBm25(reference, query, options));
      }
    }
  });
});
