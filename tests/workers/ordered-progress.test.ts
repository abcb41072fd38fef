import { describe, expect, it } from 'vitest';
import { withOrderedProgress } from '../../workers/ordered-progress.ts';

describe('withOrderedProgress', () => {
  it('answers only after the page has handled the last progress message', async () => {
    const handled: number[] = [];
    // A proxied callback: each call resolves when the page has run it, later here than the work's end.
    const onProgress = (n: number) => new Promise<void>((resolve) => setTimeout(() => resolve(void handled.push(n)), 20));
    const result = await withOrderedProgress(onProgress, async (report) => {
      report?.(1);
      report?.(2);
      return 'done';
    });
    expect(result).toBe('done');
    expect(handled).toEqual([1, 2]);
  });

  it('without a callback the work runs with none; a failing callback does not fail the call', async () => {
    expect(await withOrderedProgress(undefined, async (report) => report === undefined)).toBe(true);
    const failing = () => Promise.reject(new Error('the page went away'));
    expect(await withOrderedProgress(failing, async (report) => (report?.(1), 7))).toBe(7);
  });
});
