/**
 * rerank(): the first stage's top depth ordered by the scorer, with first-stage ranks kept; on a hand-made
 * list, and on SciFact BM25 hits re-ranked by the tiny cross-encoder, whose scores are recomputed here from
 * the token ids. firstStageCeiling is recall@depth of the first stage (trec_eval recall.N).
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { crossEncoderTokenWeight, CROSS_ALPHA, CROSS_BETA } from '../../../scripts/models/tiny-cross-encoder.ts';
import { loadDataset } from '../../../src/cli/dataset.ts';
import { loadNodeCrossEncoder, resolveNodeReranker } from '../../../src/cli/rerank.ts';
import { createAnalyzer } from '../../../src/lib/analysis/analyzers.ts';
import { analyzeQuery, indexCorpus } from '../../../src/lib/bm25/bm25-corpus.ts';
import { searchBm25 } from '../../../src/lib/bm25/bm25-search.ts';
import type { CrossEncoder } from '../../../src/lib/rerank/cross-encoder.ts';
import { docScorerFor, firstStageCeiling, rerank, rerankDocText } from '../../../src/lib/rerank/rerank.ts';
import type { Doc, Hit, Qrels, Query, Run } from '../../../src/lib/types.ts';
import { ensureModels } from '../dense/models-fixture.ts';
import { shared } from '../../shared-dir.ts';

describe('rerank on a hand-made list', () => {
  const hits: Hit[] = ['a', 'b', 'c', 'd', 'e'].map((docId, i) => ({ docId, score: 10 - i }));
  const scores: Record<string, number> = { a: 0.1, b: 0.9, c: Number.NaN, d: 0.9, e: 0.5 };
  const byTable = async (ids: readonly string[]) => ids.map((id) => scores[id]!);

  test('orders the top depth by score, ties in first-stage order, NaN last; ranks and first-stage scores kept', async () => {
    const out = await rerank(hits, 5, byTable);
    expect(out.map((h) => h.docId)).toEqual(['b', 'd', 'e', 'a', 'c']);
    expect(out.map((h) => h.newRank)).toEqual([1, 2, 3, 4, 5]);
    expect(out.map((h) => h.firstStageRank)).toEqual([2, 4, 5, 1, 3]);
    expect(out.map((h) => h.firstStageScore)).toEqual([9, 7, 6, 10, 8]);
    expect(out[0]!.score).toBe(0.9);
  });

  test('scores only the first depth hits and returns only those', async () => {
    const asked: string[][] = [];
    const out = await rerank(hits, 3, async (ids) => {
      asked.push([...ids]);
      return byTable(ids);
    });
    expect(asked).toEqual([['a', 'b', 'c']]);
    expect(out.map((h) => h.docId)).toEqual(['b', 'a', 'c']);
    expect(await rerank(hits, 0, byTable)).toEqual([]);
  });

  test('a scorer answering the wrong number of scores is an error', async () => {
    await expect(rerank(hits, 2, async () => [1])).rejects.toThrow(/expected 2 scores/);
  });
});

describe('firstStageCeiling', () => {
  test('is recall@depth of the first stage per query and averaged over judged queries', () => {
    const qrels: Qrels = new Map([
      ['q1', new Map([['a', 1], ['x', 1]])],
      ['q2', new Map([['c', 2]])],
      ['q3', new Map([['z', 1]])],
    ]);
    const run: Run = new Map([
      ['q1', [{ docId: 'a', score: 3 }, { docId: 'b', score: 2 }, { docId: 'x', score: 1 }]],
      ['q2', [{ docId: 'c', score: 1 }]],
    ]);
    // depth 2: q1 finds a (1 of 2), q2 finds c (1 of 1), q3 has no run (0, counted as trec_eval -c does).
    const ceiling = firstStageCeiling(qrels, run, 2);
    expect(ceiling.perQuery.get('q1')).toBe(0.5);
    expect(ceiling.perQuery.get('q2')).toBe(1);
    expect(ceiling.perQuery.get('q3')).toBe(0);
    expect(ceiling.mean).toBeCloseTo(1.5 / 3, 12);
    expect(firstStageCeiling(qrels, run, 3).perQuery.get('q1')).toBe(1);
  });
});

describe('BM25 top 100 on SciFact re-ranked by the tiny cross-encoder', () => {
  let model: CrossEncoder;
  let docs: Doc[];
  let queries: Query[];
  let tokenizerIds: (text: string) => number[];

  beforeAll(async () => {
    ensureModels('tiny-cross-encoder');
    model = await loadNodeCrossEncoder(resolveNodeReranker('local/tiny-cross-encoder'), { dtype: 'fp32' });
    const scifact = await loadDataset(shared('beir', 'scifact'), { splits: ['test'] });
    docs = scifact.docs;
    queries = [...scifact.queries.values()].filter((q) => scifact.qrels.get('test')!.has(q.id)).slice(0, 3);
    tokenizerIds = (text) => {
      const pair = model.encode(text, 'x');
      return pair.ids.filter((_, i) => pair.typeIds[i] === 0).slice(1, -1);
    };
  });
  afterAll(() => model?.dispose());

  test('the new order is the order of the scores, and each score is the formula of the pair’s token ids', async () => {
    const analyzer = createAnalyzer('english');
    const index = indexCorpus(docs, analyzer);
    const byId = new Map(docs.map((d) => [d.id, d]));
    for (const query of queries) {
      const first = searchBm25(index, analyzeQuery(query, analyzer), { k: 100, params: { k1: 0.9, b: 0.4 } });
      const out = await rerank(first, 100, docScorerFor(model, query.text, (id) => (byId.has(id) ? rerankDocText(byId.get(id)!) : undefined), { batchSize: 32 }));
      expect(out).toHaveLength(100);
      const queryIds = tokenizerIds(query.text);
      for (const [i, hit] of out.entries()) {
        if (i > 0) expect(hit.score).toBeLessThanOrEqual(out[i - 1]!.score);
        expect(first[hit.firstStageRank - 1]!.docId).toBe(hit.docId);
        const pair = model.encode(query.text, rerankDocText(byId.get(hit.docId)!));
        let expected = 0;
        pair.ids.forEach((id, k) => {
          if (pair.typeIds[k] === 1) expected += crossEncoderTokenWeight(id) * (CROSS_ALPHA + queryIds.filter((q) => q === id).length);
        });
        for (const id of queryIds) expected -= CROSS_BETA * crossEncoderTokenWeight(id);
        expect(hit.score).toBe(Math.fround(expected));
      }
      expect(new Set(out.map((h) => h.docId)).size).toBe(100);
      // The cross-encoder disagrees with BM25 somewhere in the top 100 (it counts tokens, not BM25 weights).
      expect(out.some((h) => h.newRank !== h.firstStageRank)).toBe(true);
    }
  });
});
