/**
 * rankBatch's own rules, over a search stand-in that records what it is asked: blank queries, the query's
 * own id in dense rankings (asked one more so k remain), fusion input depths, LEDR scoring BM25's candidates,
 * imported runs, and the plain variant without parts.
 */
import { describe, expect, it } from 'vitest';
import type { PrfRequest } from '../../../src/lib/prf/prf-request.ts';
import { defaultRetriever, RUN_DEPTH, type Bm25Settings, type DenseSettings, type RetrieverConfig } from '../../../src/lib/retrievers/config.ts';
import { rankBatch, type RankSearch, type RowSearch } from '../../../src/lib/retrievers/rank.ts';
import { hitsOf, isRowRanking, type RowRanking } from '../../../src/lib/hits/row-ranking.ts';
import type { RankQuery } from '../../../src/lib/retrievers/ranking.ts';
import type { Hit, Run } from '../../../src/lib/types.ts';
import type { Candidates } from '../../../src/lib/hits/packed-hits.ts';

/** The document ids of one query's candidates (hits, bare ids or rows). */
function candidateIds(list: Candidates[number]): string[] {
  return isRowRanking(list) ? hitsOf(list).map((hit) => hit.docId) : list.map((hit) => hit.docId);
}

/** Documents d0…d9; BM25 scores them 10…1 in order, dense 1.0…0.1 in reverse order. */
const IDS = Array.from({ length: 10 }, (_, i) => `d${i}`);

class RecordingSearch implements RankSearch {
  calls: string[] = [];
  async bm25(_settings: Bm25Settings, queries: readonly RankQuery[], k: number): Promise<Hit[][]> {
    this.calls.push(`bm25 ${queries.length}×${k}`);
    return queries.map((query) => IDS.filter((id) => id !== query.id).slice(0, k).map((docId, i) => ({ docId, score: 10 - i })));
  }
  async dense(_settings: DenseSettings, texts: readonly string[], k: number): Promise<Hit[][]> {
    this.calls.push(`dense ${texts.length}×${k}`);
    return texts.map(() => [...IDS].reverse().slice(0, k).map((docId, i) => ({ docId, score: 1 - i / 10 })));
  }
  async denseScores(_settings: DenseSettings, texts: readonly string[], candidates: Candidates): Promise<number[][]> {
    this.calls.push(`scores ${texts.length}`);
    return candidates.map((list) => candidateIds(list).map((docId) => (docId === 'd1' ? 0.9 : 0.1)));
  }
  async prf(_settings: Bm25Settings, request: PrfRequest, queries: readonly RankQuery[], k: number) {
    this.calls.push(`${request.method} ${queries.length}×${k}`);
    return queries.map(() => ({ hits: [{ docId: 'd3', score: 2 }], expanded: [{ term: 'x', weight: 1 }], feedbackDocIds: ['d3'] }));
  }
  runs = new Map<string, Run>();
  async importedRun(runKey: string): Promise<Run | undefined> {
    return this.runs.get(runKey);
  }
}

const dense = defaultRetriever('dense');

describe('rankBatch', () => {
  it('gives blank queries empty rankings without searching for them', async () => {
    const search = new RecordingSearch();
    const rankings = await rankBatch(search, defaultRetriever('bm25'), [{ text: '  ' }, { id: 'q', text: 'bread' }], { depth: 3 });
    expect(rankings.map((r) => r?.hits.length)).toEqual([0, 3]);
    expect(search.calls).toEqual(['bm25 1×3']);
    expect(await rankBatch(search, dense, [{ text: '' }])).toEqual([{ kind: 'dense', hits: [] }]);
    expect(search.calls).toHaveLength(1);
  });

  it('drops a stored query’s own id from dense rankings and still returns k hits', async () => {
    const search = new RecordingSearch();
    const [stored, typed] = await rankBatch(search, dense, [{ id: 'd9', text: 'a' }, { text: 'a' }], { depth: 3 });
    expect(search.calls).toEqual(['dense 2×4']);
    expect(stored!.hits.map((h) => h.docId)).toEqual(['d8', 'd7', 'd6']);
    expect(typed!.hits.map((h) => h.docId)).toEqual(['d9', 'd8', 'd7']);
    const [kept] = await rankBatch(search, dense, [{ id: 'd9', text: 'a' }], { depth: 3, keepIdenticalIds: true });
    expect(kept!.hits.map((h) => h.docId)).toEqual(['d9', 'd8', 'd7']);
  });

  it('fuses RRF and convex from the top max(depth, RUN_DEPTH) of both rankings, keeping depth', async () => {
    for (const kind of ['rrf', 'convex'] as const) {
      const search = new RecordingSearch();
      const [ranking] = await rankBatch(search, defaultRetriever(kind), [{ text: 'a' }], { depth: 4 });
      expect(search.calls.sort()).toEqual([`bm25 1×${RUN_DEPTH}`, `dense 1×${RUN_DEPTH}`]);
      expect(ranking!.hits).toHaveLength(4);
      expect((ranking!.hits[0] as { parts?: unknown }).parts).toBeDefined();
    }
  });

  it('LEDR scores only the BM25 top K; the plain variant drops the parts', async () => {
    const search = new RecordingSearch();
    const ledr = { ...(defaultRetriever('ledr') as Extract<RetrieverConfig, { kind: 'ledr' }>), k: 5 };
    const [withParts] = await rankBatch(search, ledr, [{ text: 'a' }], { depth: 2 });
    expect(search.calls).toEqual(['bm25 1×5', 'scores 1']);
    // d1: BM25 9 × cosine 0.9 beats d0: 10 × 0.1.
    expect(withParts!.hits.map((h) => h.docId)).toEqual(['d1', 'd0']);
    expect(withParts!.hits[0]).toHaveProperty('parts');
    const [plain] = await rankBatch(search, ledr, [{ text: 'a' }], { depth: 2, form: 'hits' });
    expect(plain).toEqual(withParts!.hits.map(({ docId, score }) => ({ docId, score })));
  });

  it('form lists: over a search answering as rows, BM25, dense and LEDR rankings are rows of the hits form hits gives', async () => {
    const asRows = (hits: readonly Hit[]): RowRanking => ({
      table: IDS,
      rows: Uint32Array.from(hits, (hit) => IDS.indexOf(hit.docId)),
      scores: Float64Array.from(hits, (hit) => hit.score),
    });
    /** The same answers as RecordingSearch, as rows of IDS. */
    class RowsSearch extends RecordingSearch {
      rows: RowSearch = {
        bm25: async (settings, queries, k) => (await this.bm25(settings, queries, k)).map(asRows),
        dense: async (settings, texts, k) => (await this.dense(settings, texts, k)).map(asRows),
      };
    }
    const ledr = { ...(defaultRetriever('ledr') as Extract<RetrieverConfig, { kind: 'ledr' }>), k: 5 };
    const queries = [{ text: 'a' }, { text: ' ' }, { id: 'd0', text: 'b' }, { id: 'd9', text: 'c' }];
    for (const retriever of [defaultRetriever('bm25'), dense, ledr]) {
      const search = new RowsSearch();
      const lists = await rankBatch(search, retriever, queries, { depth: 4, form: 'lists' });
      expect(lists.map((list) => list !== undefined && isRowRanking(list))).toEqual([true, false, true, true]);
      expect(lists.map((list) => hitsOf(list!))).toEqual(await rankBatch(new RecordingSearch(), retriever, queries, { depth: 4, form: 'hits' }));
      // LEDR's candidates cross as rows to be scored, and are fused as rows.
      if (retriever === ledr) expect(search.calls).toEqual(['bm25 3×5', 'scores 3']);
    }
    // Dense: the query's own id is dropped from the rows, and k remain.
    const denseLists = await rankBatch(new RowsSearch(), dense, queries, { depth: 4, form: 'lists' });
    expect(hitsOf(denseLists[3]!).map((hit) => hit.docId)).toEqual(['d8', 'd7', 'd6', 'd5']);
    // Other kinds, and LEDR over RM3 or Bo1, are hits.
    const rrf = await rankBatch(new RowsSearch(), defaultRetriever('rrf'), queries, { depth: 3, form: 'lists' });
    expect(rrf.every((list) => list === undefined || Array.isArray(list))).toBe(true);
    const bo1 = new RowsSearch();
    const overBo1 = await rankBatch(bo1, ledr, queries, { depth: 3, ledrLexical: { method: 'bo1' }, form: 'lists' });
    expect(overBo1.every((list) => Array.isArray(list))).toBe(true);
  });

  it('takes LEDR’s candidates from RM3 or Bo1 when asked', async () => {
    const search = new RecordingSearch();
    const [ranking] = await rankBatch(search, defaultRetriever('ledr'), [{ text: 'a' }], { ledrLexical: { method: 'bo1' } });
    expect(search.calls[0]).toBe('bo1 1×1000');
    expect(ranking!.hits.map((h) => h.docId)).toEqual(['d3']);
  });

  it('reads imported runs (undefined for a query the run lacks) and fails for a run not stored', async () => {
    const search = new RecordingSearch();
    search.runs.set('r', new Map([['q1', [{ docId: 'd1', score: 1 }, { docId: 'd2', score: 0.5 }]]]));
    const run = { kind: 'run', runKey: 'r', name: 'mine' } as const;
    const rankings = await rankBatch(search, run, [{ id: 'q1', text: 'x' }, { id: 'q2', text: 'y' }], { depth: 1 });
    expect(rankings).toEqual([{ kind: 'run', hits: [{ docId: 'd1', score: 1 }] }, undefined]);
    await expect(rankBatch(search, { ...run, runKey: 'gone' }, [{ id: 'q1', text: 'x' }])).rejects.toThrow('"mine" is not stored');
  });

  it('says what is missing when the search has no cross-encoder', async () => {
    const search = new RecordingSearch();
    await expect(rankBatch(search, defaultRetriever('rerank'), [{ text: 'a' }])).rejects.toThrow('a cross-encoder is not available here');
  });
});
