import { describe, expect, it } from 'vitest';
import { convexCombination } from '../../../src/lib/fusion/convex.ts';
import { lexiconEnhancedDense } from '../../../src/lib/fusion/ledr.ts';
import { reciprocalRankFusion } from '../../../src/lib/fusion/rrf.ts';
import { defaultRetriever, RUN_DEPTH, type RetrieverConfig } from '../../../src/lib/retrievers/config.ts';
import { plainHits } from '../../../src/app/engine/column-ranking.ts';
import { RetrievalEngine } from '../../../src/app/engine/retrieval-engine.ts';
import { isRowRanking, runOfRanked } from '../../../src/lib/hits/row-ranking.ts';
import { DOCS, FakeBm25, FakeDense, FakeJobs, FakeRowsBm25, FakeRowsDense, FakeRuns, Gate } from './fakes.ts';

const C = 'starter';
const BREAD = { id: 'q02', text: 'Why does bread go hard after a few days?' };
const DEFAULT_BM25 = defaultRetriever('bm25') as Extract<RetrieverConfig, { kind: 'bm25' }>;
const DEFAULT_DENSE = defaultRetriever('dense') as Extract<RetrieverConfig, { kind: 'dense' }>;

function setup() {
  const bm25 = new FakeBm25();
  const dense = new FakeDense();
  const runs = new FakeRuns();
  const jobs = new FakeJobs();
  const engine = new RetrievalEngine({ bm25, dense, runs, jobs, collectionName: () => 'Starter' });
  return { bm25, dense, runs, jobs, engine };
}

function bm25With(k1: number, b: number): RetrieverConfig {
  return { kind: 'bm25', bm25: { ...DEFAULT_BM25.bm25, k1, b } };
}

describe('RetrievalEngine: preparation', () => {
  it('builds each index once for all columns that share it, with one job per build', async () => {
    const { bm25, dense, jobs, engine } = setup();
    bm25.gate = new Gate();
    dense.gate = new Gate();
    const columns = [defaultRetriever('bm25'), defaultRetriever('dense'), defaultRetriever('ledr'), defaultRetriever('rrf')];
    const prepared = Promise.all(columns.map((column) => engine.prepare(C, column)));
    await Promise.resolve();
    expect(columns.map((column) => engine.isPrepared(C, column))).toEqual([false, false, false, false]);
    bm25.gate.open();
    dense.gate.open();
    await prepared;
    expect(bm25.opens).toEqual([{ collectionId: C, analyzer: 'english' }]);
    expect(dense.opens).toHaveLength(1);
    expect(jobs.list.map((job) => [job.title, job.status])).toEqual([
      ['Building BM25 index (english) · Starter', 'done'],
      ['Embedding Starter with glove-100d-sif', 'done'],
    ]);
    expect(columns.every((column) => engine.isPrepared(C, column))).toBe(true);
  });

  it('expecting typed text asks each column’s dense model to load now, BM25 columns nothing', () => {
    const { bm25, dense, engine } = setup();
    const hnsw: RetrieverConfig = { kind: 'dense', dense: { ...DEFAULT_DENSE.dense, search: 'hnsw' } };
    engine.expectTyping([defaultRetriever('bm25'), defaultRetriever('ledr'), hnsw]);
    expect(dense.modelsLoaded).toEqual([DEFAULT_DENSE.dense, hnsw.dense]);
    expect([bm25.opens, dense.opens, bm25.warmed]).toEqual([[], [], []]);
  });

  it('opens again only for settings the postings or vectors depend on (not k1, b, K, efSearch)', async () => {
    const { bm25, dense, engine } = setup();
    await engine.prepare(C, defaultRetriever('ledr'));
    await engine.prepare(C, bm25With(1.5, 0.9));
    await engine.prepare(C, { ...(defaultRetriever('ledr') as Extract<RetrieverConfig, { kind: 'ledr' }>), k: 10 });
    expect(bm25.opens).toHaveLength(1);
    await engine.prepare(C, { kind: 'bm25', bm25: { ...DEFAULT_BM25.bm25, analyzer: 'standard' } });
    expect(bm25.opens.map((o) => o.analyzer)).toEqual(['english', 'standard']);
    const hnsw = { ...DEFAULT_DENSE.dense, search: 'hnsw' as const };
    await engine.prepare(C, { kind: 'dense', dense: hnsw });
    await engine.prepare(C, { kind: 'dense', dense: { ...hnsw, hnsw: { ...hnsw.hnsw, efSearch: 16 } } });
    expect(dense.opens.map((o) => o.settings.search)).toEqual(['exact', 'hnsw']);
    await engine.prepare('other', defaultRetriever('bm25'));
    expect(bm25.opens).toHaveLength(3);
    // LEDR scores candidates and never searches: its HNSW settings build nothing.
    const ledr = defaultRetriever('ledr') as Extract<RetrieverConfig, { kind: 'ledr' }>;
    await engine.prepare(C, { ...ledr, dense: { ...ledr.dense, search: 'hnsw', hnsw: { M: 4, efConstruction: 9, efSearch: 3 } } });
    expect(dense.opens.map((o) => o.settings.search)).toEqual(['exact', 'hnsw']);
  });

  it('opens again after the collection was imported again (its version changed)', async () => {
    const bm25 = new FakeBm25();
    let version = 1;
    const engine = new RetrievalEngine({ bm25, dense: new FakeDense(), runs: new FakeRuns(), jobs: new FakeJobs(), collectionVersion: () => version });
    await engine.rankQuery(C, defaultRetriever('bm25'), BREAD);
    version = 2;
    expect(engine.isPrepared(C, defaultRetriever('bm25'))).toBe(false);
    await engine.rankQuery(C, defaultRetriever('bm25'), BREAD);
    expect(bm25.opens).toHaveLength(2);
    expect(bm25.searches).toHaveLength(2);
  });

  it('shows no job when a stored index is only loaded', async () => {
    const { bm25, jobs, engine } = setup();
    bm25.stored.add(`${C}|english`);
    const statuses: string[] = [];
    await engine.prepare(C, defaultRetriever('bm25'), { onPrepare: (s) => statuses.push(s.message) });
    expect(jobs.list).toEqual([]);
    expect(statuses).toEqual(['Loading the BM25 index (english)']);
  });

  it('stops a build when its job is cancelled, and builds again on the next request', async () => {
    const { bm25, jobs, engine } = setup();
    bm25.gate = new Gate();
    const first = engine.prepare(C, defaultRetriever('bm25'));
    const second = engine.rankQuery(C, defaultRetriever('bm25'), BREAD);
    await Promise.resolve();
    expect(jobs.list).toHaveLength(1);
    jobs.list[0]!.cancel();
    await expect(first).rejects.toMatchObject({ name: 'AbortError' });
    await expect(second).rejects.toMatchObject({ name: 'AbortError' });
    expect(jobs.list[0]!.status).toBe('cancelled');
    expect(engine.isPrepared(C, defaultRetriever('bm25'))).toBe(false);
    bm25.gate = undefined;
    await engine.prepare(C, defaultRetriever('bm25'));
    expect(bm25.opens).toHaveLength(2);
    expect(jobs.list.map((job) => job.status)).toEqual(['cancelled', 'done']);
  });

  it('rejects a waiting caller as soon as its own signal aborts, leaving the shared build running', async () => {
    const { bm25, jobs, engine } = setup();
    bm25.gate = new Gate();
    const controller = new AbortController();
    const waiting = engine.rankQuery(C, defaultRetriever('bm25'), BREAD, { signal: controller.signal });
    const other = engine.prepare(C, defaultRetriever('bm25'));
    controller.abort(new DOMException('query changed', 'AbortError'));
    await expect(waiting).rejects.toThrow('query changed');
    bm25.gate.open();
    await other;
    expect(jobs.list.map((job) => job.status)).toEqual(['done']);
  });
});

describe('RetrievalEngine: one query', () => {
  it('ranks BM25 as the reference with live k1 and b, without reopening the index', async () => {
    const { bm25, engine } = setup();
    const standard = await engine.rankQuery(C, defaultRetriever('bm25'), BREAD);
    const params = { k: RUN_DEPTH, k1: 0.9, b: 0.4 };
    expect(standard.ranking).toEqual({ kind: 'bm25', hits: bm25.reference(C, 'english', BREAD, params) });
    const tuned = await engine.rankQuery(C, bm25With(2, 1), BREAD);
    expect(tuned.ranking.hits).toEqual(bm25.reference(C, 'english', BREAD, { k: RUN_DEPTH, k1: 2, b: 1 }));
    expect(tuned.ranking.hits.map((h) => h.score)).not.toEqual(standard.ranking.hits.map((h) => h.score));
    expect(bm25.opens).toHaveLength(1);
  });

  it('computes LEDR, RRF and convex exactly as the fusion functions do, parts included', async () => {
    const { bm25, dense, engine } = setup();
    await engine.prepare(C, defaultRetriever('ledr'));
    const lexical = bm25.reference(C, 'english', BREAD, { k: RUN_DEPTH, k1: 0.9, b: 0.4 });
    const semantic = dense.reference(BREAD.text, RUN_DEPTH);
    const cosine = new Map(semantic.map((hit) => [hit.docId, hit.score]));

    const ledr = await engine.rankQuery(C, { ...(defaultRetriever('ledr') as Extract<RetrieverConfig, { kind: 'ledr' }>), k: 3 }, BREAD);
    const expected = lexiconEnhancedDense(lexical, cosine, { k: 3 });
    expect(ledr.ranking.kind).toBe('ledr');
    expect(ledr.ranking.hits.map((h) => h.docId)).toEqual(expected.map((h) => h.docId));
    ledr.ranking.hits.forEach((hit, i) => {
      expect(hit.score).toBeCloseTo(expected[i]!.score, 12);
      if (ledr.ranking.kind === 'ledr') expect(ledr.ranking.hits[i]!.parts.bm25Rank).toBe(expected[i]!.parts.bm25Rank);
    });

    const rrf = await engine.rankQuery(C, { ...(defaultRetriever('rrf') as Extract<RetrieverConfig, { kind: 'rrf' }>), k: 10 }, BREAD);
    expect(rrf.ranking.hits).toEqual(reciprocalRankFusion([lexical, semantic], { k: 10 }));

    const convexConfig = { ...(defaultRetriever('convex') as Extract<RetrieverConfig, { kind: 'convex' }>), alpha: 0.3, normalization: 'z-score' as const };
    const convex = await engine.rankQuery(C, convexConfig, BREAD);
    expect(convex.ranking.hits).toEqual(convexCombination(lexical, semantic, { alpha: 0.3, normalization: 'z-score' }));
  });

  it('searches BM25 once for a BM25 column and a LEDR column with the same settings', async () => {
    const { bm25, engine } = setup();
    await engine.prepare(C, defaultRetriever('ledr'));
    await Promise.all([engine.rankQuery(C, defaultRetriever('bm25'), BREAD), engine.rankQuery(C, defaultRetriever('ledr'), BREAD)]);
    expect(bm25.searches).toHaveLength(1);
    await engine.rankQuery(C, bm25With(1.2, 0.75), BREAD);
    expect(bm25.searches).toHaveLength(2);
  });

  it('cuts rankings to the depth asked, and explains empty ones', async () => {
    const { engine } = setup();
    const top2 = await engine.rankQuery(C, defaultRetriever('dense'), BREAD, { depth: 2 });
    expect(top2.ranking.hits).toHaveLength(2);
    const blank = await engine.rankQuery(C, defaultRetriever('ledr'), { text: '   ' });
    expect(blank.ranking.hits).toEqual([]);
    expect(blank.note).toMatch(/Type a query/);
    const noMatch = await engine.rankQuery(C, defaultRetriever('ledr'), { text: 'zyzzyva' });
    expect(noMatch.ranking.hits).toEqual([]);
    expect(noMatch.note).toMatch(/cosine × BM25/);
  });

  it('ranks an imported run by query id, and says why it cannot rank typed text or unknown queries', async () => {
    const { runs, engine } = setup();
    runs.runs.set(`${C}|r1`, new Map([['q02', [{ docId: 'd1', score: 3 }, { docId: 'd4', score: 1 }]]]));
    const column: RetrieverConfig = { kind: 'run', runKey: 'r1', name: 'mine' };
    expect((await engine.rankQuery(C, column, BREAD)).ranking.hits.map((h) => h.docId)).toEqual(['d1', 'd4']);
    expect((await engine.rankQuery(C, column, { text: 'bread' })).note).toMatch(/only ranks the queries it contains/);
    expect((await engine.rankQuery(C, column, { id: 'q99', text: 'x' })).note).toMatch(/no ranking for query q99/);
    expect((await engine.rankQuery(C, { ...column, runKey: 'gone' }, BREAD)).note).toMatch(/not stored in this browser/);
  });

  it('explains a hit: BM25 terms summing to its score, dense similarity equal to its dense score, input ranks', async () => {
    const { engine } = setup();
    const rrf = defaultRetriever('rrf');
    const { ranking } = await engine.rankQuery(C, rrf, BREAD);
    const bm25Top = (await engine.rankQuery(C, defaultRetriever('bm25'), BREAD)).ranking.hits[0]!;
    const denseHits = (await engine.rankQuery(C, defaultRetriever('dense'), BREAD)).ranking.hits;
    const explanation = await engine.explain(C, rrf, BREAD, bm25Top.docId);
    expect(explanation.bm25?.explanation?.score).toBe(bm25Top.score);
    expect(explanation.bm25?.rank).toBe(1);
    const denseRank = denseHits.findIndex((h) => h.docId === bm25Top.docId) + 1;
    expect(explanation.dense?.rank).toBe(denseRank);
    expect(explanation.dense?.similarity).toBeCloseTo(denseHits[denseRank - 1]!.score, 6);
    if (ranking.kind === 'rrf') {
      const fused = ranking.hits.find((h) => h.docId === bm25Top.docId)!;
      expect(fused.parts.map((p) => p.rank)).toEqual([1, denseRank]);
    }
    const ledr = await engine.explain(C, defaultRetriever('ledr'), BREAD, 'd7');
    expect(ledr.bm25?.rank).toBeNull();
    expect(ledr.bm25?.explanation?.score).toBe(0);
    expect(ledr.dense?.rank).toBeUndefined();
  });
});

describe('RetrievalEngine: many queries', () => {
  const queries = Array.from({ length: 70 }, (_, i) => ({ id: `q${i}`, text: ['bread flour', 'stale loaf', 'star remnant', 'brakes squeal', 'few days'][i % 5]! }));

  it('ranks every query in chunks with progress, each as rankQuery ranks it', async () => {
    for (const column of [defaultRetriever('bm25'), defaultRetriever('dense'), defaultRetriever('ledr'), defaultRetriever('rrf'), defaultRetriever('convex')]) {
      const { engine } = setup();
      const progress: Array<[number, number]> = [];
      const { run, missing } = await engine.rankQueries(C, column, queries, { chunkSize: 32, depth: 5, onProgress: (done, total) => progress.push([done, total]) });
      expect(progress).toEqual([
        [0, 70],
        [32, 70],
        [64, 70],
        [70, 70],
      ]);
      expect(missing).toEqual([]);
      expect([...run.keys()]).toEqual(queries.map((q) => q.id));
      for (const query of queries.slice(0, 5)) {
        const one = await engine.rankQuery(C, column, query, { depth: 5 });
        expect(run.get(query.id), `${column.kind} ${query.id}`).toEqual(plainHits(one.ranking.hits));
      }
    }
  });

  it('stops between chunks when cancelled', async () => {
    const { bm25, engine } = setup();
    const controller = new AbortController();
    const ranking = engine.rankQueries(C, defaultRetriever('bm25'), queries, {
      chunkSize: 10,
      signal: controller.signal,
      onProgress: (done) => {
        if (done === 20) controller.abort(new DOMException('stop', 'AbortError'));
      },
    });
    await expect(ranking).rejects.toThrow('stop');
    // Four chunks are in flight at a time: the fifth was sent when the first came back; no sixth is sent.
    expect(bm25.searches).toHaveLength(5);
  });

  it('rejects as soon as cancelled while a chunk is still with a busy worker (a column beside it stops at once)', async () => {
    const { bm25, engine } = setup();
    await engine.prepare(C, defaultRetriever('bm25'));
    // The worker holds every chunk sent (four are in flight at a time) until the end of the test.
    const held = new Gate();
    const search = bm25.search.bind(bm25);
    let sent = 0;
    bm25.search = async (...args) => {
      sent += 1;
      await held.wait();
      return search(...args);
    };
    const controller = new AbortController();
    const ranking = engine.rankQueries(C, defaultRetriever('bm25'), queries, { chunkSize: 10, signal: controller.signal });
    await expect.poll(() => sent).toBe(4);
    controller.abort(new DOMException('stop', 'AbortError'));
    await expect(ranking).rejects.toThrow('stop');
    held.open();
  });

  it('over backends answering as rows, BM25, dense and LEDR runs are rows of the hits runs (LEDR reusing BM25\'s rows)', async () => {
    const bm25 = new FakeRowsBm25();
    const dense = new FakeRowsDense();
    const rows = new RetrievalEngine({ bm25, dense, runs: new FakeRuns(), jobs: new FakeJobs() });
    const hits = setup().engine;
    for (const retriever of [defaultRetriever('bm25'), defaultRetriever('dense'), defaultRetriever('ledr'), defaultRetriever('rrf')]) {
      const { run } = await rows.rankQueries(C, retriever, queries, { chunkSize: 50 });
      const expected = (await hits.rankQueries(C, retriever, queries, { chunkSize: 50 })).run;
      expect([...run.values()].every((list) => isRowRanking(list))).toBe(retriever.kind !== 'rrf');
      expect(runOfRanked(run)).toEqual(expected);
    }
    // BM25 searched once per chunk of its own column: LEDR's candidates and RRF's input are its rankings.
    expect(bm25.searches).toHaveLength(2);
    // LEDR's candidates were scored once per chunk (fused on the page, as rows).
    expect(dense.scores).toBe(2);
  });

  it('a LEDR column evaluated after a BM25 column with the same settings reuses its rankings (no second search)', async () => {
    const { bm25, engine } = setup();
    const bm25Run = await engine.rankQueries(C, defaultRetriever('bm25'), queries, { chunkSize: 50 });
    expect(bm25.searches).toHaveLength(2);
    const ledrRun = await engine.rankQueries(C, defaultRetriever('ledr'), queries, { chunkSize: 50 });
    expect(bm25.searches).toHaveLength(2);
    const fresh = setup();
    expect(ledrRun.run).toEqual((await fresh.engine.rankQueries(C, defaultRetriever('ledr'), queries, { chunkSize: 50 })).run);
    expect(fresh.bm25.searches).toHaveLength(2);
    // Other settings search again.
    await engine.rankQueries(C, bm25With(1.2, 0.75), queries, { chunkSize: 50 });
    expect(bm25.searches).toHaveLength(4);
    expect(bm25Run.run.size).toBe(70);
  });

  it('a LEDR column ranked beside a BM25 column with the same settings waits for its searches in flight (no second search), and ranks as it would alone', async () => {
    const { bm25, engine } = setup();
    const slow = new SlowBm25();
    slow.searchGate = new Gate();
    const beside = new RetrievalEngine({ bm25: slow, dense: new FakeDense(), runs: new FakeRuns(), jobs: new FakeJobs() });
    const bm25Run = beside.rankQueries(C, defaultRetriever('bm25'), queries, { chunkSize: 50 });
    // LEDR starts while BM25's two chunks are still in the worker.
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(slow.searches).toHaveLength(2);
    const ledrRun = beside.rankQueries(C, defaultRetriever('ledr'), queries, { chunkSize: 50 });
    await new Promise((resolve) => setTimeout(resolve, 0));
    slow.searchGate.open();
    const [bm25Ranked, ledrRanked] = await Promise.all([bm25Run, ledrRun]);
    expect(slow.searches).toHaveLength(2);
    expect(bm25Ranked.run).toEqual((await engine.rankQueries(C, defaultRetriever('bm25'), queries, { chunkSize: 50 })).run);
    expect(ledrRanked.run).toEqual((await engine.rankQueries(C, defaultRetriever('ledr'), queries, { chunkSize: 50 })).run);
    expect(bm25.searches).toHaveLength(2);
  });

  it('a failed BM25 search is not remembered: the next evaluation asks the worker again', async () => {
    const slow = new SlowBm25();
    const engine = new RetrievalEngine({ bm25: slow, dense: new FakeDense(), runs: new FakeRuns(), jobs: new FakeJobs() });
    const failing = slow.search.bind(slow);
    let fail = true;
    slow.search = async (...args) => {
      if (fail) {
        fail = false;
        throw new Error('the BM25 worker crashed');
      }
      return failing(...args);
    };
    await expect(engine.rankQueries(C, defaultRetriever('bm25'), queries.slice(0, 10), { chunkSize: 50 })).rejects.toThrow('the BM25 worker crashed');
    const { run } = await engine.rankQueries(C, defaultRetriever('bm25'), queries.slice(0, 10), { chunkSize: 50 });
    expect(run.size).toBe(10);
  });

  it('lists the queries an imported run lacks', async () => {
    const { runs, engine } = setup();
    runs.runs.set(`${C}|r`, new Map([['q1', [{ docId: DOCS[0]!.id, score: 1 }]]]));
    const { run, missing } = await engine.rankQueries(C, { kind: 'run', runKey: 'r', name: 'r' }, queries.slice(0, 3));
    expect([...run.keys()]).toEqual(['q1']);
    expect(missing).toEqual(['q0', 'q2']);
  });
});

/** A BM25 backend whose searches wait for `gate` (a large collection's ranking, still running). */
class SlowBm25 extends FakeBm25 {
  searchGate: Gate | undefined;
  override async search(...args: Parameters<FakeBm25['search']>): Promise<Awaited<ReturnType<FakeBm25['search']>>> {
    const gate = this.searchGate;
    const hits = await super.search(...args);
    await gate?.wait();
    return hits;
  }
}

describe('RetrievalEngine: typing faster than a column ranks', () => {
  it('sends a column’s rankings one at a time, and none that was superseded while it waited', async () => {
    const bm25 = new SlowBm25();
    const engine = new RetrievalEngine({ bm25, dense: new FakeDense(), runs: new FakeRuns(), jobs: new FakeJobs(), collectionName: () => 'Starter' });
    const column = defaultRetriever('bm25');
    await engine.prepare(C, column);
    const first = new Gate();
    bm25.searchGate = first;
    const typed = (text: string) => {
      const controller = new AbortController();
      const ranked = engine.rankQuery(C, column, { id: '', text }, { signal: controller.signal });
      ranked.catch(() => undefined);
      return { controller, ranked };
    };
    // "b" runs; "br" and "bre" come while it does, and "br" is superseded by "bre" before "b" has answered.
    const b = typed('b');
    await expect.poll(() => bm25.searches.length).toBe(1);
    b.controller.abort(new DOMException('superseded', 'AbortError'));
    const br = typed('br');
    await Promise.resolve();
    br.controller.abort(new DOMException('superseded', 'AbortError'));
    bm25.searchGate = undefined;
    const bre = typed('bread');
    await expect(b.ranked).rejects.toThrow('superseded');
    await expect(br.ranked).rejects.toThrow('superseded');
    expect(bm25.searches.map((search) => search.queries.map((query) => query.text))).toEqual([['b']]);
    first.open();
    const result = await bre.ranked;
    expect(bm25.searches.map((search) => search.queries.map((query) => query.text))).toEqual([['b'], ['bread']]);
    expect(result.ranking).toEqual({ kind: 'bm25', hits: bm25.reference(C, 'english', { id: '', text: 'bread' }, { k: RUN_DEPTH, k1: DEFAULT_BM25.bm25.k1, b: DEFAULT_BM25.bm25.b }) });
  });
});
