/**
 * An XLM-R-shaped cross-encoder whose config.json names no model_type, as jinaai/jina-reranker-v2-base-multilingual's:
 * a SentencePiece tokenizer with `<s> q </s></s> d </s>` pairs (tests/lib/dense/sentencepiece-fixture.ts), a
 * session that takes input_ids and attention_mask only, and a logit that is a known function of the ids —
 * Σ over attended tokens of w(id), w = 0 for the special ids and 1, 1.25 or 1.5 otherwise (exact in fp16 for
 * these short pairs). It loads with the registry's model type, scores, and reads fp16 logits as values.
 */
import { AutoTokenizer } from '@huggingface/transformers';
import { beforeAll, describe, expect, test } from 'vitest';
import { DataType, encodeModel, floatTensor, int64Tensor, node, valueInfo } from '../../../scripts/models/onnx-builder.ts';
import { configureModelSource } from '../../../src/lib/dense/model-source.ts';
import type { EmbeddingDtype } from '../../../src/lib/dense/registry.ts';
import { loadCrossEncoder } from '../../../src/lib/rerank/cross-encoder.ts';
import { rerankerSpec, resolveRerankerSpec } from '../../../src/lib/rerank/registry.ts';
import { tempDir } from '../../temp-dir.ts';
import { writeModelFolder } from '../dense/echo-model-fixture.ts';
import { SP_SPECIALS, sentencePieceTokenizer, sentencePieceVocab } from '../dense/sentencepiece-fixture.ts';

const vocabSize = sentencePieceVocab().length;
const special = new Set(SP_SPECIALS.map((piece) => sentencePieceVocab().findIndex(([p]) => p === piece)));

function weight(id: number): number {
  return special.has(id) ? 0 : 1 + (id % 3) / 4;
}

function xlmrCrossEncoder(output: 'float32' | 'float16'): Uint8Array {
  const half = output === 'float16';
  return encodeModel({
    name: `tiny_xlmr_cross_encoder_${output}`,
    doc: 'logit = Σ attended w(id) (test model).',
    inputs: [valueInfo('input_ids', DataType.INT64, ['batch_size', 'sequence_length']), valueInfo('attention_mask', DataType.INT64, ['batch_size', 'sequence_length'])],
    outputs: [valueInfo('logits', half ? DataType.FLOAT16 : DataType.FLOAT, ['batch_size', 1])],
    initializers: [floatTensor('token_weight', [vocabSize], Float32Array.from({ length: vocabSize }, (_, id) => weight(id))), int64Tensor('axis_1', [1])],
    nodes: [
      node('Gather', ['token_weight', 'input_ids'], ['w'], { axis: 0 }),
      node('Cast', ['attention_mask'], ['mask_f'], { to: DataType.FLOAT }),
      node('Mul', ['w', 'mask_f'], ['masked']),
      node('ReduceSum', ['masked', 'axis_1'], [half ? 'sum' : 'logits'], { keepdims: 1 }),
      ...(half ? [node('Cast', ['sum'], ['logits'], { to: DataType.FLOAT16 })] : []),
    ],
  });
}

const dir = tempDir('rp-xlmr-ce-');
const id = 'xlmr-test/tiny-cross-encoder';
const files = sentencePieceTokenizer('template');
let tokenizer: { encode(text: string, options: { add_special_tokens: boolean }): number[] };

beforeAll(async () => {
  writeModelFolder(dir, id, {
    // As jina-reranker-v2's: architectures, positions, one label — and no model_type.
    config: { architectures: ['XLMRobertaForSequenceClassification'], max_position_embeddings: 514, num_labels: 1, id2label: { '0': 'LABEL_0' } },
    tokenizer: files,
    onnx: { 'model.onnx': xlmrCrossEncoder('float32'), 'model_fp16.onnx': xlmrCrossEncoder('float16') },
  });
  configureModelSource({ source: 'local' }, { localModelPath: dir });
  tokenizer = (await AutoTokenizer.from_pretrained(id)) as unknown as typeof tokenizer;
});

const spec = (overrides: { modelType?: string } = {}) => resolveRerankerSpec(id, { source: 'local', dtypes: ['fp32', 'fp16'], ...overrides });

/** Loads the test model with the given registry model type (none: null). */
async function load(dtype: EmbeddingDtype, modelType: string | null = 'xlm-roberta') {
  const model = spec(modelType === null ? {} : { modelType });
  configureModelSource(model, { localModelPath: dir });
  return loadCrossEncoder({ spec: model, device: 'cpu', dtype, cache: false });
}

describe('a cross-encoder whose config.json has no model_type', () => {
  test('the registry gives jinaai’s re-ranker its model type', () => {
    expect(rerankerSpec('jinaai/jina-reranker-v2-base-multilingual')?.modelType).toBe('xlm-roberta');
  });

  test('without a model type it fails with a message that says what is missing', async () => {
    await expect(load('fp32', null)).rejects.toThrow(/names no model_type/);
  });

  test.each(['fp32', 'fp16'] as const)('with the registry’s model type it loads and scores (%s)', async (dtype) => {
    const model = await load(dtype);
    try {
      expect(model.maxLength).toBe(512);
      const query = 'zinc in cells';
      const docs = ['zinc deficiency impairs the immune response of mice', 'the protein expression of cancer cells', 'ąęł niewiadome słowa'];
      const scores = await model.score(query, docs.map((text, i) => ({ id: String(i), text })));
      const q = tokenizer.encode(query, { add_special_tokens: false });
      docs.forEach((text, i) => {
        const d = tokenizer.encode(text, { add_special_tokens: false });
        // <s> q </s></s> d </s>, built here from the ids of <s> (0) and </s> (2).
        const ids = [0, ...q, 2, 2, ...d, 2];
        expect(model.encode(query, text).ids).toEqual(ids);
        expect(scores[i]).toBe(ids.reduce((sum, token) => sum + weight(token), 0));
      });
      expect(new Set(scores).size).toBe(3);
    } finally {
      await model.dispose();
    }
  });
});
