/**
 * The engine with weighted queries (the query box's `term^w` / `+term^w` syntax and a BM25 column's edited
 * query terms), on the fake backends whose BM25 is the TypeScript reference: what columnQuery makes of the
 * box is what gets ranked and explained.
 */
import { describe, expect, it } from 'vitest';
import { englishAnalyzer } from '../../../src/lib/analysis/english-analyzer.ts';
import { DEFAULT_RERANK_DEPTH, defaultRetriever } from '../../../src/lib/retrievers/config.ts';
import { RetrievalEngine } from '../../../src/app/engine/retrieval-engine.ts';
import { columnQuery } from '../../../src/app/explore/column-query.ts';
import { DOCS, FakeBm25, FakeDense, FakeJobs, FakeRerank, FakeRuns } from './fakes.ts';

const C = 'starter';
const english = englishAnalyzer();

function setup() {
  const bm25 = new FakeBm25();
  const rerank = new FakeRerank();
  const engine = new RetrievalEngine({ bm25, dense: new FakeDense(), rerank, runs: new FakeRuns(), jobs: new FakeJobs(), collectionName: () => 'Starter' });
  return { bm25, rerank, engine };
}

const typed = (text: string, edit?: string) => columnQuery({ text, typed: true }, english, edit)!.input;

describe('RetrievalEngine: weighted queries', () => {
  it('with every weight 1 ranks exactly as the plain text (same documents, same float scores)', async () => {
    const { bm25, engine } = setup();
    for (const kind of ['bm25', 'ledr', 'rrf', 'convex', 'rm3'] as const) {
      const plain = await engine.rankQuery(C, defaultRetriever(kind), { text: 'bread go hard after few days' });
      const weighted = typed('bread^1 go^1 hard^1 after^1 few^1 days^1');
      expect(weighted.weighted).toBeDefined();
      const ranked = await engine.rankQuery(C, defaultRetriever(kind), weighted);
      expect(ranked.ranking.hits.map((h) => [h.docId, h.score])).toEqual(plain.ranking.hits.map((h) => [h.docId, h.score]));
    }
    // The weighted ones really went to the backend as bags.
    expect(bm25.searches.some((call) => call.queries.some((q) => q.weighted !== undefined))).toBe(true);
  });

  it('a weight, a dropped term and an added term change the BM25 ranking as the reference says', async () => {
    const { bm25, engine } = setup();
    const column = defaultRetriever('bm25');
    const plain = (await engine.rankQuery(C, column, { text: 'bread hard' })).ranking.hits;
    const edited = columnQuery({ text: 'bread hard', typed: true }, english, '+hard^4 +stale^2')!.input;
    const hits = (await engine.rankQuery(C, column, edited)).ranking.hits;
    expect(hits.map((h) => h.docId)).not.toEqual(plain.map((h) => h.docId));
    const reference = bm25.reference(C, 'english', edited, { k: 1000, k1: 0.9, b: 0.4 });
    expect(hits).toEqual(reference.map(({ docId, score }) => ({ docId, score })));
    // "bread" was dropped: a document with only "bread" (d4, d8) no longer matches.
    expect(hits.map((h) => h.docId)).not.toContain('d4');
    expect(hits.map((h) => h.docId)).toContain('d1');
  });

  it('explains a hit with the weighted bag: each term its weight, the contributions summing to the score', async () => {
    const { bm25, engine } = setup();
    const column = defaultRetriever('bm25');
    const query = typed('bread hard^2.5 +stale^0.5');
    const top = (await engine.rankQuery(C, column, query)).ranking.hits[0]!;
    const explanation = (await engine.explain(C, column, query, top.docId)).bm25!.explanation!;
    expect(bm25.explains.at(-1)).toEqual(query.weighted);
    expect(explanation.terms.map((t) => [t.term, t.boost])).toEqual([
      ['bread', 1],
      ['hard', 2.5],
      ['stale', 0.5],
    ]);
    expect(explanation.score).toBe(top.score);
    let sum = 0;
    for (const t of explanation.terms) sum = Math.fround(sum + t.contribution);
    expect(sum).toBeCloseTo(top.score, 5);
  });

  it('RM3 and Bo1 expand the weighted query, and memoize it apart from the plain one', async () => {
    const { bm25, engine } = setup();
    const rm3 = defaultRetriever('rm3');
    const plain = await engine.rankQuery(C, rm3, { text: 'bread hard' });
    const query = typed('bread^3 hard');
    const weighted = await engine.rankQuery(C, rm3, query);
    expect(bm25.prfSearches.at(-1)!.queries[0]!.weighted).toEqual([
      { term: 'bread', weight: 3 },
      { term: 'hard', weight: 1 },
    ]);
    expect(bm25.prfSearches).toHaveLength(2);
    if (plain.ranking.kind !== 'rm3' || weighted.ranking.kind !== 'rm3') throw new Error('not RM3 rankings');
    expect(weighted.ranking.expanded).not.toEqual(plain.ranking.expanded);
  });

  it('Re-rank: the first stage ranks the weighted bag, the cross-encoder reads the stripped text', async () => {
    const { engine } = setup();
    const rerank = defaultRetriever('rerank');
    const query = columnQuery({ text: 'bread^3 +stale hard', typed: true }, english, undefined)!.input;
    expect(query.text).toBe('bread stale hard');
    const result = await engine.rankQuery(C, rerank, query);
    if (result.ranking.kind !== 'rerank') throw new Error('not a re-ranking');
    const firstStage = (await engine.rankQuery(C, defaultRetriever('bm25'), query)).ranking.hits;
    expect(result.ranking.firstStage.map((h) => h.docId)).toEqual(firstStage.slice(0, DEFAULT_RERANK_DEPTH).map((h) => h.docId));
    const plainFirst = (await engine.rankQuery(C, defaultRetriever('bm25'), { text: 'bread stale hard' })).ranking.hits;
    expect(firstStage.map((h) => h.score)).not.toEqual(plainFirst.map((h) => h.score));
    // The cross-encoder's scores are of the stripped text (FakeRerank.score counts shared words).
    for (const hit of result.ranking.hits) {
      const doc = DOCS.find((d) => d.id === hit.docId)!;
      expect(hit.score).toBe(Math.fround(FakeRerank.score('bread stale hard', doc)));
    }
  });
});
