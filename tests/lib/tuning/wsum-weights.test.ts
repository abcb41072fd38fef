import { describe, expect, it } from 'vitest';
import { weightedSum } from '../../../src/lib/fusion/wsum.ts';
import { possibleWeights, wsumTrials } from '../../../src/lib/tuning/wsum-weights.ts';

describe('wsumTrials (ranx optimize_fusion, wsum)', () => {
  it('tries 0, 0.1, …, 1 per run, first run outermost, keeping float sums of exactly 1', () => {
    expect(possibleWeights(0.1)).toEqual([0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1]);
    const trials = wsumTrials(3);
    // The same combinations in integer tenths, where sums are exact: ranx's trials are those of them whose
    // floating-point sum is 1.0, in the same order.
    const tenths = [...Array(11).keys()].flatMap((a) => [...Array(11).keys()].flatMap((b) => [...Array(11).keys()].map((c) => [a, b, c]))).filter(([a, b, c]) => a! + b! + c! === 10);
    const kept = tenths.map((t) => t.map((x) => x / 10)).filter((t) => t[0]! + t[1]! + t[2]! === 1);
    expect(trials).toEqual(kept);
    expect(trials.length).toBeLessThan(tenths.length);
    // 0.2 + 0.7 + 0.1 is 0.9999999999999999 in doubles, so ranx never tries it.
    expect(trials).not.toContainEqual([0.2, 0.7, 0.1]);
    expect(trials[0]).toEqual([0, 0, 1]);
  });
});

describe('weightedSum', () => {
  it('adds weighted min-max scores, an absent document adding 0, ties by document id', () => {
    const a = [
      { docId: 'x', score: 4 },
      { docId: 'y', score: 2 },
    ];
    const b = [
      { docId: 'z', score: 10 },
      { docId: 'x', score: 5 },
    ];
    const c = [{ docId: 'y', score: 1 }];
    const fused = weightedSum([a, b, c], [0.5, 0.25, 0.25]);
    const expected = { x: 0.5 * 1 + 0.25 * 0, y: 0.5 * 0 + 0.25 * 1, z: 0.25 * 1 };
    expect(fused.map((hit) => [hit.docId, hit.score])).toEqual([
      ['x', expected.x],
      ['y', expected.y],
      ['z', expected.z],
    ]);
    expect(fused[2]!.parts[0]).toEqual({ raw: null, normalized: null, weight: 0.5 });
  });

  it('needs one weight per ranking', () => {
    expect(() => weightedSum([[], []], [1])).toThrow(RangeError);
  });
});
