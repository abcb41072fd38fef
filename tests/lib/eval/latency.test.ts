import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { percentile, summarizeLatency, timesFromProgress } from '../../../src/lib/eval/latency.ts';

describe('summarizeLatency', () => {
  it('gives the mean and the nearest-rank 95th percentile (20 times: the 19th smallest)', () => {
    const times = Array.from({ length: 20 }, (_, i) => 20 - i); // 20 … 1
    const summary = summarizeLatency(times);
    expect(summary).toEqual({ queries: 20, meanMs: 10.5, p95Ms: 19, maxMs: 20 });
  });

  it('is NaN for no queries, and the one time for one query', () => {
    expect(summarizeLatency([]).meanMs).toBeNaN();
    expect(summarizeLatency([]).p95Ms).toBeNaN();
    expect(summarizeLatency([4.5])).toEqual({ queries: 1, meanMs: 4.5, p95Ms: 4.5, maxMs: 4.5 });
  });

  it('always picks a measured time with at least 95 % of the times at or below it', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: 0, max: 1e4, noNaN: true }), { minLength: 1, maxLength: 200 }), (times) => {
        const sorted = [...times].sort((a, b) => a - b);
        const p95 = percentile(sorted, 95);
        expect(times).toContain(p95);
        expect(sorted.filter((t) => t <= p95).length).toBeGreaterThanOrEqual(0.95 * times.length);
        // and it is the smallest such time
        const smaller = sorted.filter((t) => t < p95);
        expect(smaller.length).toBeLessThan(0.95 * times.length);
      }),
    );
  });
});

describe('timesFromProgress', () => {
  it('gives each query the time between its progress report and the one before', () => {
    expect(timesFromProgress([{ done: 0, at: 100 }, { done: 1, at: 103 }, { done: 2, at: 110 }])).toEqual([3, 7]);
  });

  it('shares a chunk’s time among its queries, and skips reports that finish nothing', () => {
    expect(timesFromProgress([{ done: 0, at: 0 }, { done: 4, at: 8 }, { done: 4, at: 9 }, { done: 5, at: 12 }])).toEqual([2, 2, 2, 2, 3]);
    expect(timesFromProgress([])).toEqual([]);
  });
});
