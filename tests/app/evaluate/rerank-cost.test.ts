import { describe, expect, it } from 'vitest';
import type { EfficiencyRecord } from '../../../src/lib/storage/evaluation-runs.ts';
import { latencyAgainst, ratioText, rerankLedrRatio } from '../../../src/app/evaluate/rerank-cost.ts';

function record(meanMs: number): EfficiencyRecord {
  return { rankMs: meanMs * 10, prepareMs: 0, latency: { queries: 10, meanMs, p95Ms: meanMs, maxMs: meanMs }, queriesPerCall: 1 };
}

describe('rerankLedrRatio', () => {
  it('divides the re-ranking mean latency by the first evaluated LEDR column', () => {
    const rerank = record(120);
    const columns = [
      { index: 0, kind: 'bm25', efficiency: record(0.5) },
      { index: 1, kind: 'ledr', efficiency: undefined },
      { index: 2, kind: 'ledr', efficiency: record(4) },
      { index: 3, kind: 'ledr', efficiency: record(8) },
    ];
    expect(rerankLedrRatio(rerank, columns)).toEqual({ rerankMs: 120, ledrMs: 4, ratio: 30, ledrIndex: 2 });
  });

  it('is undefined without an evaluated LEDR column or with unusable times', () => {
    expect(rerankLedrRatio(record(120), [{ index: 0, kind: 'bm25', efficiency: record(1) }])).toBeUndefined();
    expect(rerankLedrRatio(record(120), [{ index: 0, kind: 'ledr', efficiency: record(0) }])).toBeUndefined();
    expect(rerankLedrRatio(record(Number.NaN), [{ index: 0, kind: 'ledr', efficiency: record(2) }])).toBeUndefined();
  });

  it('writes ratios with two significant digits under 10', () => {
    expect(ratioText(30)).toBe('×30');
    expect(ratioText(2.436)).toBe('×2.4');
    expect(ratioText(1234.4)).toBe('×1,234');
  });
});

describe('latencyAgainst', () => {
  it("puts an Augmented BM25 run's mean latency next to the first evaluated BM25 column's", () => {
    const columns = [
      { index: 0, kind: 'dense', efficiency: record(3) },
      { index: 1, kind: 'bm25', efficiency: record(0.5) },
      { index: 2, kind: 'augmented', efficiency: record(0.75) },
    ];
    expect(latencyAgainst(record(0.75), columns, 'bm25')).toEqual({ ms: 0.75, baseMs: 0.5, ratio: 1.5, baseIndex: 1 });
    expect(latencyAgainst(record(0.75), columns.slice(2), 'bm25')).toBeUndefined();
  });
});
