/**
 * The frozen transformer encoder (local/tiny-bert on onnxruntime-node): its sentence vector is the dense
 * embedder's (the reference: loadEmbedder's pooled vector of the same text, before normalization), a term's
 * vector is its own token's state under the wordpiece analyzer and its word's mean under another, and it
 * trains on the synthetic collection whose queries share no word with their documents.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Augmenter } from '../../../src/lib/augment/augmenter.ts';
import { formatModelFile } from '../../../src/lib/augment/model-file.ts';
import { TransformerQueryEncoder } from '../../../src/lib/augment/transformer-encoder.ts';
import { measureHeldOut, trainAugmenter } from '../../../src/lib/augment/train.ts';
import { createAnalyzer } from '../../../src/lib/analysis/analyzers.ts';
import { loadTransformerSession } from '../../../src/lib/dense/embedder.ts';
import { configureModelSource } from '../../../src/lib/dense/model-source.ts';
import { loadAnalyzer } from '../../../src/cli/analyzer.ts';
import { loadNodeEmbedder, resolveNodeModel } from '../../../src/cli/dense.ts';
import { ensureModels } from '../dense/models-fixture.ts';
import { SYNTHETIC_SETTINGS, syntheticCollection } from './synthetic.ts';
import type { Analyzer } from '../../../src/lib/analysis/analyzer.ts';

async function tinyBert(analyzer: Analyzer): Promise<TransformerQueryEncoder> {
  const model = resolveNodeModel('local/tiny-bert');
  configureModelSource(model.spec, { localModelPath: model.localModelPath });
  const session = await loadTransformerSession({ spec: model.spec, device: 'cpu', dtype: 'fp32' });
  return TransformerQueryEncoder.open(model.spec.id, analyzer, session, 'fp32');
}

function norm(vector: ArrayLike<number>): number {
  return Math.hypot(...Array.from(vector));
}

describe('TransformerQueryEncoder (local/tiny-bert)', () => {
  let wordpiece: TransformerQueryEncoder;
  let english: TransformerQueryEncoder;

  beforeAll(async () => {
    ensureModels('tiny-bert');
    wordpiece = await tinyBert(await loadAnalyzer('wordpiece'));
    english = await tinyBert(await loadAnalyzer('english'));
  }, 60_000);

  afterAll(async () => {
    await wordpiece?.dispose();
    await english?.dispose();
  });

  it("enc(q)₀ is the embedder's sentence vector of the query (mean pooling), before normalization", async () => {
    const texts = ['tumorigenesis in mice', 'what causes rain', 'a b, c. d'];
    const encoded = await wordpiece.encodeMany(texts);
    const embedder = await loadNodeEmbedder(resolveNodeModel('local/tiny-bert'), 'fp32');
    const reference = await embedder.embed(texts, { batchSize: 1 });
    await embedder.dispose();
    expect(wordpiece.dim).toBe(reference.dim);
    encoded.forEach(({ sentence }, i) => {
      const vector = sentence.vector!;
      expect(sentence.rows.length).toBe(0);
      const scaled = Array.from(vector, (x) => x / norm(vector));
      scaled.forEach((x, c) => expect(x).toBeCloseTo(reference.data[i * reference.dim + c]!, 4));
    });
  });

  it('wordpiece terms get their own token states; an English term gets the mean of its word’s tokens', async () => {
    const [pieces] = await wordpiece.encodeMany(['tumorigenesis']);
    const [stemmed] = await english.encodeMany(['tumorigenesis']);
    expect(pieces!.terms.length).toBeGreaterThan(1);
    expect(stemmed!.terms.length).toBe(1);
    const states = pieces!.termMixes.map((mix) => mix.vector!);
    // Distinct tokens, distinct states (a word-level mean would give them one vector).
    expect(states[0]).not.toEqual(states[1]);
    const mean = states[0]!.map((_, c) => states.reduce((sum, state) => sum + state[c]!, 0) / states.length);
    stemmed!.termMixes[0]!.vector!.forEach((x, c) => expect(x).toBeCloseTo(mean[c]!, 5));
  });

  it('has an encoding only for texts it encoded (the session runs in batches), and no rows to train', async () => {
    expect(() => wordpiece.encode('never seen before')).toThrow(/was not encoded yet/);
    const [encoded] = await wordpiece.encodeMany(['never seen before']);
    expect(wordpiece.encode('never seen before')).toBe(encoded);
    const { index, bm25, train } = syntheticCollection();
    await expect(trainAugmenter({ index, bm25, encoder: english, train }, { ...SYNTHETIC_SETTINGS, trainRows: true })).rejects.toThrow(/frozen encoder/);
  });
});

describe('training with the frozen tiny BERT on the collection whose queries share no word with their documents', () => {
  let encoder: TransformerQueryEncoder;

  beforeAll(async () => {
    ensureModels('tiny-bert');
    encoder = await tinyBert(createAnalyzer('standard'));
  }, 60_000);

  afterAll(async () => {
    await encoder?.dispose();
  });

  it('ranks the held-out test pairs’ documents where BM25 finds nothing, and one seed gives one model file', async () => {
    const { index, bm25, train, test } = syntheticCollection();
    const result = await trainAugmenter({ index, encoder, bm25, train, heldOut: test }, SYNTHETIC_SETTINGS);
    const measure = await measureHeldOut(index, new Augmenter(result.params, encoder), bm25, test);
    expect(result.baseline!.ndcg_cut_10).toBe(0);
    expect(result.history.at(-1)!.loss).toBeLessThan(result.history[0]!.loss);
    expect(measure.ndcg_cut_10).toBeGreaterThan(0.6);
    const file = (params: typeof result.params) =>
      formatModelFile({ bm25, encoderModel: encoder.id, encoderDtype: encoder.dtype, params, training: { collection: 'synthetic', split: 'train', queries: 0, heldOut: { kind: 'none' }, settings: SYNTHETIC_SETTINGS, history: [] } });
    const again = await trainAugmenter({ index, encoder, bm25, train, heldOut: test }, SYNTHETIC_SETTINGS);
    expect(file(again.params)).toBe(file(result.params));
  }, 120_000);
});
