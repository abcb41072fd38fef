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

describe('sideBySide: clashing items', () => {
  it('a free lane takes the first item that clashes with none running, in list order', async () => {
    // Two BM25 columns clash (one worker); the dense one starts beside the first BM25 column instead.
    const items = ['bm25 a', 'bm25 b', 'dense', 'ledr'];
    const work = new Map(items.map((item) => [item, deferred()]));
    const started: string[] = [];
    const clash = (a: string, b: string) => (a.startsWith('bm25') && b.startsWith('bm25')) || a === 'ledr' || b === 'ledr';
    const done = sideBySide(items, 2, (item) => (started.push(item), work.get(item)!.promise), new AbortController().signal, clash);
    await tick();
    expect(started).toEqual(['bm25 a', 'dense']);
    work.get('bm25 a')!.resolve();
    await tick();
    // bm25 b clashes with nothing running now (dense only).
    expect(started).toEqual(['bm25 a', 'dense', 'bm25 b']);
    work.get('dense')!.resolve();
    await tick();
    // ledr clashes with everything: when nothing clash-free is left, the first item left starts anyway.
    expect(started).toEqual(['bm25 a', 'dense', 'bm25 b', 'ledr']);
    work.get('bm25 b')!.resolve();
    work.get('ledr')!.resolve();
    await done;
  });

  it('passes each item its index in the list, whatever order the lanes take them in', async () => {
    const seen: Array<[string, number]> = [];
    await sideBySide(['x1', 'x2', 'y'], 2, async (item, index) => void seen.push([item, index]), new AbortController().signal, (a, b) => a[0] === b[0]);
    // y went before x2 (which clashed with x1), each with its own index.
    expect(seen).toEqual([
      ['x1', 0],
      ['y', 2],
      ['x2', 1],
    ]);
  });
});
