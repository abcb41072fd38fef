import { describe, expect, it } from 'vitest';
import { averagePrecision, yaap } from '../../../src/lib/eval/average-precision.ts';
import { judgeRanking } from '../../../src/lib/eval/judged-ranking.ts';

describe('yaap', () => {
  it('is log((1 + S) / (1 + R − S)) with S the precision sum that AP divides by R', () => {
    // Relevant at ranks 1 and 3 of R = 3: S = 1/1 + 2/3.
    const ranking = judgeRanking(['a', 'x', 'b'], new Map([['a', 1], ['b', 2], ['c', 1], ['x', 0]]));
    const s = 1 + 2 / 3;
    expect(yaap(ranking)).toBeCloseTo(Math.log((1 + s) / (1 + 3 - s)), 14);
    expect(averagePrecision(ranking)).toBeCloseTo(s / 3, 14);
  });

  it('is finite when nothing relevant is retrieved, and increases with AP', () => {
    const judgments = new Map([['a', 1], ['b', 1]]);
    expect(yaap(judgeRanking(['x'], judgments))).toBeCloseTo(Math.log(1 / 3), 14);
    const low = yaap(judgeRanking(['x', 'a'], judgments));
    const high = yaap(judgeRanking(['a', 'x'], judgments));
    expect(high).toBeGreaterThan(low);
  });
});
