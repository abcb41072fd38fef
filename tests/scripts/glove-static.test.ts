/**
 * The GloVe static-model generator on a small hand-made vocabulary: SIF weights, the vocabulary filter,
 * the ONNX graph (run on onnxruntime-node) and the tokenizer files (loaded by transformers.js).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../temp-dir.ts';
import { AutoTokenizer, env } from '@huggingface/transformers';
import * as ort from 'onnxruntime-node';
import { expect, test } from 'vitest';
import {
  buildStaticTable,
  harmonic,
  isPreTokenizerWord,
  sifWeight,
  staticModelFp32,
  staticModelQ8,
  wordTokenizerConfig,
  wordTokenizerJson,
  type GloveVectors,
} from '../../scripts/models/glove-static.ts';

const dir = tempDir('rp-glove-');

// Ranks 1..6; "," and "don't" cannot come out of the BERT pre-tokenizer as one piece.
const glove: GloveVectors = {
  words: ['the', ',', 'cat', "don't", 'café', 'zinc'],
  dim: 3,
  vectors: Float32Array.from([1, 0, 0, 9, 9, 9, 0, 1, 0, 5, 5, 5, 0, 0, 1, 1, 1, 1]),
};

test('SIF weight a/(a + p) with p = 1/rank, and the harmonic-normalized variant', () => {
  expect(sifWeight(1, 1e-4, 1)).toBeCloseTo(1e-4 / (1e-4 + 1), 12);
  expect(sifWeight(10_000, 1e-4, 1)).toBeCloseTo(0.5, 12);
  expect(sifWeight(100, 1e-4, harmonic(4))).toBeCloseTo(1e-4 / (1e-4 + 1 / 100 / (25 / 12)), 12);
  expect(harmonic(4)).toBeCloseTo(25 / 12, 12);
  expect(sifWeight(1000, 1e-4, 1)).toBeLessThan(sifWeight(2000, 1e-4, 1));
});

test('the vocabulary keeps only words the pre-tokenizer can emit', () => {
  expect(['the', 'café', 'covid19', '±'].map(isPreTokenizerWord)).toEqual([true, true, true, true]);
  expect([',', "don't", 'e-mail', 'u.s.', 'a b'].map(isPreTokenizerWord)).toEqual([false, false, false, false, false]);
  const table = buildStaticTable(glove, { kind: 'sif', a: 0.5 });
  expect(table.vocab).toEqual(['[PAD]', '[UNK]', 'the', 'cat', 'café', 'zinc']);
  expect(Array.from(table.table.subarray(0, 6))).toEqual([0, 0, 0, 0, 0, 0]);
  // 'cat' has rank 3: weight 0.5 / (0.5 + 1/3) = 0.6.
  expect(Array.from(table.table.subarray(3 * 3, 4 * 3)).map((x) => +x.toFixed(6))).toEqual([0, 0.6, 0]);
  expect(Array.from(buildStaticTable(glove, { kind: 'none' }).table.subarray(3 * 3, 4 * 3))).toEqual([0, 1, 0]);
});

test('the ONNX graph is a masked mean of the table rows (onnxruntime-node)', async () => {
  const table = buildStaticTable(glove, { kind: 'none' });
  const ids = new ort.Tensor('int64', BigInt64Array.from([2n, 3n, 0n, 4n, 1n, 5n]), [2, 3]);
  const mask = new ort.Tensor('int64', BigInt64Array.from([1n, 1n, 0n, 1n, 1n, 1n]), [2, 3]);
  for (const [bytes, tolerance] of [[staticModelFp32(table, 't'), 1e-7], [staticModelQ8(table, 't'), 1 / 127]] as const) {
    const session = await ort.InferenceSession.create(bytes);
    const { last_hidden_state: out } = await session.run({ input_ids: ids, attention_mask: mask });
    expect(out!.dims).toEqual([2, 3]);
    // Row 0: (the + cat) / 2; row 1: (café + [UNK] + zinc) / 3, [UNK] being zero.
    const expected = [0.5, 0.5, 0, 1 / 3, 1 / 3, 2 / 3];
    Array.from(out!.data as Float32Array).forEach((x, i) => expect(Math.abs(x - expected[i]!)).toBeLessThanOrEqual(tolerance));
    await session.release();
  }
});

test('the tokenizer files load in transformers.js and look words up whole', async () => {
  const table = buildStaticTable(glove, { kind: 'none' });
  mkdirSync(join(dir, 'glove-mini'), { recursive: true });
  writeFileSync(join(dir, 'glove-mini', 'tokenizer.json'), JSON.stringify(wordTokenizerJson(table.vocab)));
  writeFileSync(join(dir, 'glove-mini', 'tokenizer_config.json'), JSON.stringify(wordTokenizerConfig(16)));
  env.localModelPath = `${dir}/`;
  env.allowLocalModels = true;
  env.allowRemoteModels = false;
  const tokenizer = await AutoTokenizer.from_pretrained('glove-mini');
  const { input_ids, attention_mask } = tokenizer(['The CAT, café!', 'zinc cats'], { padding: true, truncation: true });
  // "the cat , café !" → the, cat, [UNK], café, [UNK]; "zinc cats" → zinc, [UNK] (no sub-word pieces), padded.
  expect(input_ids.tolist()).toEqual([
    [2n, 3n, 1n, 4n, 1n],
    [5n, 1n, 0n, 0n, 0n],
  ]);
  expect(attention_mask.tolist()).toEqual([
    [1n, 1n, 1n, 1n, 1n],
    [1n, 1n, 0n, 0n, 0n],
  ]);
});
