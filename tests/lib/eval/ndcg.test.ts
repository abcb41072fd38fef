import { describe, expect, it } from 'vitest';
import { judgeRanking } from '../../../src/lib/eval/judged-ranking.ts';
import { ndcg, ndcgAt } from '../../../src/lib/eval/ndcg.ts';

const judgments = new Map([
  ['a', 2],
  ['b', 1],
  ['c', 0],
  ['u', -1],
]);
const ranking = judgeRanking(['c', 'b', 'x', 'a'], judgments);

describe('ndcg (m_ndcg.c)', () => {
  it('uses linear gains and log2(rank + 1) discounts: hand-computed DCG 1/log2 3 + 2/log2 5 over IDCG 2 + 1/log2 3', () => {
    const dcg = 1 / Math.log2(3) + 2 / Math.log2(5);
    const idcg = 2 + 1 / Math.log2(3);
    expect(ndcg(ranking)).toBeCloseTo(dcg / idcg, 14);
  });

  it('applies level=gain overrides to the ranking and the ideal (ndcg.1=3,2=9)', () => {
    const gains = [
      { level: 1, gain: 3 },
      { level: 2, gain: 9 },
    ];
    const dcg = 3 / Math.log2(3) + 9 / Math.log2(5);
    const idcg = 9 + 3 / Math.log2(3);
    expect(ndcg(ranking, gains)).toBeCloseTo(dcg / idcg, 14);
  });

  it('lets judged-non-relevant documents carry a gain (ndcg.0=-1), which can push nDCG below 0', () => {
    const onlyNonRelevant = judgeRanking(['c', 'x'], judgments);
    expect(ndcg(onlyNonRelevant, [{ level: 0, gain: -1 }])).toBeCloseTo(-1 / (2 + 1 / Math.log2(3)), 14);
  });

  it("reproduces trec_eval's (int)(g1 - g2) gain comparator: gains closer than 1 keep their table order", () => {
    // Table before sorting: [level 1 → 0.5 (parameter), level 0 → 0]; (int)(0.5 − 0) = 0 so the stable
    // merge sort keeps it, the "highest" gain is then level 0's 0 and trec_eval's ideal DCG is 0.
    const oneRelevant = judgeRanking(['b'], new Map([['b', 1], ['c', 0]]));
    expect(ndcg(oneRelevant, [{ level: 1, gain: 0.5 }])).toBe(0);
    expect(ndcg(oneRelevant, [{ level: 1, gain: 1.5 }])).toBe(1);
  });

  it('is 0 for a query without positive gains', () => {
    expect(ndcg(judgeRanking(['c'], new Map([['c', 0]])))).toBe(0);
  });
});

describe('ndcg_cut (m_ndcg_cut.c)', () => {
  it('normalizes DCG@k by the ideal DCG@k of all judged positive grades', () => {
    const [at1, at2, at4, at10] = ndcgAt(ranking, [1, 2, 4, 10]);
    expect(at1).toBe(0);
    expect(at2).toBeCloseTo(1 / Math.log2(3) / (2 + 1 / Math.log2(3)), 14);
    expect(at4).toBeCloseTo((1 / Math.log2(3) + 2 / Math.log2(5)) / (2 + 1 / Math.log2(3)), 14);
    expect(at10).toBe(at4);
  });

  it('equals ndcg without parameters once the cutoff passes the ranking and the ideal', () => {
    expect(ndcgAt(ranking, [1000])[0]).toBeCloseTo(ndcg(ranking), 14);
  });
});
