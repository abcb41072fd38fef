/**
 * A model whose fp16 file outputs float16 (as exports made with fp16 inputs and outputs do; transformers.js's
 * own conversion keeps float32 at the graph's edges): pooling must run on the values, not on the 16-bit
 * patterns onnxruntime-node hands out where there is no Float16Array. The test model looks each token's row
 * up in a table of multiples of 1/8 (exact in fp16) and outputs it as float32 (model.onnx) or float16
 * (model_fp16.onnx); the expected mean is computed here from the ids the model reads.
 */
import { AutoTokenizer } from '@huggingface/transformers';
import { beforeAll, expect, test } from 'vitest';
import { DataType, encodeModel, floatTensor, node, valueInfo } from '../../../scripts/models/onnx-builder.ts';
import { loadEmbedder } from '../../../src/lib/dense/embedder.ts';
import { configureModelSource } from '../../../src/lib/dense/model-source.ts';
import { customModelSpec, type EmbeddingDtype } from '../../../src/lib/dense/registry.ts';
import { matrixRow } from '../../../src/lib/dense/vector-matrix.ts';
import { tempDir } from '../../temp-dir.ts';
import { sharedTokenizer, writeModelFolder } from './echo-model-fixture.ts';

const DIM = 4;
const MAX_LENGTH = 16;
const files = sharedTokenizer('all-MiniLM-L6-v2');
const vocab = (files.json.model as { vocab: Record<string, number> }).vocab;
const rows = Object.keys(vocab).length;
const table = Float32Array.from({ length: rows * DIM }, (_, i) => (((i * 7) % 64) - 32) / 8);

function lookupModel(output: 'float32' | 'float16'): Uint8Array {
  const half = output === 'float16';
  return encodeModel({
    name: `lookup_${output}`,
    doc: 'Token states = table rows (test model).',
    inputs: [
      valueInfo('input_ids', DataType.INT64, ['batch_size', 'sequence_length']),
      valueInfo('attention_mask', DataType.INT64, ['batch_size', 'sequence_length']),
      valueInfo('token_type_ids', DataType.INT64, ['batch_size', 'sequence_length']),
    ],
    outputs: [valueInfo('last_hidden_state', half ? DataType.FLOAT16 : DataType.FLOAT, ['batch_size', 'sequence_length', DIM])],
    initializers: [floatTensor('table', [rows, DIM], table)],
    nodes: half
      ? [node('Gather', ['table', 'input_ids'], ['states'], { axis: 0 }), node('Cast', ['states'], ['last_hidden_state'], { to: DataType.FLOAT16 })]
      : [node('Gather', ['table', 'input_ids'], ['last_hidden_state'], { axis: 0 })],
  });
}

const dir = tempDir('rp-fp16-');
const id = 'fp16-test/lookup';
let tokenizer: { encode(text: string, options: { add_special_tokens: boolean }): number[] };

beforeAll(async () => {
  writeModelFolder(dir, id, {
    config: { model_type: 'bert', architectures: ['BertModel'], max_position_embeddings: 512 },
    tokenizer: files,
    onnx: { 'model.onnx': lookupModel('float32'), 'model_fp16.onnx': lookupModel('float16') },
  });
  configureModelSource({ source: 'local' }, { localModelPath: dir });
  tokenizer = (await AutoTokenizer.from_pretrained(id)) as unknown as typeof tokenizer;
});

/** The mean of the rows of [CLS], the first MAX_LENGTH − 2 tokens, [SEP]. */
function expectedMean(text: string): number[] {
  const ids = [vocab['[CLS]']!, ...tokenizer.encode(text, { add_special_tokens: false }).slice(0, MAX_LENGTH - 2), vocab['[SEP]']!];
  return Array.from({ length: DIM }, (_, k) => ids.reduce((sum, i) => sum + table[i * DIM + k]!, 0) / ids.length);
}

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
    const expected = expectedMean(text);
    Array.from(matrixRow(half, row)).forEach((x, k) => expect(x).toBeCloseTo(expected[k]!, 6));
    expect(Array.from(matrixRow(half, row))).toEqual(Array.from(matrixRow(full, row)));
  });
});
