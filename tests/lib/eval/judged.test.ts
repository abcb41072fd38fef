import { describe, expect, it } from 'vitest';
import { evaluate } from '../../../src/lib/eval/evaluate.ts';
import { condenseRun, judgedAt, judgedAtK } from '../../../src/lib/eval/judged.ts';
import { judgedOnly, judgeRanking } from '../../../src/lib/eval/judged-ranking.ts';
import { qrelsOf, runOf } from './fixtures.ts';

// r relevant (1), n judged non-relevant (0), u judged -1, x and y unjudged.
const judgments = new Map([
  ['r', 1],
  ['n', 0],
  ['u', -1],
]);

describe('judgedAt (judged@k of one ranking)', () => {
  it('counts judgments of any grade, 0 and negative included, in the top k over k', () => {
    const ranking = judgeRanking(['x', 'r', 'n', 'y', 'u'], judgments);
    // top 1: x → 0/1; top 2: x r → 1/2; top 3: x r n → 2/3; top 5: x r n y u → 3/5.
    expect(judgedAt(ranking, [1, 2, 3, 5])).toEqual([0, 1 / 2, 2 / 3, 3 / 5]);
  });

  it('divides by k even when fewer than k documents were retrieved', () => {
    // 3 documents, all judged: judged@10 = 3/10 (not 3/3).
    expect(judgedAt(judgeRanking(['r', 'n', 'u'], judgments), [2, 10])).toEqual([1, 0.3]);
    expect(judgedAt(judgeRanking([], judgments), [10])).toEqual([0]);
  });

  it('is 0 for a query without judgments', () => {
    expect(judgedAt(judgeRanking(['a', 'b'], undefined), [1, 10])).toEqual([0, 0]);
  });
});

describe('judgedAtK (a run over every judged query)', () => {
  const qrels = qrelsOf({ q1: { a: 1, b: 0 }, q2: { c: 2 }, q3: { d: 1 } });
  // q1: a(3) x(2) b(1) → top 2 {a, x}: 1/2. q2: y c → top 2 {y, c}: 1/2. q3 absent → 0. q9 has no judgments.
  const run = runOf({
    q1: [['b', 1], ['a', 3], ['x', 2]],
    q2: [['y', 5], ['c', 4]],
    q9: [['d', 1]],
  });

  it('ranks by score, counts a judged query the run lacks as 0 and ignores unjudged queries', () => {
    const coverage = judgedAtK(run, qrels, 2);
    expect(coverage.perQuery).toEqual([
      { qid: 'q1', judged: 0.5 },
      { qid: 'q2', judged: 0.5 },
      { qid: 'q3', judged: 0 },
    ]);
    // (1/2 + 1/2 + 0) / 3
    expect(coverage.mean).toBeCloseTo(1 / 3, 12);
  });

  it('defaults to k = 10 and refuses a k that is not a positive integer', () => {
    // q1: 2 judged of 3 retrieved → 2/10; q2: 1/10; q3: 0 → mean 0.1.
    expect(judgedAtK(run, qrels).mean).toBeCloseTo(0.1, 12);
    expect(() => judgedAtK(run, qrels, 0)).toThrow(RangeError);
    expect(() => judgedAtK(run, qrels, 1.5)).toThrow(RangeError);
  });

  it('equals evaluate -c -m judged.k, per query and in the mean', () => {
    const result = evaluate(qrels, run, { measures: ['judged.2'], complete: true });
    expect(result.columns.map((c) => c.name)).toEqual(['judged_2']);
    expect(result.queries.map((q) => ({ qid: q.qid, judged: q.values.judged_2 }))).toEqual(judgedAtK(run, qrels, 2).perQuery);
    expect(result.all.judged_2).toBeCloseTo(judgedAtK(run, qrels, 2).mean, 12);
  });

  it('is 0 for an empty qrels', () => {
    expect(judgedAtK(run, new Map(), 10)).toEqual({ k: 10, perQuery: [], mean: 0 });
  });
});

describe('condenseRun (condensed lists)', () => {
  const qrels = qrelsOf({ q1: { r1: 1, r2: 2, n: 0, u: -1 }, q2: { r: 1 } });
  const run = runOf({
    q1: [['x', 9], ['r1', 8], ['n', 7], ['y', 6], ['u', 5], ['r2', 4]],
    q2: [['z', 2], ['w', 1]],
    q3: [['r1', 1]],
  });

  it('removes unjudged and negatively judged documents, keeping order and scores', () => {
    expect(condenseRun(run, qrels)).toEqual(runOf({ q1: [['r1', 8], ['n', 7], ['r2', 4]], q2: [], q3: [] }));
    // the input is left as it was
    expect(run.get('q1')).toHaveLength(6);
  });

  it('changes the measures as a condensed list should: P@2 over judged documents only', () => {
    // q1 original: x r1 → P@2 = 0.5; condensed: r1 n → 0.5; P@3: x r1 n → 1/3, condensed r1 n r2 → 2/3.
    const original = evaluate(qrels, run, { measures: ['P.3'] }).queries[0]!.values.P_3;
    const condensed = evaluate(qrels, condenseRun(run, qrels), { measures: ['P.3'] }).queries[0]!.values.P_3;
    expect(original).toBeCloseTo(1 / 3, 12);
    expect(condensed).toBeCloseTo(2 / 3, 12);
  });

  it('evaluates like trec_eval -J under -c, for every all_trec measure', () => {
    // Every ranked query keeps a judged document (see the next test for one that keeps none).
    const kept = runOf({ q1: run.get('q1')!.map((hit): [string, number] => [hit.docId, hit.score]), q2: [['z', 2], ['r', 1]] });
    const measures = ['all_trec', 'ndcg_cut.5,10', 'success.1,5'];
    const condensed = evaluate(qrels, condenseRun(kept, qrels), { measures, complete: true });
    const judgedDocsOnly = evaluate(qrels, kept, { measures, complete: true, judgedDocsOnly: true });
    expect(condensed.all).toEqual(judgedDocsOnly.all);
    expect(condensed.queries).toEqual(judgedDocsOnly.queries);
  });

  it('leaves a query with no judged document unranked, where -J evaluates an empty ranking', () => {
    const condensed = evaluate(qrels, condenseRun(run, qrels), { measures: ['P.5'], complete: true });
    const judgedDocsOnly = evaluate(qrels, run, { measures: ['P.5'], complete: true, judgedDocsOnly: true });
    expect(condensed.queries.find((q) => q.qid === 'q2')!.inRun).toBe(false);
    expect(judgedDocsOnly.queries.find((q) => q.qid === 'q2')!.inRun).toBe(true);
    // both count q2 as 0 in the -c mean: q1 condensed r1 n r2 → P@5 = 2/5, (2/5 + 0) / 2
    expect(condensed.all.P_5).toBeCloseTo(0.2, 12);
    expect(judgedDocsOnly.all.P_5).toBeCloseTo(0.2, 12);
  });

  it('uses the judged-ranking rule of -J', () => {
    const ranking = judgeRanking(['x', 'r1', 'n', 'y', 'u', 'r2'], qrels.get('q1'));
    expect(judgedOnly(ranking).grades).toEqual([1, 0, 2]);
  });
});
