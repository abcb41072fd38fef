import { expect, test, vi } from 'vitest';
import { ifLockFree, withWorkLock } from '../../../src/lib/storage/work-locks.ts';
import { Gate } from '../../app/engine/fakes.ts';
import { MemoryLocks } from './memory-locks.ts';

test('the second holder waits (told once through onWait) and runs after the first', async () => {
  const locks = new MemoryLocks();
  const gate = new Gate();
  const order: string[] = [];
  const first = withWorkLock(locks, 'x', async () => {
    order.push('first start');
    await gate.wait();
    order.push('first end');
    return 1;
  });
  let waited = 0;
  const second = withWorkLock(locks, 'x', async () => {
    order.push('second');
    return 2;
  }, { onWait: () => (waited += 1) });
  // The second is told it waits (onWait), and does not run while the first holds the lock.
  await vi.waitFor(() => expect(waited).toBe(1));
  expect(order).toEqual(['first start']);
  gate.open();
  expect(await Promise.all([first, second])).toEqual([1, 2]);
  expect(order).toEqual(['first start', 'first end', 'second']);
  expect(waited).toBe(1);
  expect(locks.isHeld('x')).toBe(false);
});

test('a free lock runs at once without onWait; other names do not wait; null locks run unlocked', async () => {
  const locks = new MemoryLocks();
  let waited = false;
  expect(await withWorkLock(locks, 'a', async () => 'a', { onWait: () => (waited = true) })).toBe('a');
  expect(waited).toBe(false);
  const gate = new Gate();
  const holding = withWorkLock(locks, 'b', () => gate.wait());
  expect(await withWorkLock(locks, 'c', async () => 'c')).toBe('c');
  expect(await withWorkLock(null, 'b', async () => 'unlocked')).toBe('unlocked');
  expect(await ifLockFree(locks, 'b', async () => 'ran')).toBeUndefined();
  gate.open();
  await holding;
  expect(await ifLockFree(locks, 'b', async () => 'ran')).toBe('ran');
});

test('aborting stops the wait without running the work; a failing holder releases the lock', async () => {
  const locks = new MemoryLocks();
  const gate = new Gate();
  const holding = withWorkLock(locks, 'x', () => gate.wait());
  const controller = new AbortController();
  let ran = false;
  const waiting = withWorkLock(locks, 'x', async () => {
    ran = true;
  }, { signal: controller.signal });
  controller.abort(new DOMException('stop', 'AbortError'));
  await expect(waiting).rejects.toMatchObject({ name: 'AbortError' });
  gate.open();
  await holding;
  expect(ran).toBe(false);
  await expect(withWorkLock(locks, 'y', async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
  expect(locks.isHeld('y')).toBe(false);
});
