import { describe, expect, it } from 'vitest';
import { sideBySide } from '../../../src/app/evaluate/side-by-side.ts';

/** A promise settled from outside, and whether it has been. */
function deferred() {
  let resolve!: () => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<void>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('sideBySide', () => {
  it('starts the first `width` items at once, in order, and the next one as soon as a lane is free', async () => {
    const work = ['a', 'b', 'c', 'd'].map(() => deferred());
    const started: string[] = [];
    const done = sideBySide(['a', 'b', 'c', 'd'], 2, (item, index) => (started.push(item), work[index]!.promise), new AbortController().signal);
    await tick();
    expect(started).toEqual(['a', 'b']);
    // The second item finishes first: its lane takes the third while the first still runs.
    work[1]!.resolve();
    await tick();
    expect(started).toEqual(['a', 'b', 'c']);
    work[0]!.resolve();
    await tick();
    expect(started).toEqual(['a', 'b', 'c', 'd']);
    work[2]!.resolve();
    work[3]!.resolve();
    await expect(done).resolves.toBeUndefined();
  });

  it('after an abort starts nothing more, waits for the items running, and rejects with the abort reason', async () => {
    const controller = new AbortController();
    const work = [0, 1, 2].map(() => deferred());
    const started: number[] = [];
    let settled = false;
    const done = sideBySide([0, 1, 2], 2, (item) => (started.push(item), work[item]!.promise), controller.signal).finally(() => (settled = true));
    done.catch(() => undefined);
    await tick();
    controller.abort(new DOMException('Evaluation cancelled', 'AbortError'));
    work[0]!.reject(new DOMException('Evaluation cancelled', 'AbortError'));
    await tick();
    // The second item is still running: the call waits for it.
    expect(settled).toBe(false);
    work[1]!.resolve();
    await expect(done).rejects.toMatchObject({ name: 'AbortError' });
    expect(started).toEqual([0, 1]);
  });

  it('after a failure starts nothing more, lets the other item finish, and rejects with the first failure', async () => {
    const work = [0, 1, 2].map(() => deferred());
    const started: number[] = [];
    const finished: number[] = [];
    const done = sideBySide([0, 1, 2], 2, async (item) => {
        started.push(item);
        await work[item]!.promise;
        finished.push(item);
      }, new AbortController().signal);
    done.catch(() => undefined);
    await tick();
    work[0]!.reject(new Error('the dense worker crashed'));
    await tick();
    work[1]!.resolve();
    await expect(done).rejects.toThrow('the dense worker crashed');
    expect(started).toEqual([0, 1]);
    expect(finished).toEqual([1]);
  });

  it('with a width of one, runs the items one after the other', async () => {
    const order: string[] = [];
    await sideBySide(['a', 'b', 'c'], 1, async (item) => {
      order.push(`start ${item}`);
      await tick();
      order.push(`end ${item}`);
    }, new AbortController().signal);
    expect(order).toEqual(['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
  });
});
