import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { evaluate, type EvalResult } from '../../../src/lib/eval/evaluate.ts';
import { DuplicateDocumentError } from '../../../src/lib/hits/trec-order.ts';
import { SeededRandom } from '../../../src/lib/eval/seeded-random.ts';
import { formatTrecEval } from '../../../src/lib/eval/trec-eval-output.ts';
import type { Hit, Run } from '../../../src/lib/types.ts';
import { qrelsOf, runOf } from './fixtures.ts';

const ALL_MEASURES = ['all_trec', 'R_cap.1,3,5,10', 'Hole.1,3,5,10', 'P.1,2,3,4,5,7,10', 'recall.1,2,3,4,5,7,10', 'ndcg_cut.1,2,3,5,10'];

describe('evaluate: trec_eval query handling', () => {
  const qrels = qrelsOf({ q1: { a: 1, b: 0, c: 2 }, q2: { x: 1 }, q3: { y: 0 } });
  const run = runOf({ q1: [['a', 3], ['b', 2], ['z', 1]], q3: [['y', 1]], q9: [['a', 1]] });

  it('evaluates the queries in both files, including a judged query without relevant documents', () => {
    const result = evaluate(qrels, run, { measures: ['num_q', 'num_rel', 'P.1'] });
    expect(result.queries.map((q) => q.qid)).toEqual(['q1', 'q3']);
    expect(result.all).toEqual({ num_q: 2, num_rel: 2, P_1: 0.5 });
  });

  it('with complete, averages over every qrels query; an absent one scores 0 but keeps num_rel and prints no row', () => {
    const result = evaluate(qrels, run, { measures: ['num_q', 'num_ret', 'num_rel', 'P.1'], complete: true });
    expect(result.queries.map((q) => [q.qid, q.inRun])).toEqual([['q1', true], ['q2', false], ['q3', true]]);
    expect(result.queries[1]!.values).toEqual({ num_ret: 0, num_rel: 1, P_1: 0 });
    expect(result.all).toEqual({ num_q: 3, num_ret: 4, num_rel: 3, P_1: 1 / 3 });
    expect(formatTrecEval(result, { perQuery: true })).not.toMatch(/\tq2\t/);
  });

  it('ranks by score and breaks ties by decreasing document id, ignoring the order given', () => {
    const tied = runOf({ q1: [['a', 1], ['c', 1], ['b', 1]] });
    const result = evaluate(qrelsOf({ q1: { a: 1 } }), tied, { measures: ['recip_rank'] });
    expect(result.all.recip_rank).toBeCloseTo(1 / 3, 12);
  });

  it('uses the relevance level for binary measures and raw grades for nDCG', () => {
    const atLevel2 = evaluate(qrels, run, { measures: ['num_rel', 'num_rel_ret', 'P.1', 'ndcg'], relevanceLevel: 2 });
    expect(atLevel2.queries[0]!.values).toMatchObject({ num_rel: 1, num_rel_ret: 0, P_1: 0 });
    const atLevel1 = evaluate(qrels, run, { measures: ['ndcg'] });
    expect(atLevel2.queries[0]!.values.ndcg).toBe(atLevel1.queries[0]!.values.ndcg);
  });

  it('cuts each ranking to maxDocs after sorting', () => {
    const result = evaluate(qrels, run, { measures: ['num_ret', 'num_rel_ret'], maxDocs: 1 });
    expect(result.queries[0]!.values).toEqual({ num_ret: 1, num_rel_ret: 1 });
  });

  it('refuses a document retrieved twice, unless the copy falls below the maxDocs cut (as trec_eval)', () => {
    const duplicated: Run = new Map([['q1', [{ docId: 'a', score: 2 }, { docId: 'b', score: 1 }, { docId: 'a', score: 0 }]]]);
    expect(() => evaluate(qrels, duplicated, { measures: ['map'] })).toThrow(DuplicateDocumentError);
    expect(evaluate(qrels, duplicated, { measures: ['num_ret'], maxDocs: 2 }).all.num_ret).toBe(2);
  });

  it('with judgedDocsOnly (-J), drops unjudged documents before computing; -N feeds utility', () => {
    // q1 ranks a (1), b (0), z (not judged): -J keeps a, b.
    const judged = evaluate(qrels, run, { measures: ['num_ret', 'P.3', 'num_nonrel_judged_ret'], judgedDocsOnly: true });
    expect(judged.queries[0]!.values).toEqual({ num_ret: 2, P_3: 1 / 3, num_nonrel_judged_ret: 1 });
    const unfiltered = evaluate(qrels, run, { measures: ['num_ret'] });
    expect(unfiltered.queries[0]!.values.num_ret).toBe(3);
    // utility.0,0,0,1 = nonrelevant not retrieved = N + rel_ret − ret − rel; q1: 100 + 1 − 3 − 2.
    const utility = evaluate(qrels, run, { measures: ['utility.0,0,0,1'], numDocsInCollection: 100 });
    expect(utility.queries[0]!.values['utility_0,0,0,1']).toBe(96);
  });

  it('prints runid only when asked, with the given run id', () => {
    expect(evaluate(qrels, run, { measures: ['runid', 'num_q'], runId: 'bm25' }).runId).toBe('bm25');
    expect(evaluate(qrels, run, { measures: ['num_q'], runId: 'bm25' }).runId).toBeUndefined();
  });
});

// ---------------------------------------------------------------- properties on random qrels and runs

const DOC_IDS = ['d1', 'd10', 'd2', 'D', 'a', 'ab', 'é', '\u{1d538}', '\uffff', 'z9'];
const QIDS = ['1', '10', '2', 'q'];

const qrelsArbitrary = fc
  .dictionary(fc.constantFrom(...QIDS), fc.dictionary(fc.constantFrom(...DOC_IDS), fc.integer({ min: -1, max: 3 }), { minKeys: 1 }))
  .map(qrelsOf);

const runArbitrary = fc
  .dictionary(
    fc.constantFrom(...QIDS),
    fc.uniqueArray(fc.record({ docId: fc.constantFrom(...DOC_IDS), score: fc.constantFrom(-1, 0, 0.5, 1, 2.25) }), {
      selector: (hit) => hit.docId,
      minLength: 1,
    }),
  )
  .map((record): Run => new Map(Object.entries(record)));

const optionsArbitrary = fc.record({
  complete: fc.boolean(),
  relevanceLevel: fc.integer({ min: 1, max: 3 }),
  maxDocs: fc.option(fc.integer({ min: 0, max: 12 }), { nil: undefined }),
});

function shuffled<T>(items: readonly T[], random: SeededRandom): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(random.nextFloat() * (i + 1));
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy;
}

function valuesOf(result: EvalResult): Array<[string, string, number]> {
  const rows: Array<[string, string, number]> = [];
  for (const query of result.queries) for (const [name, value] of Object.entries(query.values)) rows.push([query.qid, name, value]);
  for (const [name, value] of Object.entries(result.all)) rows.push(['all', name, value]);
  return rows;
}

const UNIT_INTERVAL = /^(map|Rprec|recip_rank|ndcg|P_\d+|recall_\d+|ndcg_cut_\d+|map_cut_\d+|success_\d+|R_cap_\d+|Hole_\d+)$/;

describe('evaluate: properties', () => {
  it('keeps nDCG, recall, P, AP and the other normalized measures within [0, 1]', () => {
    fc.assert(
      fc.property(qrelsArbitrary, runArbitrary, optionsArbitrary, (qrels, run, options) => {
        for (const [, name, value] of valuesOf(evaluate(qrels, run, { ...options, measures: ALL_MEASURES }))) {
          if (UNIT_INTERVAL.test(name)) {
            expect(value).toBeGreaterThanOrEqual(0);
            expect(value).toBeLessThanOrEqual(1);
          }
        }
      }),
    );
  });

  it('does not depend on the order of the run lines (queries or hits)', () => {
    fc.assert(
      fc.property(qrelsArbitrary, runArbitrary, optionsArbitrary, fc.integer(), (qrels, run, options, seed) => {
        const random = new SeededRandom(seed);
        const permuted: Run = new Map(shuffled([...run], random).map(([qid, hits]) => [qid, shuffled(hits, random)]));
        const measures = { ...options, measures: ALL_MEASURES };
        expect(evaluate(qrels, permuted, measures)).toEqual(evaluate(qrels, run, measures));
      }),
    );
  });

  it('gives recall@k non-decreasing in k', () => {
    const cutoffs = Array.from({ length: 12 }, (_, i) => i + 1);
    fc.assert(
      fc.property(qrelsArbitrary, runArbitrary, optionsArbitrary, (qrels, run, options) => {
        const result = evaluate(qrels, run, { ...options, measures: [`recall.${cutoffs.join(',')}`] });
        for (const query of result.queries) {
          const recalls = cutoffs.map((k) => query.values[`recall_${k}`]!);
          for (let i = 1; i < recalls.length; i++) expect(recalls[i]).toBeGreaterThanOrEqual(recalls[i - 1]!);
        }
      }),
    );
  });

  it('resolves ties by decreasing document id: all-equal scores evaluate like scores decreasing along that order', () => {
    fc.assert(
      fc.property(qrelsArbitrary, runArbitrary, optionsArbitrary, (qrels, run, options) => {
        const tied: Run = new Map([...run].map(([qid, hits]) => [qid, hits.map((hit) => ({ ...hit, score: 7 }))]));
        const explicit: Run = new Map(
          [...run].map(([qid, hits]) => {
            const byIdDescending = [...hits].sort((a, b) => Buffer.compare(Buffer.from(b.docId), Buffer.from(a.docId)));
            return [qid, byIdDescending.map((hit, i): Hit => ({ docId: hit.docId, score: 100 - i }))];
          }),
        );
        const measures = { ...options, measures: ALL_MEASURES };
        expect(evaluate(qrels, tied, measures)).toEqual(evaluate(qrels, explicit, measures));
      }),
    );
  });

  it('agrees with textbook P@k, recall@k, AP, nDCG@k, RR and R-precision', () => {
    fc.assert(
      fc.property(qrelsArbitrary, runArbitrary, (qrels, run) => {
        const result = evaluate(qrels, run, { measures: ['P.1,3,5', 'recall.1,3,5', 'map', 'ndcg_cut.1,3,5', 'recip_rank', 'Rprec'] });
        for (const query of result.queries) {
          const expected = textbook(qrels.get(query.qid)!, run.get(query.qid)!);
          for (const [name, value] of Object.entries(expected)) expect(query.values[name]).toBeCloseTo(value, 12);
        }
      }),
    );
  });
});

/**
 * Textbook definitions written independently of src/lib/eval (Manning, Raghavan & Schütze, ch. 8;
 * Järvelin & Kekäläinen 2002 with linear gains), on the ranking sorted by score then byte-wise docid.
 */
function textbook(judgments: ReadonlyMap<string, number>, hits: readonly Hit[]): Record<string, number> {
  const ranked = [...hits]
    .sort((a, b) => b.score - a.score || Buffer.compare(Buffer.from(b.docId), Buffer.from(a.docId)))
    .map((hit) => hit.docId);
  const grade = (docId: string) => judgments.get(docId) ?? 0;
  const relevant = [...judgments.values()].filter((g) => g >= 1).length;
  const isRelevant = ranked.map((docId) => grade(docId) >= 1);
  const relevantIn = (k: number) => isRelevant.slice(0, k).filter(Boolean).length;
  const dcg = (gains: number[], k: number) =>
    gains.slice(0, k).reduce((sum, gain, i) => sum + (gain > 0 ? gain / Math.log2(i + 2) : 0), 0);
  const idealGains = [...judgments.values()].filter((g) => g > 0).sort((a, b) => b - a);
  const values: Record<string, number> = {};
  for (const k of [1, 3, 5]) {
    values[`P_${k}`] = relevantIn(k) / k;
    values[`recall_${k}`] = relevant === 0 ? 0 : relevantIn(k) / relevant;
    const ideal = dcg(idealGains, k);
    values[`ndcg_cut_${k}`] = ideal === 0 ? 0 : dcg(ranked.map(grade), k) / ideal;
  }
  let precisionSum = 0;
  isRelevant.forEach((rel, i) => {
    if (rel) precisionSum += relevantIn(i + 1) / (i + 1);
  });
  values.map = relevant === 0 ? 0 : precisionSum / relevant;
  const first = isRelevant.indexOf(true);
  values.recip_rank = first === -1 ? 0 : 1 / (first + 1);
  values.Rprec = relevant === 0 ? 0 : relevantIn(relevant) / relevant;
  return values;
}
