import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LatestThrottle } from '../../../src/app/shell/latest-throttle.ts';

describe('LatestThrottle', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  function throttle(intervalMs = 250) {
    const applied: Array<{ value: number; at: number }> = [];
    const latest = new LatestThrottle<number>((value) => applied.push({ value, at: Date.now() }), intervalMs, () => Date.now());
    return { applied, latest };
  }

  it('applies the first update at once and the latest of the rest once the interval has passed', () => {
    const { applied, latest } = throttle();
    const start = Date.now();
    latest.push(1);
    expect(applied).toEqual([{ value: 1, at: start }]);
    vi.advanceTimersByTime(10);
    latest.push(2);
    vi.advanceTimersByTime(10);
    latest.push(3);
    expect(applied).toHaveLength(1);
    vi.advanceTimersByTime(229);
    expect(applied).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(applied).toEqual([
      { value: 1, at: start },
      { value: 3, at: start + 250 },
    ]);
  });

  it('applies an update at once when the last one is at least an interval old', () => {
    const { applied, latest } = throttle();
    latest.push(1);
    vi.advanceTimersByTime(300);
    latest.push(2);
    expect(applied.map((a) => a.value)).toEqual([1, 2]);
  });

  it('keeps the interval after a trailing update', () => {
    const { applied, latest } = throttle();
    latest.push(1);
    latest.push(2);
    vi.advanceTimersByTime(250);
    latest.push(3);
    expect(applied.map((a) => a.value)).toEqual([1, 2]);
    vi.advanceTimersByTime(250);
    expect(applied.map((a) => a.value)).toEqual([1, 2, 3]);
  });

  it('flush applies the waiting update now, once', () => {
    const { applied, latest } = throttle();
    latest.push(1);
    latest.push(2);
    latest.flush();
    expect(applied.map((a) => a.value)).toEqual([1, 2]);
    latest.flush();
    vi.advanceTimersByTime(1000);
    expect(applied.map((a) => a.value)).toEqual([1, 2]);
  });

  it('cancel drops the waiting update', () => {
    const { applied, latest } = throttle();
    latest.push(1);
    latest.push(2);
    latest.cancel();
    vi.advanceTimersByTime(1000);
    expect(applied.map((a) => a.value)).toEqual([1]);
  });
});
