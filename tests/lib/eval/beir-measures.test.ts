import { describe, expect, it } from 'vitest';
import { cappedRecallAt, holeAt } from '../../../src/lib/eval/beir-measures.ts';
import { judgeRanking } from '../../../src/lib/eval/judged-ranking.ts';

describe('R_cap@k (BEIR custom_metrics.recall_cap)', () => {
  const judgments = new Map([
    ['r1', 1],
    ['r2', 2],
    ['r3', 1],
    ['n', 0],
  ]);

  it('divides relevant retrieved in the top k by min(k, number relevant)', () => {
    const ranking = judgeRanking(['r1', 'n', 'r2', 'x', 'r3'], judgments);
    // k=1: 1/min(1,3); k=2: 1/2; k=3: 2/3; k=5: 3/3; k=10: 3/3.
    expect(cappedRecallAt(ranking, [1, 2, 3, 5, 10])).toEqual([1, 0.5, 2 / 3, 1, 1]);
  });

  it('is 0 for a query without relevant documents instead of dividing by zero', () => {
    expect(cappedRecallAt(judgeRanking(['n'], new Map([['n', 0]])), [1, 10])).toEqual([0, 0]);
  });
});

describe('Hole@k (BEIR custom_metrics.hole)', () => {
  it('counts top-k documents judged for no query, over k', () => {
    const annotated = new Set(['a', 'b', 'judged-elsewhere']);
    expect(holeAt(['a', 'x', 'judged-elsewhere', 'y'], annotated, [1, 2, 4, 10])).toEqual([0, 0.5, 0.5, 0.2]);
  });
});
