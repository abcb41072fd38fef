/**
 * The Learn worker's training API (AugmentTrainingService) on the synthetic collection of tests/lib/augment
 * (queries and their relevant documents share no word), stored in fake-indexeddb as an import stores it:
 * it trains over the BM25 service's index and stores the model; the held-out measure rises above plain BM25's
 * (which scores 0 here); the same seed stores the same model file text; a Cancel stops the run and stores
 * nothing; "rows trained" trains and stores table rows; the evaluated split is refused. With the frozen
 * transformer local/tiny-bert it stores the model file the CLI's training (loadQueryEncoder + trainOnSplits,
 * as train-augment runs them) writes for the same split and settings, and refuses "rows trained".
 */
import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseModelFile } from '../../../src/lib/augment/model-file.ts';
import type { EpochReport, HeldOutMeasure } from '../../../src/lib/augment/train.ts';
import type { Judgment } from '../../../src/lib/data/qrels.ts';
import { AugmentTrainingService, encoderProblem, learnRequestProblem, type LearnRequest } from '../../../src/lib/services/augment-training-service.ts';
import { Bm25Service } from '../../../src/lib/services/bm25-service.ts';
import { listAugmentModels, readAugmentModel } from '../../../src/lib/storage/augment-models.ts';
import { importCollection } from '../../../src/lib/storage/collections.ts';
import { PlaygroundDatabase } from '../../../src/lib/storage/db.ts';
import type { Qrels } from '../../../src/lib/types.ts';
import { SYNTHETIC_SETTINGS, syntheticCollection } from '../augment/synthetic.ts';
import { ensureModels } from '../dense/models-fixture.ts';
import { nodeEncoders } from './node-encoders.ts';
import { trainOnSplits } from '../../../src/lib/augment/splits.ts';
import { formatModelFile } from '../../../src/lib/augment/model-file.ts';
import { loadQueryEncoder } from '../../../src/cli/augment-model.ts';
import { kernelModule } from '../bm25-wasm/fixtures.ts';

const COLLECTION = 'synthetic';
const synthetic = syntheticCollection();
let db: PlaygroundDatabase;

async function* items<T>(list: readonly T[]): AsyncGenerator<T> {
  for (const item of list) yield item;
}

function judgments(qrels: Qrels): Judgment[] {
  return [...qrels].flatMap(([queryId, docs]) => [...docs].map(([docId, grade]) => ({ queryId, docId, grade })));
}

function service(): AugmentTrainingService {
  return new AugmentTrainingService({
    db,
    bm25: new Bm25Service({ db, loadKernel: kernelModule, locks: null }),
    ...nodeEncoders(synthetic.encoder.table),
  });
}

const REQUEST: LearnRequest = {
  collectionId: COLLECTION,
  split: 'train',
  evaluatedSplit: 'test',
  heldOut: { kind: 'share', share: 0.2 },
  analyzer: 'standard',
  k1: 0.9,
  b: 0.4,
  encoder: 'synthetic',
  settings: { ...SYNTHETIC_SETTINGS, epochs: 12 },
};

beforeAll(async () => {
  db = new PlaygroundDatabase(`augment-training-service-${Math.random().toString(36).slice(2)}`);
  await importCollection(
    db,
    { id: COLLECTION, name: 'Synthetic', source: { kind: 'local', detail: 'test' } },
    {
      documents: items(synthetic.docs),
      queries: items([...synthetic.train.queries, ...synthetic.test.queries]),
      qrels: [
        { split: 'train', judgments: items(judgments(synthetic.train.qrels)) },
        { split: 'test', judgments: items(judgments(synthetic.test.qrels)) },
      ],
    },
    { locks: null },
  );
});

afterAll(async () => {
  await db?.delete();
});

describe('AugmentTrainingService', () => {
  let firstText = '';

  it('trains on train with a seeded held-out share, reports steps and epochs, and stores the model', async () => {
    const steps: number[] = [];
    const epochs: EpochReport[] = [];
    let baseline: HeldOutMeasure | undefined;
    const result = await service().train(REQUEST, (event) => {
      if (event.kind === 'step') steps.push(event.step);
      if (event.kind === 'epoch') epochs.push(event.report);
      if (event.kind === 'baseline') baseline = event.measure;
    });
    expect(epochs.map((e) => e.epoch)).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
    expect(steps.at(-1)).toBe(steps.length);
    // Plain BM25 finds nothing (no shared word); the trained model ranks relevant documents of held-out queries.
    expect(baseline?.ndcg_cut_10).toBe(0);
    expect(epochs.at(-1)!.heldOut!.ndcg_cut_10).toBeGreaterThan(0.3);
    expect(result.training.heldOut).toEqual({ kind: 'share', share: 0.2, queries: 10 });
    expect(result.training.collection).toBe('Synthetic');
    const stored = await readAugmentModel(db, result.key);
    expect(stored).toMatchObject({ key: result.key, collection: 'Synthetic', split: 'train', analyzer: 'standard', encoder: 'synthetic' });
    expect(parseModelFile(stored!.text).training.history).toHaveLength(12);
    firstText = stored!.text;
  });

  it('the same seed stores the same model file text (one row); another seed another', async () => {
    const again = await service().train({ ...REQUEST, name: 'again' });
    expect((await readAugmentModel(db, again.key))!.text).toBe(firstText);
    expect(await listAugmentModels(db)).toHaveLength(1);
    const other = await service().train({ ...REQUEST, settings: { ...REQUEST.settings, seed: 12 } });
    expect((await readAugmentModel(db, other.key))!.text).not.toBe(firstText);
    expect(await listAugmentModels(db)).toHaveLength(2);
  });

  it('a Cancel during training stops it with an AbortError and stores nothing', async () => {
    const before = (await listAugmentModels(db)).length;
    const controller = new AbortController();
    let stepsSeen = 0;
    const run = service().train(
      { ...REQUEST, settings: { ...REQUEST.settings, seed: 99 } },
      (event) => {
        if (event.kind !== 'step') return;
        stepsSeen = event.step;
        if (event.step === 3) controller.abort(new DOMException('cancelled', 'AbortError'));
      },
      controller.signal,
    );
    await expect(run).rejects.toMatchObject({ name: 'AbortError' });
    expect(stepsSeen).toBe(3);
    expect(await listAugmentModels(db)).toHaveLength(before);
  });

  it('refuses the evaluated split, and a held-out split that is the training or evaluated one', async () => {
    await expect(service().train({ ...REQUEST, split: 'test' })).rejects.toThrow(/refusing to train on "test": it is the split Evaluate evaluates/);
    const splits = ['train', 'test'];
    expect(learnRequestProblem({ split: 'train', evaluatedSplit: 'test', heldOut: { kind: 'split', split: 'test' } }, splits)).toMatch(/refusing to measure epochs on "test"/);
    expect(learnRequestProblem({ split: 'train', evaluatedSplit: 'test', heldOut: { kind: 'split', split: 'train' } }, splits)).toMatch(/is the training split/);
    expect(learnRequestProblem({ split: 'train', evaluatedSplit: 'test', heldOut: { kind: 'share', share: 0 } }, splits)).toMatch(/above 0 and below 1/);
    expect(learnRequestProblem({ split: 'dev', evaluatedSplit: 'test', heldOut: { kind: 'share', share: 0.1 } }, splits)).toMatch(/no judgments/);
  });

  it('a collection with one judged split trains on a seeded share of it, even when Evaluate evaluates it', () => {
    const share = { kind: 'share', share: 0.2 } as const;
    expect(learnRequestProblem({ split: 'test', evaluatedSplit: 'test', heldOut: share }, ['test'])).toBeUndefined();
    expect(learnRequestProblem({ split: 'test', evaluatedSplit: 'test', heldOut: share }, ['train', 'test'])).toMatch(/refusing to train on "test"/);
  });

  it('trains the encoder’s table rows too when asked ("rows trained"), and records it in the file', async () => {
    const result = await service().train({ ...REQUEST, settings: { ...REQUEST.settings, epochs: 2, trainRows: true } });
    const model = parseModelFile((await readAugmentModel(db, result.key))!.text);
    expect(model.training.settings.trainRows).toBe(true);
    expect(model.params.rows?.ids.length).toBeGreaterThan(0);
  });

  it('measures epochs on a dev split when one is picked', async () => {
    const result = await service().train({ ...REQUEST, split: 'train', evaluatedSplit: 'none', heldOut: { kind: 'split', split: 'test' }, settings: { ...REQUEST.settings, epochs: 2 } });
    expect(result.training.heldOut).toEqual({ kind: 'split', split: 'test', queries: 16 });
  });

  describe('with the frozen transformer local/tiny-bert', () => {
    const TINY = { ...REQUEST, encoder: 'local/tiny-bert', heldOut: { kind: 'share', share: 0.2 }, settings: { ...REQUEST.settings, epochs: 3 } } satisfies LearnRequest;

    it("stores the model file the CLI's training writes for the same split and settings (encoder and weights named)", async () => {
      ensureModels('tiny-bert');
      const result = await service().train(TINY);
      const text = (await readAugmentModel(db, result.key))!.text;
      const model = parseModelFile(text);
      expect(model.encoderModel).toBe('local/tiny-bert');
      expect(model.encoderDtype).toBe('fp32');
      expect(model.params.encoderDim).toBe(32);
      expect(model.params.rows).toBeUndefined();
      const encoder = await loadQueryEncoder('local/tiny-bert', synthetic.encoder.analyzer);
      try {
        const cli = await trainOnSplits(
          { collection: 'Synthetic', split: 'train', judged: synthetic.train, heldOutShare: 0.2 },
          { index: synthetic.index, bm25: synthetic.bm25, encoder },
          TINY.settings,
        );
        expect(text).toBe(formatModelFile(cli.model));
      } finally {
        await encoder.dispose?.();
      }
    }, 120_000);

    it('refuses "rows trained" for a transformer before loading it, saying to pick frozen', async () => {
      const trainRows = { ...TINY, settings: { ...TINY.settings, trainRows: true } };
      await expect(service().train(trainRows)).rejects.toThrow('local/tiny-bert is a transformer, trained frozen: only a static table\'s rows can be trained (pick frozen)');
      expect(encoderProblem(trainRows)).toMatch(/pick frozen/);
      expect(encoderProblem({ ...trainRows, encoder: 'local/glove-100d-sif' })).toBeUndefined();
      expect(encoderProblem(TINY)).toBeUndefined();
    });
  });
});
