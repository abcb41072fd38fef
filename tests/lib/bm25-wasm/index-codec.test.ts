import { describe, expect, it } from 'vitest';
import { buildBm25Index } from '../../../src/lib/bm25/bm25-index.ts';
import { searchBm25 } from '../../../src/lib/bm25/bm25-search.ts';
import {
  BM25_INDEX_FORMAT_VERSION,
  IndexFormatError,
  bm25IndexLayout,
  decodeBm25Index,
  encodeBm25Index,
  encodeBm25IndexInSteps,
} from '../../../src/lib/bm25-wasm/index-codec.ts';
import { partsFromBm25Index, termOrderOf } from '../../../src/lib/bm25-wasm/index-parts.ts';
import { Bm25WasmBuilder } from '../../../src/lib/bm25-wasm/wasm-builder.ts';
import { Bm25WasmIndex } from '../../../src/lib/bm25-wasm/wasm-index.ts';
import { kernelModule } from './fixtures.ts';

const DOCS = [
  { id: 'plain', terms: ['cell', 'cell', 'protein'] },
  { id: 'emoji 🧬 and a lone \ud800 surrogate', terms: ['protein', 'gene'] },
  { id: 'empty', terms: [] },
  { id: 'long', terms: [...Array<string>(300).fill('cell'), 'gene'] },
  { id: 'unicode', terms: ['naïve', 'ß', '細胞'] },
];
const SETTINGS = { analyzer: 'english', field: 'title+text', collection: { docCount: 5, createdAt: 1 } };

async function builtIndex(): Promise<Bm25WasmIndex> {
  const builder = new Bm25WasmBuilder(await kernelModule());
  for (const doc of DOCS) builder.add(doc.id, doc.terms);
  return builder.build();
}

describe('stored BM25 index (index-codec)', () => {
  it('encodes the same bytes in steps, from views into kernel memory asked again after each pause, to the size laid out first', async () => {
    const index = await builtIndex();
    const whole = encodeBm25Index(index.toParts(), SETTINGS);
    const layout = bm25IndexLayout(index.partsView(), SETTINGS);
    expect(layout.size).toBe(whole.byteLength);
    let asked = 0;
    let pauses = 0;
    const stepped = await encodeBm25IndexInSteps(
      () => {
        asked++;
        return index.partsView();
      },
      layout,
      async () => {
        pauses++;
        // Other work meanwhile: a search on the same kernel.
        index.search({ terms: ['cell'] }, { k: 10, params: { k1: 0.9, b: 0.4 } });
        await Promise.resolve();
      },
    );
    expect(new Uint8Array(stepped)).toEqual(new Uint8Array(whole));
    expect(pauses).toBe(10);
    expect(asked).toBe(pauses + 1);
  });

  it('round-trips every array, string and statistic', async () => {
    const index = await builtIndex();
    const buffer = encodeBm25Index(index.toParts(), SETTINGS);
    const decoded = decodeBm25Index(buffer);
    expect(decoded.version).toBe(BM25_INDEX_FORMAT_VERSION);
    expect(decoded.settings).toEqual(SETTINGS);
    expect(decoded.parts.docIds).toEqual(DOCS.map((doc) => doc.id));
    const expected = index.toParts();
    for (const key of ['docLengths', 'norms', 'starts', 'docs', 'freqs', 'overflowAt', 'overflowFreq'] as const) {
      expect(Array.from(decoded.parts[key]), key).toEqual(Array.from(expected[key]));
    }
    expect(decoded.parts.overflowFreq.length).toBe(1); // the 300 × "cell" posting
    expect(decoded.parts.terms).toEqual(expected.terms);
    expect(decoded.parts.docCount).toBe(4);
    expect(decoded.parts.sumTotalTermFreq).toBe(3 + 2 + 301 + 3);
  });

  it('loads back into a kernel that searches exactly like the reference, with or without the stored term order', async () => {
    const decoded = decodeBm25Index(encodeBm25Index((await builtIndex()).toParts(), SETTINGS));
    const module = await kernelModule();
    const byOrder = Bm25WasmIndex.fromParts(module, decoded.parts, { termOrder: decoded.termOrder });
    const byMap = Bm25WasmIndex.fromParts(module, decoded.parts);
    const reference = buildBm25Index(DOCS);
    for (const terms of [['cell'], ['gene', 'protein'], ['細胞', 'cell', 'cell'], ['naïve', 'ß', 'absent']]) {
      expect(byOrder.search({ terms })).toEqual(searchBm25(reference, { terms }));
      expect(byMap.search({ terms })).toEqual(searchBm25(reference, { terms }));
    }
  });

  it('stores the term ordinals sorted by term, and finds every term (and no other) by binary search in them', async () => {
    const decoded = decodeBm25Index(encodeBm25Index((await builtIndex()).toParts(), SETTINGS));
    const { terms } = decoded.parts;
    expect(Array.from(decoded.termOrder)).toEqual(Array.from(termOrderOf(terms)));
    expect(Array.from(decoded.termOrder, (t) => terms[t])).toEqual([...terms].sort());
    const loaded = Bm25WasmIndex.fromParts(await kernelModule(), decoded.parts, { termOrder: decoded.termOrder });
    terms.forEach((term, ordinal) => expect(loaded.termOrdinal(term), term).toBe(ordinal));
    for (const absent of ['', 'a', 'cel', 'cells', 'zzz', '細', '\uffff']) expect(loaded.termOrdinal(absent), absent).toBe(-1);
  });

  it('encodes an index copied from the reference the same way as the built one', async () => {
    const fromReference = encodeBm25Index(partsFromBm25Index(buildBm25Index(DOCS)), SETTINGS);
    expect(new Uint8Array(fromReference)).toEqual(new Uint8Array(encodeBm25Index((await builtIndex()).toParts(), SETTINGS)));
  });

  it('refuses another format version, a foreign buffer and truncated data', async () => {
    const buffer = encodeBm25Index((await builtIndex()).toParts(), SETTINGS);
    const otherVersion = buffer.slice(0);
    new DataView(otherVersion).setUint32(8, BM25_INDEX_FORMAT_VERSION + 1, true);
    expect(() => decodeBm25Index(otherVersion)).toThrow(IndexFormatError);
    expect(() => decodeBm25Index(new TextEncoder().encode('{"not":"an index"}').buffer)).toThrow(IndexFormatError);
    expect(() => decodeBm25Index(buffer.slice(0, buffer.byteLength - 64))).toThrow(IndexFormatError);
  });

  it('refuses to load inconsistent postings instead of searching them', async () => {
    const parts = (await builtIndex()).toParts();
    const module = await kernelModule();
    const badDoc = { ...parts, docs: parts.docs.map((doc, p) => (p === 0 ? 99 : doc)) };
    expect(() => Bm25WasmIndex.fromParts(module, badDoc)).toThrow(/points past the last document/);
    const badNorm = { ...parts, norms: parts.norms.map((norm, d) => (d === 3 ? norm - 1 : norm)) };
    expect(() => Bm25WasmIndex.fromParts(module, badNorm)).toThrow(/norm of document 3/);
    const badStarts = { ...parts, starts: parts.starts.slice(0, -1) };
    expect(() => Bm25WasmIndex.fromParts(module, badStarts)).toThrow(/term offsets/);
    // An overflow byte with no entry in the overflow table (the kernel counts them).
    const big = parts.overflowAt[0]!;
    const lostOverflow = { ...parts, freqs: parts.freqs.map((freq, p) => (p === big - 1 || p === big + 1 ? 255 : freq)) };
    expect(() => Bm25WasmIndex.fromParts(module, lostOverflow)).toThrow(/overflow table does not match/);
  });

  it('refuses a stored term order that is not the terms sorted', async () => {
    const { parts, termOrder } = decodeBm25Index(encodeBm25Index((await builtIndex()).toParts(), SETTINGS));
    const module = await kernelModule();
    const swapped = termOrder.slice();
    [swapped[0], swapped[1]] = [swapped[1]!, swapped[0]!];
    expect(() => Bm25WasmIndex.fromParts(module, parts, { termOrder: swapped })).toThrow(/term order is not sorted at 1/);
    const repeated = termOrder.slice();
    repeated[2] = repeated[1]!;
    expect(() => Bm25WasmIndex.fromParts(module, parts, { termOrder: repeated })).toThrow(/term order is not sorted/);
    const past = termOrder.slice();
    past[0] = parts.terms.length;
    expect(() => Bm25WasmIndex.fromParts(module, parts, { termOrder: past })).toThrow(/past the last one/);
    expect(() => Bm25WasmIndex.fromParts(module, parts, { termOrder: termOrder.subarray(1) })).toThrow(/does not match the terms/);
  });
});
