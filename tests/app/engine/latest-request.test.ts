import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LatestRequest, TimerGroup } from '../../../src/app/engine/latest-request.ts';

/** Work whose answers the test releases by hand, in any order. */
function controllableWork() {
  const pending: Array<{ request: string; signal: AbortSignal; resolve: (v: string) => void; reject: (e: unknown) => void }> = [];
  const work = (request: string, signal: AbortSignal) =>
    new Promise<string>((resolve, reject) => {
      pending.push({ request, signal, resolve, reject });
    });
  return { pending, work };
}

function recorder() {
  const events: string[] = [];
  return {
    events,
    handlers: {
      onScheduled: (r: string) => void events.push(`scheduled ${r}`),
      onStart: (r: string) => void events.push(`start ${r}`),
      onResult: (r: string, result: string) => void events.push(`result ${r} ${result}`),
      onError: (r: string, e: unknown) => void events.push(`error ${r} ${(e as Error).message}`),
    },
  };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('LatestRequest (how a column follows its inputs)', () => {
  it('runs an immediate request at once and a debounced one only after the input rests', async () => {
    const { pending, work } = controllableWork();
    const { events, handlers } = recorder();
    const latest = new LatestRequest(work, handlers, 250);
    latest.ask('a', 'a', true);
    await vi.advanceTimersByTimeAsync(0);
    expect(pending.map((p) => p.request)).toEqual(['a']);
    pending[0]!.resolve('A');
    await vi.advanceTimersByTimeAsync(0);
    for (const key of ['b', 'bo', 'bob']) {
      latest.ask(key, key, false);
      await vi.advanceTimersByTimeAsync(100);
    }
    expect(pending).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(250);
    expect(pending.map((p) => p.request)).toEqual(['a', 'bob']);
    pending[1]!.resolve('BOB');
    await vi.advanceTimersByTimeAsync(0);
    expect(events).toEqual(['scheduled a', 'start a', 'result a A', 'scheduled b', 'scheduled bo', 'scheduled bob', 'start bob', 'result bob BOB']);
  });

  it('aborts and drops a running request that a newer one supersedes, even if it answers later', async () => {
    const { pending, work } = controllableWork();
    const { events, handlers } = recorder();
    const latest = new LatestRequest(work, handlers, 250);
    latest.ask('slow', 'slow', true);
    await vi.advanceTimersByTimeAsync(0);
    latest.ask('fast', 'fast', true);
    await vi.advanceTimersByTimeAsync(0);
    expect(pending[0]!.signal.aborted).toBe(true);
    pending[1]!.resolve('FAST');
    await vi.advanceTimersByTimeAsync(0);
    pending[0]!.resolve('SLOW');
    pending[0]!.reject(new Error('late failure'));
    await vi.advanceTimersByTimeAsync(0);
    expect(events.filter((e) => e.startsWith('result') || e.startsWith('error'))).toEqual(['result fast FAST']);
  });

  it('ignores a repeated request, re-runs on retry, and after stop runs the same request again', async () => {
    const { pending, work } = controllableWork();
    const { events, handlers } = recorder();
    const latest = new LatestRequest(work, handlers, 250);
    expect(latest.ask('q', 'q', true)).toBe(true);
    expect(latest.ask('q', 'q', true)).toBe(false);
    await vi.advanceTimersByTimeAsync(0);
    pending[0]!.reject(new Error('index build cancelled'));
    await vi.advanceTimersByTimeAsync(0);
    latest.retry();
    await vi.advanceTimersByTimeAsync(0);
    pending[1]!.resolve('Q');
    await vi.advanceTimersByTimeAsync(0);
    latest.stop();
    expect(latest.ask('q', 'q', true)).toBe(true);
    await vi.advanceTimersByTimeAsync(0);
    expect(pending).toHaveLength(3);
    expect(events.filter((e) => !e.startsWith('scheduled'))).toEqual(['start q', 'error q index build cancelled', 'start q', 'result q Q', 'start q']);
  });

  it('cancel stops the running request as a failure (reported), and retry runs it again', async () => {
    const { pending, work } = controllableWork();
    const { events, handlers } = recorder();
    const latest = new LatestRequest(work, handlers, 250);
    latest.cancel();
    latest.ask('a', 'a', true);
    await vi.advanceTimersByTimeAsync(0);
    latest.cancel();
    expect(pending[0]!.signal.aborted).toBe(true);
    pending[0]!.reject(pending[0]!.signal.reason);
    await vi.advanceTimersByTimeAsync(0);
    expect(events).toEqual(['scheduled a', 'start a', 'error a cancelled']);
    // Asking again for the same request does nothing; retry does.
    expect(latest.ask('a', 'a', true)).toBe(false);
    latest.retry();
    await vi.advanceTimersByTimeAsync(0);
    pending[1]!.resolve('done');
    await vi.advanceTimersByTimeAsync(0);
    expect(events.slice(3)).toEqual(['scheduled a', 'start a', 'result a done']);
  });
});

describe('TimerGroup (the columns\' debounces)', () => {
  it('runs the timers that end together in one task, before a task queued between them', async () => {
    const group = new TimerGroup();
    const order: string[] = [];
    group.set(() => order.push('first column'), 250);
    setTimeout(() => order.push('another task'), 250);
    await vi.advanceTimersByTimeAsync(3);
    group.set(() => order.push('second column'), 248);
    await vi.advanceTimersByTimeAsync(250);
    expect(order).toEqual(['first column', 'second column', 'another task']);
  });

  it('keeps apart timers that end apart, re-arms for one that ends sooner, and forgets a cleared one', async () => {
    const group = new TimerGroup();
    const at: Array<[string, number]> = [];
    const started = Date.now();
    group.set(() => at.push(['late', Date.now() - started]), 500);
    group.set(() => at.push(['soon', Date.now() - started]), 100);
    const cleared = group.set(() => at.push(['cleared', Date.now() - started]), 300);
    group.clear(cleared);
    group.clear(undefined);
    await vi.advanceTimersByTimeAsync(600);
    expect(at).toEqual([
      ['soon', 100],
      ['late', 500],
    ]);
  });
});
