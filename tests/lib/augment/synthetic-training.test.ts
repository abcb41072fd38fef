/**
 * Queries and their relevant documents share no word, so BM25 finds nothing; a model trained on the train
 * pairs must rank the unseen test pairs' documents near the top, ranked through rankBatch as a column is.
 */
import { describe, expect, it } from 'vitest';
import { Augmenter } from '../../../src/lib/augment/augmenter.ts';
import { AugmentIndexSearch } from '../../../src/lib/augment/index-search.ts';
import { measureHeldOut, trainAugmenter } from '../../../src/lib/augment/train.ts';
import { evaluate } from '../../../src/lib/eval/evaluate.ts';
import { rankBatch } from '../../../src/lib/retrievers/rank.ts';
import type { Run } from '../../../src/lib/types.ts';
import { DOC_WORDS, SYNTHETIC_SETTINGS, syntheticCollection } from './synthetic.ts';

describe('training on a collection whose queries share no word with their documents', () => {
  const collection = syntheticCollection();

  it('BM25 scores every test query 0 (no hits)', async () => {
    const search = new AugmentIndexSearch(collection.index, collection.encoder.analyzer, new Map());
    const rankings = await rankBatch(search, { kind: 'bm25', bm25: collection.bm25 }, collection.test.queries, { form: 'hits' });
    expect(rankings.every((hits) => hits?.length === 0)).toBe(true);
  });

  for (const trainRows of [false, true]) {
    it(`ranks the held-out test pairs' documents near the top (${trainRows ? 'rows trained' : 'frozen encoder'})`, async () => {
      const { index, encoder, bm25, train, test } = collection;
      const result = await trainAugmenter({ index, encoder, bm25, train, heldOut: test }, { ...SYNTHETIC_SETTINGS, trainRows });
      const augmenter = new Augmenter(result.params, encoder);
      const measure = await measureHeldOut(index, augmenter, bm25, test);
      // The baseline (plain BM25) finds nothing; the learned queries find the unseen pairs.
      expect(result.baseline!.ndcg_cut_10).toBe(0);
      expect(measure.ndcg_cut_10).toBeGreaterThan(0.6);
      expect(result.history.at(-1)!.loss).toBeLessThan(result.history[0]!.loss);
      // Most learned queries' two heaviest added terms are the document words of their two concepts.
      const right = test.queries.filter((query) => {
        const added = augmenter.expand(query.text).filter((term) => term.added).slice(0, 2).map((term) => term.term);
        const concepts = query.id.slice(1).split('-').map((i) => DOC_WORDS[Number(i)]!);
        return added.sort().join() === concepts.sort().join();
      });
      expect(right.length).toBeGreaterThanOrEqual(0.75 * test.queries.length);
    });
  }

  it('recall of the test documents within the top 10 of each query', async () => {
    const { index, encoder, bm25, train, test } = collection;
    const result = await trainAugmenter({ index, encoder, bm25, train }, SYNTHETIC_SETTINGS);
    const search = new AugmentIndexSearch(index, encoder.analyzer, new Map([['m', new Augmenter(result.params, encoder)]]));
    const config = { kind: 'augmented' as const, bm25, augmenter: { key: 'm', name: 'm', collection: 'synthetic', split: 'train' } };
    const rankings = await rankBatch(search, config, test.queries, { form: 'hits', depth: 10 });
    const run: Run = new Map(test.queries.map((q, i) => [q.id, rankings[i] ?? []]));
    const recall = evaluate(test.qrels, run, { measures: ['recall.10'] }).all['recall_10']!;
    expect(recall).toBeGreaterThan(0.8);
  });
});
