/**
 * The model2vec code path (flat input_ids + offsets, as minishlab/potion-* are exported) on a local test
 * model: its vectors must equal those of the same word table run through the pooled static path, and a
 * hand-computed mean.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../../temp-dir.ts';
import { expect, test } from 'vitest';
import { loadEmbedder } from '../../../src/lib/dense/embedder.ts';
import { configureModelSource } from '../../../src/lib/dense/model-source.ts';
import { customModelSpec } from '../../../src/lib/dense/registry.ts';
import { matrixRow } from '../../../src/lib/dense/vector-matrix.ts';
import { buildStaticTable, staticModelFp32, wordTokenizerConfig, wordTokenizerJson } from '../../../scripts/models/glove-static.ts';
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
