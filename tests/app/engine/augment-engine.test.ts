/**
 * Augmented BM25 in the page's engine: a model file stored in IndexedDB, expanded by AugmentService (what the
 * page's worker runs) and ranked by the engine's BM25 backend (the TypeScript reference here). Parity: the
 * page's rankings and learned queries equal the CLI's — `rankBatch` over `AugmentIndexSearch` with the same
 * model file parsed as `readModel` parses it — for Explore's one query and Evaluate's chunks alike; and for
 * a model trained with the frozen transformer local/tiny-bert, the CLI's `augmenterOf` (its encoder loaded
 * as `search --augmenter` loads it) against the service's encoder loaded as the page's worker loads it.
 */
import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnalyzerLoader } from '../../../src/lib/analysis/analyzer-loader.ts';
import { Augmenter } from '../../../src/lib/augment/augmenter.ts';
import { AugmentIndexSearch } from '../../../src/lib/augment/index-search.ts';
import { formatModelFile, modelRef, parseModelFile } from '../../../src/lib/augment/model-file.ts';
import { trainOnSplits } from '../../../src/lib/augment/splits.ts';
import { hitsOf, isRowRanking } from '../../../src/lib/hits/row-ranking.ts';
import type { AugmenterRef, RetrieverConfig } from '../../../src/lib/retrievers/config.ts';
import { rankBatch } from '../../../src/lib/retrievers/rank.ts';
import { AugmentService } from '../../../src/lib/services/augment-service.ts';
import { putAugmentModel } from '../../../src/lib/storage/augment-models.ts';
import type { PlaygroundDatabase } from '../../../src/lib/storage/db.ts';
import type { AugmentBackend } from '../../../src/app/engine/backends.ts';
import { RetrievalEngine } from '../../../src/app/engine/retrieval-engine.ts';
import { QUERY_WORDS, SYNTHETIC_SETTINGS, syntheticCollection, syntheticTable } from '../../lib/augment/synthetic.ts';
import { testDb } from '../../lib/storage/stored-collection.ts';
import { nodeEncoders } from '../../lib/services/node-encoders.ts';
import { ensureModels } from '../../lib/dense/models-fixture.ts';
import { augmenterOf, loadQueryEncoder } from '../../../src/cli/augment-model.ts';
import { FakeBm25, FakeDense, FakeJobs, FakeRuns } from './fakes.ts';

const C = 'synthetic';
const collection = syntheticCollection();
let db: PlaygroundDatabase;
let text = '';
let ref: AugmenterRef;
let column: Extract<RetrieverConfig, { kind: 'augmented' }>;

function backend(service: AugmentService): AugmentBackend & { calls: number } {
  return {
    calls: 0,
    expand(augmenter, analyzer, texts) {
      this.calls++;
      return service.expand(augmenter, analyzer, texts);
    },
    forget: (key) => service.forget(key),
  };
}

function setup() {
  // The table the model was trained with (syntheticCollection's defaults), as the worker reads it by the model's encoder id.
  const service = new AugmentService({ db, analyzers: new AnalyzerLoader(), ...nodeEncoders(syntheticTable(QUERY_WORDS, 24, 7)) });
  const augment = backend(service);
  const engine = new RetrievalEngine({ bm25: new FakeBm25(collection.docs), dense: new FakeDense(), runs: new FakeRuns(), jobs: new FakeJobs(), augment });
  return { engine, augment };
}

/** The CLI's search: rankBatch over AugmentIndexSearch with the model file parsed as src/cli/augment-model.ts's readModel does. */
function cliSearch(): AugmentIndexSearch {
  const model = parseModelFile(text, 'synthetic.json');
  return new AugmentIndexSearch(collection.index, collection.encoder.analyzer, new Map([[ref.key, new Augmenter(model.params, collection.encoder)]]));
}

beforeAll(async () => {
  const { model } = await trainOnSplits(
    { collection: C, split: 'train', judged: collection.train, heldOutShare: 0 },
    { index: collection.index, bm25: collection.bm25, encoder: collection.encoder },
    SYNTHETIC_SETTINGS,
  );
  text = formatModelFile(model);
  ref = modelRef(text, 'synthetic.json', model);
  column = { kind: 'augmented', bm25: collection.bm25, augmenter: ref };
  db = testDb('augment-engine');
  await putAugmentModel(db, { key: ref.key, name: ref.name, collection: ref.collection, split: ref.split, analyzer: model.bm25.analyzer, encoder: model.encoderModel, text });
}, 60_000);

afterAll(() => db?.close());

describe('Augmented BM25 in the engine', () => {
  it("Explore's ranking of one query equals the CLI's: the same learned query (added terms marked) and the same hits", async () => {
    const { engine } = setup();
    const reference = cliSearch();
    for (const query of collection.test.queries.slice(0, 6)) {
      const [expected] = await rankBatch(reference, column, [query]);
      const { ranking } = await engine.rankQuery(C, column, query);
      expect(ranking.kind).toBe('augmented');
      expect(ranking).toEqual(expected);
      if (ranking.kind !== 'augmented') continue;
      // The synthetic queries share no word with their documents: every hit comes from an added term.
      expect(ranking.expanded.some((term) => term.added)).toBe(true);
      expect(ranking.hits.length).toBeGreaterThan(0);
    }
  });

  it("Evaluate's chunks equal the CLI's run, query by query, with the bags expanded in one call per chunk", async () => {
    const { engine, augment } = setup();
    const queries = collection.test.queries.map((q) => ({ id: q.id, text: q.text }));
    const expected = await rankBatch(cliSearch(), column, queries, { form: 'hits' });
    const { run } = await engine.rankQueries(C, column, queries, { chunkSize: 8 });
    const got = queries.map((q) => {
      const list = run.get(q.id)!;
      return isRowRanking(list) ? hitsOf(list) : list;
    });
    expect(got).toEqual(expected);
    expect(augment.calls).toBe(Math.ceil(queries.length / 8));
  });

  it('explains a hit with the learned query: each term weight × its BM25 part, the parts summing to the score', async () => {
    const { engine } = setup();
    const query = collection.test.queries[0]!;
    const { ranking } = await engine.rankQuery(C, column, query);
    const top = ranking.hits[0]!;
    const explained = (await engine.explain(C, column, query, top.docId)).bm25!;
    expect(explained.rank).toBe(1);
    expect(explained.expanded).toEqual(ranking.kind === 'augmented' ? ranking.expanded : []);
    const terms = explained.explanation!.terms;
    expect(terms.map((t) => [t.term, t.boost])).toEqual(explained.expanded!.map((t) => [t.term, t.weight]));
    expect(Math.fround(terms.reduce((sum, t) => sum + t.contribution, 0))).toBeCloseTo(top.score, 5);
  });

  it('a model not stored here, or a column whose analyzer is not the model\'s, is a message saying what to do', async () => {
    const { engine } = setup();
    const query = collection.test.queries[0]!;
    const missing = { ...column, augmenter: { ...ref, key: 'not-stored', name: 'elsewhere.json' } };
    await expect(engine.rankQuery(C, missing, query)).rejects.toThrow(/"elsewhere.json" is not stored in this browser: import the model file/);
    const english = { ...column, bm25: { ...column.bm25, analyzer: 'english' as const } };
    await expect(engine.rankQuery(C, english, query)).rejects.toThrow(/trained over the standard analyzer; this column's BM25 uses english/);
  });
});

describe('Augmented BM25 in the engine, a model trained with local/tiny-bert (frozen transformer)', () => {
  let tinyText = '';
  let tinyColumn: Extract<RetrieverConfig, { kind: 'augmented' }>;

  beforeAll(async () => {
    ensureModels('tiny-bert');
    const encoder = await loadQueryEncoder('local/tiny-bert', collection.encoder.analyzer);
    try {
      const { model } = await trainOnSplits(
        { collection: C, split: 'train', judged: collection.train, heldOutShare: 0 },
        { index: collection.index, bm25: collection.bm25, encoder },
        { ...SYNTHETIC_SETTINGS, epochs: 5 },
      );
      tinyText = formatModelFile(model);
    } finally {
      await encoder.dispose?.();
    }
    const model = parseModelFile(tinyText, 'tiny-bert.json');
    const tinyRef = modelRef(tinyText, 'tiny-bert.json', model);
    tinyColumn = { kind: 'augmented', bm25: collection.bm25, augmenter: tinyRef };
    await putAugmentModel(db, { key: tinyRef.key, name: tinyRef.name, collection: tinyRef.collection, split: tinyRef.split, analyzer: model.bm25.analyzer, encoder: model.encoderModel, text: tinyText });
  }, 120_000);

  it("Explore's learned queries and Evaluate's run equal the CLI's (search/eval --augmenter over the same model file)", async () => {
    const model = parseModelFile(tinyText, 'tiny-bert.json');
    expect(model.encoderModel).toBe('local/tiny-bert');
    const augmenter = await augmenterOf(model, collection.encoder.analyzer);
    try {
      const reference = new AugmentIndexSearch(collection.index, collection.encoder.analyzer, new Map([[tinyColumn.augmenter.key, augmenter]]));
      const { engine } = setup();
      const queries = collection.test.queries.map((q) => ({ id: q.id, text: q.text }));
      for (const query of queries.slice(0, 4)) {
        const [expected] = await rankBatch(reference, tinyColumn, [query]);
        const { ranking } = await engine.rankQuery(C, tinyColumn, query);
        expect(ranking).toEqual(expected);
        expect(ranking.kind === 'augmented' && ranking.expanded.some((term) => term.added)).toBe(true);
      }
      const expected = await rankBatch(reference, tinyColumn, queries, { form: 'hits' });
      const { run } = await engine.rankQueries(C, tinyColumn, queries, { chunkSize: 8 });
      const got = queries.map((q) => {
        const list = run.get(q.id)!;
        return isRowRanking(list) ? hitsOf(list) : list;
      });
      expect(got).toEqual(expected);
      expect(got.flat().length).toBeGreaterThan(0);
    } finally {
      await augmenter.encoder.dispose?.();
    }
  }, 60_000);
});
