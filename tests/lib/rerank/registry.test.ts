/**
 * The re-ranker registry and the test model's files: the hub layout of a cross-encoder
 * (Xenova/ms-marco-MiniLM-L-6-v2: config.json with BertForSequenceClassification and one label, the tokenizer
 * files, onnx/model.onnx and onnx/model_quantized.onnx), and a missing model failing with a message that
 * names the file.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { MODELS_DIR } from '../../../src/cli/dense.ts';
import { ModelLoadError } from '../../../src/lib/dense/embedder.ts';
import { configureModelSource } from '../../../src/lib/dense/model-source.ts';
import { loadCrossEncoder } from '../../../src/lib/rerank/cross-encoder.ts';
import { DEFAULT_RERANKER, RERANKER_REGISTRY, resolveRerankerSpec, TEST_RERANKER } from '../../../src/lib/rerank/registry.ts';
import { ensureModels } from '../dense/models-fixture.ts';

describe('reranker registry', () => {
  test('ids are unique, each default dtype is offered, the default and the test model are listed', () => {
    const ids = RERANKER_REGISTRY.map((spec) => spec.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const spec of RERANKER_REGISTRY) expect(spec.dtypes).toContain(spec.defaultDtype);
    expect(ids).toContain(DEFAULT_RERANKER);
    expect(ids).toContain(TEST_RERANKER);
    expect(RERANKER_REGISTRY.some((spec) => spec.languages.includes('pl'))).toBe(true);
    expect(resolveRerankerSpec(TEST_RERANKER).source).toBe('local');
    expect(resolveRerankerSpec('someone/other-reranker')).toMatchObject({ source: 'hub', kind: 'cross-encoder', maxLength: 0 });
  });
});

describe('local/tiny-cross-encoder files', () => {
  test('have the layout and config fields of a hub cross-encoder', () => {
    ensureModels('tiny-cross-encoder');
    const dir = join(MODELS_DIR, TEST_RERANKER);
    for (const file of ['config.json', 'tokenizer.json', 'tokenizer_config.json', 'special_tokens_map.json', 'vocab.txt', 'onnx/model.onnx', 'onnx/model_quantized.onnx']) {
      expect(existsSync(join(dir, file)), file).toBe(true);
    }
    const config = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')) as Record<string, unknown>;
    expect(config).toMatchObject({ architectures: ['BertForSequenceClassification'], model_type: 'bert', id2label: { '0': 'LABEL_0' }, max_position_embeddings: 512 });
    const tokenizer = JSON.parse(readFileSync(join(dir, 'tokenizer.json'), 'utf8')) as Record<string, unknown>;
    // The source tokenizer's fixed 128-token truncation and padding would cut every pair at 128.
    expect(tokenizer.truncation).toBeNull();
    expect(tokenizer.padding).toBeNull();
  });

  test('a missing model is a ModelLoadError naming the file', async () => {
    const spec = resolveRerankerSpec('local/no-such-cross-encoder');
    configureModelSource(spec, { localModelPath: MODELS_DIR });
    const loading = loadCrossEncoder({ spec, device: 'cpu', dtype: 'fp32' });
    await expect(loading).rejects.toBeInstanceOf(ModelLoadError);
    await expect(loading).rejects.toThrow(/local\/no-such-cross-encoder.*(tokenizer|config\.json|onnx)/s);
  });
});
