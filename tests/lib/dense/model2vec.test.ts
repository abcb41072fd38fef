/**
 * The model2vec code path (flat input_ids + offsets, as minishlab/potion-* are exported) on a local test
 * model: its vectors must equal those of the same word table run through the pooled static path, and a
 * hand-computed mean; unknown tokens are dropped as model2vec drops them.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../../temp-dir.ts';
import { AutoTokenizer } from '@huggingface/transformers';
import { beforeAll, describe, expect, test } from 'vitest';
import { loadEmbedder } from '../../../src/lib/dense/embedder.ts';
import { configureModelSource } from '../../../src/lib/dense/model-source.ts';
import { customModelSpec } from '../../../src/lib/dense/registry.ts';
import { matrixRow } from '../../../src/lib/dense/vector-matrix.ts';
import { buildStaticTable, staticModelFp32, wordTokenizerConfig, wordTokenizerJson } from '../../../scripts/models/glove-static.ts';
import { sharedTokenizer } from './echo-model-fixture.ts';
import { writeModel2vecModel } from './model2vec-fixture.ts';

const dir = tempDir('rp-m2v-');

const words = ['the', 'cat', 'sat', 'on', 'mat', 'zinc'];
const vectors = Float32Array.from({ length: words.length * 4 }, (_, i) => Math.sin(i + 1));
const table = buildStaticTable({ words, dim: 4, vectors }, { kind: 'none' });

function writePooled(name: string): void {
  mkdirSync(join(dir, name, 'onnx'), { recursive: true });
  writeFileSync(join(dir, name, 'onnx', 'model.onnx'), staticModelFp32(table, 'pooled'));
  writeFileSync(join(dir, name, 'tokenizer.json'), JSON.stringify(wordTokenizerJson(table.vocab)));
  writeFileSync(join(dir, name, 'tokenizer_config.json'), JSON.stringify(wordTokenizerConfig(512)));
  writeFileSync(join(dir, name, 'config.json'), JSON.stringify({ model_type: 'custom' }));
}

async function embedWith(name: string, kind: 'model2vec' | 'static-pooled', texts: string[]) {
  const spec = customModelSpec(`m2v-test/${name}`, { kind, source: 'local', pooling: 'none', dtypes: ['fp32'] });
  configureModelSource(spec, { localModelPath: dir });
  const embedder = await loadEmbedder({ spec, device: 'cpu', dtype: 'fp32' });
  const m = await embedder.embed(texts, { batchSize: texts.length });
  await embedder.dispose();
  return m;
}

test('model2vec offsets path equals the pooled static path and a hand-computed mean', async () => {
  mkdirSync(join(dir, 'm2v-test'), { recursive: true });
  writeModel2vecModel(join(dir, 'm2v-test'), 'bag', table);
  writePooled(join('m2v-test', 'pooled'));
  const texts = ['The cat sat on the mat.', 'zinc', 'unknown words only', 'cat, cat; CAT!'];
  const bag = await embedWith('bag', 'model2vec', texts);
  const pooled = await embedWith('pooled', 'static-pooled', texts);
  expect(bag.dim).toBe(4);
  for (let i = 0; i < bag.data.length; i++) expect(Math.abs(bag.data[i]! - pooled.data[i]!)).toBeLessThan(1e-6);
  // "cat, cat; CAT!" is the cat vector, normalized.
  const cat = vectors.subarray(4, 8);
  const norm = Math.hypot(...cat);
  Array.from(matrixRow(bag, 3)).forEach((x, i) => expect(x).toBeCloseTo(cat[i]! / norm, 6));
  expect(Array.from(matrixRow(bag, 2))).toEqual([0, 0, 0, 0]);
});

/**
 * model2vec's StaticModel drops the unknown token before averaging (and before cutting to max_length), so
 * emoji and unseen scripts add nothing. A potion-like model: all-MiniLM-L6-v2's WordPiece tokenizer (as
 * potion-base-8M uses a BERT uncased vocabulary) over a table whose every row, [UNK]'s too, is non-zero.
 */
describe('unknown tokens (WordPiece, as potion)', () => {
  const files = sharedTokenizer('all-MiniLM-L6-v2');
  const vocab = Object.keys((files.json.model as { vocab: Record<string, number> }).vocab);
  const dim = 3;
  const rows = Float32Array.from({ length: vocab.length * dim }, (_, i) => 1 + ((i * 37) % 11));
  const unkId = (files.json.model as { vocab: Record<string, number> }).vocab['[UNK]']!;
  let tokenizer: { encode(text: string, options: { add_special_tokens: boolean }): number[] };

  beforeAll(async () => {
    mkdirSync(join(dir, 'm2v-test'), { recursive: true });
    writeModel2vecModel(join(dir, 'm2v-test'), 'wordpiece', { vocab, table: rows, dim }, files);
    configureModelSource({ source: 'local' }, { localModelPath: dir });
    tokenizer = (await AutoTokenizer.from_pretrained('m2v-test/wordpiece')) as unknown as typeof tokenizer;
  });

  /** The mean of the rows of the text's known tokens (no special tokens), computed here. */
  function knownMean(ids: readonly number[]): number[] {
    const known = ids.filter((id) => id !== unkId);
    return Array.from({ length: dim }, (_, k) => (known.length === 0 ? 0 : known.reduce((sum, id) => sum + rows[id * dim + k]!, 0) / known.length));
  }

  async function embed(texts: string[], maxLength: number) {
    const spec = customModelSpec('m2v-test/wordpiece', { kind: 'model2vec', source: 'local', pooling: 'none', normalize: false, maxLength, dtypes: ['fp32'] });
    configureModelSource(spec, { localModelPath: dir });
    const embedder = await loadEmbedder({ spec, device: 'cpu', dtype: 'fp32' });
    try {
      return await embedder.embed(texts, { batchSize: texts.length });
    } finally {
      await embedder.dispose();
    }
  }

  test('a text with unknown tokens is the mean of its known tokens’ rows only', async () => {
    const texts = ['zinc 😀 deficiency 🧬 in mice', 'ᚠᚢᚦᚨᚱᚲ runes and zinc', 'zinc deficiency in mice', '😀 🧬 ᚠᚢᚦ'];
    const ids = texts.map((text) => tokenizer.encode(text, { add_special_tokens: false }));
    // Not vacuous: the first, second and last texts hold [UNK], the last nothing else.
    expect(ids.map((tokens) => tokens.includes(unkId))).toEqual([true, true, false, true]);
    const m = await embed(texts, 512);
    texts.forEach((_, row) => {
      const expected = knownMean(ids[row]!);
      Array.from(matrixRow(m, row)).forEach((x, k) => expect(x).toBeCloseTo(expected[k]!, 5));
    });
    expect(Array.from(matrixRow(m, 3))).toEqual([0, 0, 0]);
  });

  test('unknown tokens are dropped before the cut to maxLength', async () => {
    const text = '😀 😀 😀 😀 zinc mice';
    const ids = tokenizer.encode(text, { add_special_tokens: false });
    expect(ids.slice(0, 4).every((id) => id === unkId)).toBe(true);
    const m = await embed([text], 4);
    const expected = knownMean(ids);
    Array.from(matrixRow(m, 0)).forEach((x, k) => expect(x).toBeCloseTo(expected[k]!, 5));
  });
});
