import { describe, expect, it } from 'vitest';
import { rerankCeiling, rerankMovement } from '../../../src/app/explore/rerank-view.ts';

describe('rerankMovement', () => {
  it('is measured from the first-stage rank', () => {
    expect(rerankMovement({ firstStageRank: 7, newRank: 2 })).toEqual({ kind: 'up', by: 5 });
    expect(rerankMovement({ firstStageRank: 1, newRank: 4 })).toEqual({ kind: 'down', by: 3 });
    expect(rerankMovement({ firstStageRank: 3, newRank: 3 })).toEqual({ kind: 'same' });
  });
});

describe('rerankCeiling', () => {
  const judgments = new Map([
    ['a', 2],
    ['b', 1],
    ['c', 0],
    ['z', 1],
  ]);
  const firstStage = ['c', 'a', 'x', 'b', 'y'].map((docId, i) => ({ docId, score: 10 - i }));

  it('is the recall of the first stage top N (grade ≥ 1 relevant): 2 of 3 in the top 4, 1 of 3 in the top 2', () => {
    expect(rerankCeiling(judgments, firstStage, 4)).toEqual({ found: 2, relevant: 3, recall: 2 / 3, depth: 4 });
    expect(rerankCeiling(judgments, firstStage, 2)).toEqual({ found: 1, relevant: 3, recall: 1 / 3, depth: 2 });
  });

  it('has no recall when nothing is relevant, and counts a repeated document once', () => {
    expect(rerankCeiling(new Map([['a', 0]]), firstStage, 5).recall).toBeUndefined();
    expect(rerankCeiling(judgments, [{ docId: 'a', score: 2 }, { docId: 'a', score: 1 }], 2).found).toBe(1);
  });
});
