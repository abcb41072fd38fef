/** Hand-computed values for the binary measures (m_P.c, m_recall.c, m_success.c, m_map.c, m_map_cut.c, m_Rprec.c, m_recip_rank.c). */
import { describe, expect, it } from 'vitest';
import { averagePrecision, averagePrecisionAt } from '../../../src/lib/eval/average-precision.ts';
import { judgeRanking } from '../../../src/lib/eval/judged-ranking.ts';
import { precisionAt } from '../../../src/lib/eval/precision.ts';
import { rPrecision } from '../../../src/lib/eval/r-precision.ts';
import { recallAt } from '../../../src/lib/eval/recall.ts';
import { reciprocalRank } from '../../../src/lib/eval/reciprocal-rank.ts';
import { successAt } from '../../../src/lib/eval/success.ts';

// Relevant: r1, r2, r3, r4 (r4 never retrieved); n judged non-relevant, u judged -1, x unjudged.
const judgments = new Map([
  ['r1', 1],
  ['r2', 2],
  ['r3', 1],
  ['r4', 3],
  ['n', 0],
  ['u', -1],
]);
const ranking = judgeRanking(['x', 'r1', 'n', 'r2', 'u', 'r3'], judgments);

describe('binary measures on x r1 n r2 u r3 with 4 relevant', () => {
  it('counts as trec_eval form_res_rels.c', () => {
    expect(ranking.grades).toEqual([-1, 1, 0, 2, -2, 1]);
    expect([ranking.numRet, ranking.numRel, ranking.numRelRet]).toEqual([6, 4, 3]);
  });

  it('P@k divides by k even past the end of the ranking', () => {
    expect(precisionAt(ranking, [1, 2, 4, 10])).toEqual([0, 0.5, 0.5, 0.3]);
  });

  it('recall@k divides by all relevant documents', () => {
    expect(recallAt(ranking, [1, 2, 6])).toEqual([0, 0.25, 0.75]);
  });

  it('success@k is 1 once a relevant document is in the top k', () => {
    expect(successAt(ranking, [1, 2, 3])).toEqual([0, 1, 1]);
  });

  it('AP averages precision at each relevant rank over all relevant documents', () => {
    const ap = (1 / 2 + 2 / 4 + 3 / 6) / 4;
    expect(averagePrecision(ranking)).toBeCloseTo(ap, 15);
    expect(averagePrecisionAt(ranking, [1, 2, 4, 1000])).toEqual([0, 1 / 2 / 4, (1 / 2 + 2 / 4) / 4, averagePrecision(ranking)]);
  });

  it('Rprec is precision at R, and RR the reciprocal rank of the first relevant', () => {
    expect(rPrecision(ranking)).toBe(2 / 4);
    expect(reciprocalRank(ranking)).toBe(1 / 2);
  });

  it('with relevance level 2 only grades ≥ 2 are relevant', () => {
    const strict = judgeRanking(['x', 'r1', 'n', 'r2', 'u', 'r3'], judgments, 2);
    expect([strict.numRel, strict.numRelRet]).toEqual([2, 1]);
    expect(reciprocalRank(strict)).toBe(1 / 4);
  });

  it('a query without relevant documents scores 0 on recall, AP and Rprec', () => {
    const none = judgeRanking(['n'], new Map([['n', 0]]));
    expect([recallAt(none, [5])[0], averagePrecision(none), averagePrecisionAt(none, [5])[0], rPrecision(none)]).toEqual([0, 0, 0, 0]);
  });
});
