/** One seed, one model: the same settings give the same model file byte for byte, and the same run. */
import { describe, expect, it } from 'vitest';
import { Augmenter } from '../../../src/lib/augment/augmenter.ts';
import { formatModelFile, parseModelFile, type AugmentModel } from '../../../src/lib/augment/model-file.ts';
import { AugmentIndexSearch } from '../../../src/lib/augment/index-search.ts';
import { trainAugmenter, type TrainSettings } from '../../../src/lib/augment/train.ts';
import { rankBatch } from '../../../src/lib/retrievers/rank.ts';
import { SYNTHETIC_SETTINGS, syntheticCollection } from './synthetic.ts';

async function trainedFile(settings: TrainSettings): Promise<string> {
  const { index, encoder, bm25, train, test } = syntheticCollection();
  const result = await trainAugmenter({ index, encoder, bm25, train, heldOut: test }, settings);
  const model: AugmentModel = {
    bm25,
    encoderModel: encoder.id,
    params: result.params,
    training: {
      collection: 'synthetic',
      split: 'train',
      queries: result.examples,
      heldOut: { kind: 'split', split: 'test', queries: test.queries.length },
      settings,
      history: result.history.map(({ ms: _ms, ...epoch }) => epoch),
      ...(result.baseline === undefined ? {} : { baseline: result.baseline }),
    },
  };
  return formatModelFile(model);
}

describe('determinism', () => {
  const settings = { ...SYNTHETIC_SETTINGS, epochs: 8, trainRows: true };

  it('the same seed gives the same model file; another seed another', async () => {
    const first = await trainedFile(settings);
    expect(await trainedFile(settings)).toBe(first);
    expect(await trainedFile({ ...settings, seed: settings.seed + 1 })).not.toBe(first);
  });

  it('the same seed gives the same run, hit for hit and score for score', async () => {
    const runOf = async () => {
      const { index, encoder, bm25, test } = syntheticCollection();
      const model = parseModelFile(await trainedFile(settings));
      const search = new AugmentIndexSearch(index, encoder.analyzer, new Map([['m', new Augmenter(model.params, encoder)]]));
      return rankBatch(search, { kind: 'augmented', bm25, augmenter: { key: 'm', name: 'm', collection: 'synthetic', split: 'train' } }, test.queries, { form: 'parts' });
    };
    const first = await runOf();
    expect(first.some((ranking) => (ranking?.hits.length ?? 0) > 0)).toBe(true);
    expect(await runOf()).toEqual(first);
  });

  it('a model file read back expands every query as the model did', async () => {
    const text = await trainedFile(settings);
    const model = parseModelFile(text);
    expect(formatModelFile(model)).toBe(text);
    const { encoder, test } = syntheticCollection();
    const again = parseModelFile(text);
    for (const query of test.queries) expect(new Augmenter(model.params, encoder).expand(query.text)).toEqual(new Augmenter(again.params, encoder).expand(query.text));
  });

  it('a batch of queries expands exactly as each query alone', async () => {
    const model = parseModelFile(await trainedFile(settings));
    const { encoder, test } = syntheticCollection();
    const augmenter = new Augmenter(model.params, encoder);
    const texts = test.queries.map((query) => query.text);
    expect(augmenter.expandMany(texts)).toEqual(texts.map((text) => augmenter.expand(text)));
    expect(await augmenter.expandBatch(texts)).toEqual(augmenter.expandMany(texts));
  });

  it('names what is wrong with a file that is not a model', () => {
    expect(() => parseModelFile('{"format":"x"}', 'm.json')).toThrow(/m.json: not a query-augmentation model/);
    expect(() => parseModelFile('nope', 'm.json')).toThrow(/m.json: not JSON/);
  });
});
