import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ResultBatch } from '../../../src/app/explore/result-batch.ts';

describe('ResultBatch', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('applies an answer at once when no other column is ranking', () => {
    const batch = new ResultBatch(100);
    const a = {};
    const applied: string[] = [];
    batch.started(a);
    batch.finished(a, () => applied.push('a'));
    expect(applied).toEqual(['a']);
  });

  it('holds answers until the last ranking column answers, then applies them together in order', () => {
    const batch = new ResultBatch(100);
    const [a, b, c] = [{}, {}, {}];
    const applied: string[] = [];
    for (const owner of [a, b, c]) batch.started(owner);
    batch.finished(b, () => applied.push('b'));
    batch.finished(a, () => applied.push('a'));
    expect(applied).toEqual([]);
    batch.finished(c, () => applied.push('c'));
    expect(applied).toEqual(['b', 'a', 'c']);
    // Nothing is applied twice when the timer of the first wait would have fired.
    vi.advanceTimersByTime(200);
    expect(applied).toEqual(['b', 'a', 'c']);
  });

  it('waits at most waitMs for a slow column', () => {
    const batch = new ResultBatch(100);
    const [fast, slow] = [{}, {}];
    const applied: string[] = [];
    batch.started(fast);
    batch.started(slow);
    batch.finished(fast, () => applied.push('fast'));
    vi.advanceTimersByTime(99);
    expect(applied).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(applied).toEqual(['fast']);
    batch.finished(slow, () => applied.push('slow'));
    expect(applied).toEqual(['fast', 'slow']);
  });

  it('does not wait for a column whose request was superseded or stopped', () => {
    const batch = new ResultBatch(100);
    const [a, b] = [{}, {}];
    const applied: string[] = [];
    batch.started(a);
    batch.started(b);
    batch.finished(a, () => applied.push('a'));
    batch.idle(b);
    expect(applied).toEqual(['a']);
    batch.idle(b); // idle twice, or idle without a start: nothing happens
    expect(applied).toEqual(['a']);
  });
});
