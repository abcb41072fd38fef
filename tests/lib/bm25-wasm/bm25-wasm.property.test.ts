/**
 * Property: on random small collections — a tiny vocabulary so that equal scores are everywhere, empty
 * documents, term frequencies past the one-byte range — the WebAssembly index returns exactly what the
 * TypeScript reference (`buildBm25Index` + `searchBm25`) returns, for random queries, k1, b, k and
 * exclusion options, with either scoring method of the kernel (term-at-a-time, max-score) and its choice.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildBm25Index } from '../../../src/lib/bm25/bm25-index.ts';
import { intToByte4 } from '../../../src/lib/bm25/lucene-norms.ts';
import { searchBm25, type Bm25SearchOptions } from '../../../src/lib/bm25/bm25-search.ts';
import { Bm25WasmBuilder } from '../../../src/lib/bm25-wasm/wasm-builder.ts';
import type { Bm25Strategy } from '../../../src/lib/bm25-wasm/wasm-index.ts';
import { kernelModule } from './fixtures.ts';

const VOCABULARY = ['a', 'b', 'c', 'd', 'e', 'f'];
const STRATEGIES: Bm25Strategy[] = ['term-at-a-time', 'max-score', 'auto'];
const term = fc.constantFrom(...VOCABULARY);

/** Mostly short documents; now and then one term repeated 250–300 times (the overflow table's range). */
const docTerms = fc.oneof(
  { weight: 9, arbitrary: fc.array(term, { maxLength: 12 }) },
  { weight: 1, arbitrary: fc.tuple(term, fc.integer({ min: 250, max: 300 }), fc.array(term, { maxLength: 3 })).map(([t, n, rest]) => [...Array<string>(n).fill(t), ...rest]) },
);

const collection = fc.array(docTerms, { minLength: 1, maxLength: 40 }).map((docs) => docs.map((terms, i) => ({ id: `d${i}`, terms })));

const options: fc.Arbitrary<Bm25SearchOptions> = fc.record({
  k: fc.oneof(fc.integer({ min: 0, max: 45 }), fc.constant(Infinity)),
  params: fc.record({ k1: fc.double({ min: 0, max: 3, noNaN: true }), b: fc.double({ min: 0, max: 1, noNaN: true }) }),
  ignoreIdenticalIds: fc.boolean(),
  dropAfterTopK: fc.boolean(),
  excludeIds: fc.array(fc.integer({ min: 0, max: 45 }).map((i) => `d${i}`), { maxLength: 3 }),
});

const query = fc.record({
  id: fc.integer({ min: 0, max: 45 }).map((i) => `d${i}`),
  terms: fc.array(fc.constantFrom(...VOCABULARY, 'zz'), { maxLength: 6 }),
});

describe('WASM BM25 equals the TypeScript reference on random collections', () => {
  it('returns the same hits, scores and tie order', async () => {
    const module = await kernelModule();
    fc.assert(
      fc.property(collection, fc.array(fc.tuple(query, options), { minLength: 1, maxLength: 5 }), (docs, searches) => {
        const reference = buildBm25Index(docs);
        const builder = new Bm25WasmBuilder(module);
        for (const doc of docs) builder.add(doc.id, doc.terms);
        const index = builder.build();
        expect(index.toBm25Index().postingsFreqs).toEqual(reference.postingsFreqs);
        for (const [q, o] of searches) {
          const expected = searchBm25(reference, q, o);
          for (const strategy of STRATEGIES) expect(index.search(q, { ...o, strategy }), strategy).toEqual(expected);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('indexes a document longer than the builder batch', async () => {
    const long = Array.from({ length: 70_000 }, (_, i) => VOCABULARY[i % 5]!);
    const docs = [
      { id: 'short', terms: ['a', 'f'] },
      { id: 'long', terms: long },
      { id: 'after', terms: ['f', 'f', 'e'] },
    ];
    const builder = new Bm25WasmBuilder(await kernelModule());
    for (const doc of docs) builder.add(doc.id, doc.terms);
    const index = builder.build();
    const reference = buildBm25Index(docs);
    expect(index.toBm25Index().postingsFreqs).toEqual(reference.postingsFreqs);
    expect(index.toBm25Index().norms).toEqual(reference.norms);
    for (const terms of [['a'], ['f', 'e'], ['b', 'c', 'd', 'f']]) {
      for (const strategy of STRATEGIES) expect(index.search({ terms }, { strategy })).toEqual(searchBm25(reference, { terms }));
    }
  });

  it('encodes the same one-byte length norms as Lucene\'s SmallFloat.intToByte4 (lucene-norms.ts)', async () => {
    const lengths = [...Array.from({ length: 300 }, (_, i) => i), 1023, 1024, 1025, 2047, 2048, 4095, 4096, 8191, 8192, 16_384, 32_767, 65_536];
    const builder = new Bm25WasmBuilder(await kernelModule());
    lengths.forEach((length, i) => builder.add(`d${i}`, Array<string>(length).fill(VOCABULARY[i % 6]!)));
    expect(Array.from(builder.build().toBm25Index().norms)).toEqual(lengths.map((length) => intToByte4(length)));
  });

  it('rejects a repeated document id, as the reference builder does', async () => {
    const builder = new Bm25WasmBuilder(await kernelModule());
    builder.add('x', ['a']);
    expect(() => builder.add('x', ['b'])).toThrow(RangeError);
  });
});
