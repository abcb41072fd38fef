/**
 * A model whose fp16 file outputs float16 (as exports made with fp16 inputs and outputs do; transformers.js's
 * own conversion keeps float32 at the graph's edges): pooling must run on the values, not on the 16-bit
 * patterns onnxruntime-node hands out where there is no Float16Array (lookup-model-fixture.ts; the page:
 * tests/browser/fp16-model.test.ts). The expected mean is computed here from the ids the model reads.
 */
import { AutoTokenizer } from '@huggingface/transformers';
import { beforeAll, expect, test } from 'vitest';
import { loadEmbedder } from '../../../src/lib/dense/embedder.ts';
import { configureModelSource } from '../../../src/lib/dense/model-source.ts';
import { customModelSpec, type EmbeddingDtype } from '../../../src/lib/dense/registry.ts';
import { matrixRow } from '../../../src/lib/dense/vector-matrix.ts';
import { tempDir } from '../../temp-dir.ts';
import { lookupMean, writeLookupModel } from './lookup-model-fixture.ts';

const MAX_LENGTH = 16;
const dir = tempDir('rp-fp16-');
const id = 'fp16-test/lookup';
let tokenizer: { encode(text: string, options: { add_special_tokens: boolean }): number[] };

beforeAll(async () => {
  writeLookupModel(dir, id);
  configureModelSource({ source: 'local' }, { localModelPath: dir });
  tokenizer = (await AutoTokenizer.from_pretrained(id)) as unknown as typeof tokenizer;
});

async function embed(dtype: EmbeddingDtype, texts: string[]) {
  const spec = customModelSpec(id, { source: 'local', pooling: 'mean', normalize: false, maxLength: MAX_LENGTH, dtypes: ['fp32', 'fp16'] });
  configureModelSource(spec, { localModelPath: dir });
  const embedder = await loadEmbedder({ spec, device: 'cpu', dtype });
  try {
    return await embedder.embed(texts, { batchSize: texts.length });
  } finally {
    await embedder.dispose();
  }
}

test('mean pooling of a float16 output gives the mean of the values, as the float32 output does', async () => {
  const texts = ['zinc deficiency impairs immune response in mice', 'short', 'a much longer text about cells that the model cuts at sixteen tokens of which it reads fourteen'];
  const [full, half] = [await embed('fp32', texts), await embed('fp16', texts)];
  texts.forEach((text, row) => {
    const expected = lookupMean(tokenizer.encode(text, { add_special_tokens: false }), MAX_LENGTH);
    Array.from(matrixRow(half, row)).forEach((x, k) => expect(x).toBeCloseTo(expected[k]!, 6));
    expect(Array.from(matrixRow(half, row))).toEqual(Array.from(matrixRow(full, row)));
  });
});
