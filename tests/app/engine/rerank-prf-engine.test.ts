import { describe, expect, it, vi } from 'vitest';
import { plainHits } from '../../../src/app/engine/column-ranking.ts';
import { RetrievalEngine } from '../../../src/app/engine/retrieval-engine.ts';
import { defaultRetriever, RUN_DEPTH, type FirstStageConfig, type RetrieverConfig } from '../../../src/lib/retrievers/config.ts';
import type { Hit } from '../../../src/lib/types.ts';
import { DOCS, FakeBm25, FakeDense, FakeJobs, FakeRerank, FakeRuns, Gate } from './fakes.ts';

const C = 'starter';
const BREAD = { id: 'q02', text: 'Why does bread go hard after a few days?' };
const STARTER = { id: 'q05', text: 'sourdough starter feeding' };
const PARAMS = { k: RUN_DEPTH, k1: 0.9, b: 0.4 };
const MODEL = { model: 'local/tiny-cross-encoder', dtype: 'fp32' as const, device: 'auto' as const };

function setup(withRerank = true) {
  const bm25 = new FakeBm25();
  const rerank = new FakeRerank();
  const runs = new FakeRuns();
  const jobs = new FakeJobs();
  const engine = new RetrievalEngine({ bm25, dense: new FakeDense(), runs, jobs, ...(withRerank ? { rerank } : {}), collectionName: () => 'Starter' });
  return { bm25, rerank, runs, jobs, engine };
}

function rerankOver(firstStage: FirstStageConfig, depth = 100): Extract<RetrieverConfig, { kind: 'rerank' }> {
  return { kind: 'rerank', firstStage, depth, rerank: MODEL };
}

/** The expected re-ranking, by hand: the first stage's top `depth` sorted by the fake's score, ties by first-stage rank. */
function byFakeScore(query: string, firstStage: readonly Hit[], depth: number): string[] {
  const scored = firstStage.slice(0, depth).map((hit, i) => ({ id: hit.docId, i, score: Math.fround(FakeRerank.score(query, DOCS.find((d) => d.id === hit.docId)!)) }));
  return scored.sort((a, b) => b.score - a.score || a.i - b.i).map((s) => s.id);
}

describe('RetrievalEngine: RM3 and Bo1 columns', () => {
  it('rank as src/lib/prf does on the same index, show the expanded query, and share the BM25 index', async () => {
    const { bm25, engine } = setup();
    await engine.rankQuery(C, defaultRetriever('bm25'), BREAD);
    for (const kind of ['rm3', 'bo1'] as const) {
      const retriever = defaultRetriever(kind);
      if (retriever.kind !== kind) throw new Error('unreachable');
      const { ranking } = await engine.rankQuery(C, retriever, BREAD);
      const prf = kind === 'rm3' ? { method: 'rm3' as const, fbTerms: 10, fbDocs: 10, originalQueryWeight: 0.5 } : { method: 'bo1' as const, fbTerms: 10, fbDocs: 3 };
      const reference = bm25.prfReference(C, 'english', BREAD, prf, PARAMS);
      expect(ranking.kind).toBe(kind);
      if (ranking.kind !== 'rm3' && ranking.kind !== 'bo1') throw new Error('unreachable');
      expect(ranking.hits).toEqual(reference.hits);
      expect(ranking.expanded).toEqual(reference.expanded);
      expect(ranking.expanded.length).toBeGreaterThan(new Set(BREAD.text.toLowerCase().split(/\W+/)).size / 3);
      expect(ranking.feedbackDocIds).toEqual(reference.feedbackDocIds);
    }
    expect(bm25.opens).toHaveLength(1);
  });

  it('pass their parameters, and rank a split the same query by query as one at a time', async () => {
    const { bm25, engine } = setup();
    const rm3: RetrieverConfig = { kind: 'rm3', bm25: { k1: 1.2, b: 0.75, analyzer: 'english' }, fbTerms: 3, fbDocs: 2, originalQueryWeight: 0.8 };
    const { ranking } = await engine.rankQuery(C, rm3, BREAD);
    expect(bm25.prfSearches.at(-1)?.prf).toEqual({ method: 'rm3', fbTerms: 3, fbDocs: 2, originalQueryWeight: 0.8 });
    expect(bm25.prfSearches.at(-1)?.params).toMatchObject({ k1: 1.2, b: 0.75 });
    if (ranking.kind !== 'rm3') throw new Error('unreachable');
    expect(ranking.expanded.length).toBeLessThanOrEqual(3 + 9);
    const { run } = await engine.rankQueries(C, rm3, [BREAD, STARTER], { depth: 5 });
    expect(run.get(BREAD.id)).toEqual(plainHits(ranking.hits.slice(0, 5)));
    const single = await engine.rankQuery(C, rm3, STARTER, { depth: 5 });
    expect(run.get(STARTER.id)).toEqual(plainHits(single.ranking.hits));
  });

  it('explain: BM25 of the expanded query, ranked in the feedback ranking', async () => {
    const { bm25, engine } = setup();
    const rm3 = defaultRetriever('rm3');
    const { ranking } = await engine.rankQuery(C, rm3, BREAD);
    if (ranking.kind !== 'rm3') throw new Error('unreachable');
    const docId = ranking.hits[1]!.docId;
    const why = await engine.explain(C, rm3, BREAD, docId);
    expect(why.bm25?.expanded).toEqual(ranking.expanded);
    expect(why.bm25?.rank).toBe(2);
    expect(why.bm25?.explanation?.score).toBeCloseTo(ranking.hits[1]!.score, 5);
    expect(bm25.prfSearches).toHaveLength(1);
  });

  it('a blank query ranks nothing and expands nothing', async () => {
    const { engine } = setup();
    const { ranking, note } = await engine.rankQuery(C, defaultRetriever('bo1'), { text: '  ' });
    expect(ranking).toEqual({ kind: 'bo1', hits: [], expanded: [], feedbackDocIds: [] });
    expect(note).toBe('Type a query or pick one.');
  });
});

describe('RetrievalEngine: Re-rank columns', () => {
  it('re-orders the first stage top N by the cross-encoder, with first-stage ranks, and loads the model once', async () => {
    const { engine, rerank, jobs } = setup();
    const bm25 = await engine.rankQuery(C, defaultRetriever('bm25'), BREAD);
    const retriever = rerankOver({ kind: 'bm25', bm25: { k1: 0.9, b: 0.4, analyzer: 'english' } }, 4);
    const progress: Array<[number, number]> = [];
    const { ranking } = await engine.rankQuery(C, retriever, BREAD, { onScore: (p) => progress.push([p.done, p.total]) });
    if (ranking.kind !== 'rerank') throw new Error('unreachable');
    expect(ranking.firstStage).toEqual(plainHits(bm25.ranking.hits.slice(0, 4)));
    expect(ranking.hits.map((h) => h.docId)).toEqual(byFakeScore(BREAD.text, bm25.ranking.hits, 4));
    // Scores non-increasing, and each hit knows where the first stage had it.
    for (let i = 1; i < ranking.hits.length; i++) expect(ranking.hits[i]!.score).toBeLessThanOrEqual(ranking.hits[i - 1]!.score);
    for (const hit of ranking.hits) expect(bm25.ranking.hits[hit.firstStageRank - 1]?.docId).toBe(hit.docId);
    expect(ranking.hits.map((h) => h.newRank)).toEqual([1, 2, 3, 4]);
    expect(progress.at(-1)).toEqual([4, 4]);
    // Once more: same model (no second load), and every pair from the cache.
    await engine.rankQuery(C, { ...retriever, depth: 3 }, BREAD);
    expect(rerank.opens).toHaveLength(1);
    expect(rerank.scored).toEqual([4, 0]);
    expect(jobs.list.map((j) => j.title)).toContain('Loading cross-encoder tiny-cross-encoder (fp32, auto device)');
  });

  it('explain: a Re-rank column\'s parts are its first stage\'s', async () => {
    const { engine } = setup();
    const retriever = rerankOver(defaultRetriever('ledr') as FirstStageConfig, 3);
    const ledr = await engine.rankQuery(C, defaultRetriever('ledr'), BREAD);
    const docId = ledr.ranking.hits[2]!.docId;
    const why = await engine.explain(C, retriever, BREAD, docId);
    expect(why.bm25?.depth).toBe(1000);
    expect(why.dense?.similarity).toBeGreaterThan(0);
    // LEDR scores candidates and never searches the dense side: no dense rank, as for a LEDR column.
    expect(why.dense?.rank).toBeUndefined();
  });

  it('follows any first stage: RM3, a fusion, an imported run', async () => {
    const { engine, runs } = setup();
    for (const firstStage of [defaultRetriever('rm3'), defaultRetriever('rrf')] as FirstStageConfig[]) {
      const first = await engine.rankQuery(C, firstStage, BREAD);
      const { ranking } = await engine.rankQuery(C, rerankOver(firstStage, 5), BREAD);
      if (ranking.kind !== 'rerank') throw new Error('unreachable');
      expect(ranking.hits.map((h) => h.docId)).toEqual(byFakeScore(BREAD.text, first.ranking.hits, 5));
    }
    // d1 shares "bread" and "a" with the query, d7 only "a", d6 nothing.
    runs.runs.set(`${C}|r1`, new Map([[BREAD.id, [{ docId: 'd6', score: 3 }, { docId: 'd1', score: 2 }, { docId: 'd7', score: 1 }]]]));
    const { ranking } = await engine.rankQuery(C, rerankOver({ kind: 'run', runKey: 'r1', name: 'r1' }), BREAD);
    expect(ranking.hits.map((h) => [h.docId, (h as { firstStageRank: number }).firstStageRank])).toEqual([['d1', 2], ['d7', 3], ['d6', 1]]);
  });

  it('ranks a split query by query as it ranks one query', async () => {
    const { engine } = setup();
    const retriever = rerankOver(defaultRetriever('bm25') as FirstStageConfig, 6);
    const { run } = await engine.rankQueries(C, retriever, [BREAD, STARTER], { depth: 1000, chunkSize: 1 });
    for (const query of [BREAD, STARTER]) {
      const { ranking } = await engine.rankQuery(C, retriever, query);
      expect(run.get(query.id)).toEqual(plainHits(ranking.hits));
    }
  });

  it('stops scoring when cancelled, and says so when no cross-encoder backend exists', async () => {
    const { engine, rerank } = setup();
    const retriever = rerankOver(defaultRetriever('bm25') as FirstStageConfig, 5);
    await engine.prepare(C, retriever);
    expect(engine.isPrepared(C, retriever)).toBe(true);
    expect(engine.rerankInfo(MODEL)).toMatchObject({ model: MODEL.model, device: 'wasm' });
    rerank.gate = new Gate();
    const controller = new AbortController();
    let scoring = false;
    const ranking = engine.rankQuery(C, retriever, BREAD, { signal: controller.signal, onScore: () => (scoring = true) });
    // Cancelled while the cross-encoder scores (its first progress report), not before.
    await vi.waitFor(() => expect(scoring).toBe(true));
    controller.abort(new DOMException('cancelled', 'AbortError'));
    await expect(ranking).rejects.toMatchObject({ name: 'AbortError' });

    const bare = setup(false).engine;
    await expect(bare.rankQuery(C, retriever, BREAD)).rejects.toThrow('re-ranking is not available here (no cross-encoder backend)');
  });
});
