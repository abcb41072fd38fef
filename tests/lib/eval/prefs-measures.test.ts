/**
 * The preference measures on small hand-made judgments, each value worked out by hand from
 * form_prefs_counts.c and m_prefs_*.c (the full 9.0.8 test outputs are in trec-eval-parity.test.ts).
 */
import { describe, expect, it } from 'vitest';
import type { PrefJudgment, Prefs } from '../../../src/lib/data/trec-prefs.ts';
import { evaluate } from '../../../src/lib/eval/evaluate.ts';
import { countPreferences, PrefsError } from '../../../src/lib/eval/prefs-counts.ts';
import { prefsMeasure } from '../../../src/lib/eval/prefs-measures.ts';
import type { Run } from '../../../src/lib/types.ts';
import { runOf } from './fixtures.ts';

/** Lines `jg jsg docid level` of one query. */
function judgments(...lines: string[]): PrefJudgment[] {
  return lines.map((line) => {
    const [jg, jsg, docId, level] = line.split(' ') as [string, string, string, string];
    return { jg, jsg, docId, level: Math.fround(Number(level)) };
  });
}

function values(prefs: PrefJudgment[], run: Run): Record<string, number> {
  const result = evaluate(new Map(), run, { measures: ['all_prefs'], prefs: new Map([['q', prefs]]) as Prefs });
  return result.queries[0]!.values;
}

describe('preference counts', () => {
  it('one sub-group: classes by level; a preference is fulfilled, implied, failed or between unretrieved documents', () => {
    // a(2) > b(1) > c(0); the run ranks c then a, b is not retrieved: docid ranks c 0, a 1, b 2.
    const counts = countPreferences(['c', 'z', 'a'], judgments('g s a 2', 'g s b 1', 'g s c 0'));
    expect([counts.numJudged, counts.numJudgedRet]).toEqual([3, 2]);
    expect(counts.groups[0]!.classes!.map((c) => [c.level, c.ranks])).toEqual([[2, [1]], [1, [2]], [0, [0]]]);
    // a > c failed (both retrieved), a > b implied fulfilled, b > c implied failed.
    expect(counts.groups[0]).toMatchObject({ fulfilledRet: 0, possibleRet: 1, fulfilledImp: 1, possibleImp: 2, possibleNotRetrieved: 0 });
    expect(counts.groups[0]).toMatchObject({ numRel: 2, numRelRet: 1, numNonrel: 1, numNonrelRet: 1 });
  });

  it('several sub-groups: the group joins them transitively (a > b and b > c give a > c)', () => {
    const v = values(judgments('g s1 a 2', 'g s1 b 1', 'g s2 b 2', 'g s2 c 1'), runOf({ q: [['a', 2], ['c', 1]] }));
    // a > c fulfilled between retrieved documents, a > b implied fulfilled, b > c implied failed.
    expect(v).toMatchObject({ prefs_num_prefs_poss: 3, prefs_num_prefs_ful: 2, prefs_num_prefs_ful_ret: 1 });
    expect(v.prefs_simp).toBeCloseTo(2 / 3, 12);
    expect(v.prefs_simp_ret).toBe(1);
  });

  it('refuses a group whose sub-groups contradict each other, as trec_eval does', () => {
    expect(() => countPreferences(['a'], judgments('g s1 a 2', 'g s1 b 1', 'g s2 b 2', 'g s2 a 1'))).toThrow(PrefsError);
    expect(() => countPreferences(['a'], judgments('g s1 a 1', 'g s1 b 0', 'g s2 a 0', 'g s2 c 1'))).toThrow(/both 0 and non-0/);
  });

  it('ranks tied scores by INCREASING document id (form_prefs_counts.c), unlike the other measures', () => {
    const run = runOf({ q: [['b', 1], ['a', 1]] });
    expect(values(judgments('g s b 1', 'g s a 0'), run).prefs_simp).toBe(0);
    expect(values(judgments('g s a 1', 'g s b 0'), run).prefs_simp).toBe(1);
  });
});

describe('preference measures', () => {
  it('simp counts preferences, pair averages over document pairs, avgjg over judgment groups', () => {
    // g1: a > b, g2: b > a (a conflict), g3: a > b and a > c; the run ranks a, b, c.
    const prefs = judgments('g1 s a 1', 'g1 s b 0', 'g2 s b 1', 'g2 s a 0', 'g3 s a 1', 'g3 s b 0', 'g3 s c 0');
    const v = values(prefs, runOf({ q: [['a', 3], ['b', 2], ['c', 1]] }));
    expect(v.prefs_simp).toBe(3 / 4);
    expect(v.prefs_pair).toBeCloseTo((2 / 3 + 1) / 2, 12);
    expect(v.prefs_avgjg).toBeCloseTo((1 + 0 + 1) / 3, 12);
    const counts = countPreferences(['a', 'b', 'c'], prefs);
    expect(prefsMeasure('prefs_pair_ret', counts)).toBeCloseTo(v.prefs_pair!, 12);
  });

  it('avgjg_Rnonrel adds missing non-relevant documents as fulfilled preferences', () => {
    // R = 2 (a, b), N = 1 (c): 1 fulfilled of 3, plus numRelRet·(R−N) = 1 fulfilled of numRel·(R−N) = 2.
    const v = values(judgments('g s a 2', 'g s b 1', 'g s c 0'), runOf({ q: [['c', 2], ['a', 1]] }));
    expect(v.prefs_avgjg_Rnonrel).toBeCloseTo(2 / 5, 12);
  });

  it("avgjg_Rnonrel with more non-relevant documents than R keeps R of them, and compares them with their own class as trec_eval's recount does", () => {
    // a(1) and n1, n2, n3 (0), ranked a, n1, n2, n3: R = 1 keeps n1; a > n1 is fulfilled, but the recount also
    // compares n1, n2, n3 with n1 (three failures): 1/4 where the intent would give 1.
    const v = values(judgments('g s a 1', 'g s n1 0', 'g s n2 0', 'g s n3 0'), runOf({ q: [['a', 4], ['n1', 3], ['n2', 2], ['n3', 1]] }));
    expect(v.prefs_avgjg_Rnonrel).toBe(1 / 4);
    expect(v.prefs_avgjg_Rnonrel_ret).toBe(1 / 4);
    expect(v.prefs_simp).toBe(1);
  });
});
