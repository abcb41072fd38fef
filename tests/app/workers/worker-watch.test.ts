/**
 * WorkerWatch on a stand-in worker (an EventTarget that records terminate): each way a worker dies makes
 * pending calls reject with WorkerCrashedError, terminates it once and calls onCrash once. The real
 * workers' crashes (a top-level throw, a WebAssembly abort) are in tests/browser/failures.test.ts.
 */
import { afterEach, expect, test, vi } from 'vitest';
import { isFatalWorkerError, WorkerCrashedError, WorkerWatch } from '../../../src/app/workers/worker-watch.ts';

class FakeWorker extends EventTarget {
  terminated = 0;
  terminate(): void {
    this.terminated++;
  }
  fire(type: 'error' | 'messageerror', message?: string): void {
    this.dispatchEvent(Object.assign(new Event(type), { message }));
  }
}

const never = <T>() => new Promise<T>(() => {});

afterEach(() => vi.useRealTimers());

test('an error event (a top-level throw in the worker) rejects pending calls and later ones', async () => {
  const worker = new FakeWorker();
  const crashes: WorkerCrashedError[] = [];
  const watch = new WorkerWatch(worker, { label: 'The BM25 worker (english)', onCrash: (e) => crashes.push(e) });
  const pending = watch.guard(never<number>());
  worker.fire('error', 'Uncaught Error: boom');
  await expect(pending).rejects.toThrow('The BM25 worker (english) stopped: Uncaught Error: boom. It is restarted on next use.');
  await expect(pending).rejects.toBeInstanceOf(WorkerCrashedError);
  await expect(watch.guard(Promise.resolve(1))).rejects.toBeInstanceOf(WorkerCrashedError);
  worker.fire('error', 'again');
  expect(watch.dead).toBe(true);
  expect(worker.terminated).toBe(1);
  expect(crashes).toHaveLength(1);
});

test('an error event without a message (the script failed to load) still names the worker', async () => {
  const worker = new FakeWorker();
  const watch = new WorkerWatch(worker, { label: 'The dense worker (tiny-bert)' });
  const pending = watch.guard(never());
  worker.fire('error');
  await expect(pending).rejects.toThrow('The dense worker (tiny-bert) stopped: the worker script failed to load or threw');
});

test('a messageerror kills the worker too', async () => {
  const worker = new FakeWorker();
  const watch = new WorkerWatch(worker, { label: 'W' });
  const pending = watch.guard(never());
  worker.fire('messageerror');
  await expect(pending).rejects.toThrow('W sent a message that could not be read');
});

test('ordinary errors pass through and leave the worker alive; WebAssembly aborts and OOM kill it', async () => {
  const worker = new FakeWorker();
  const crashes: string[] = [];
  const watch = new WorkerWatch(worker, { label: 'W', onCrash: (e) => crashes.push(e.message) });
  await expect(watch.guard(Promise.reject(new Error('no index for collection x')))).rejects.toThrow('no index for collection x');
  expect(watch.dead).toBe(false);
  await expect(watch.guard(Promise.resolve('ok'))).resolves.toBe('ok');
  await expect(watch.guard(Promise.reject(new Error('Aborted(Cannot enlarge memory arrays)')))).rejects.toThrow(/^W failed \(Aborted\(Cannot enlarge memory arrays\)\)/);
  expect(watch.dead).toBe(true);
  expect(worker.terminated).toBe(1);
  expect(crashes).toHaveLength(1);
});

test('the fatal-error rule: WebAssembly traps and allocation failures, not ordinary failures', () => {
  for (const fatal of [
    new RangeError('WebAssembly.Memory.grow(): Maximum memory size exceeded'),
    new RangeError('Array buffer allocation failed'),
    Object.assign(new Error('unreachable'), { name: 'RuntimeError' }),
    new Error('RuntimeError: memory access out of bounds'),
    new Error('Aborted(OOM)'),
    new Error('failed to allocate: out of memory'),
  ]) {
    expect(isFatalWorkerError(fatal)).toBe(true);
  }
  for (const ordinary of [new Error('host unreachable'), new TypeError('Failed to fetch'), new DOMException('cancelled', 'AbortError'), 'plain']) {
    expect(isFatalWorkerError(ordinary)).toBe(false);
  }
});

test('a worker that stops answering pings while a call is pending is declared dead (terminated: no event)', async () => {
  vi.useFakeTimers();
  const worker = new FakeWorker();
  let answering = true;
  let pings = 0;
  const ping = () => {
    pings++;
    return answering ? Promise.resolve(true) : never();
  };
  const watch = new WorkerWatch(worker, { label: 'The BM25 worker (english)', ping, pingEveryMs: 1000, unresponsiveMs: 5000 });
  const pending = watch.guard(never());
  pending.catch(() => undefined);
  // Answering pings: a long call is fine.
  await vi.advanceTimersByTimeAsync(20_000);
  expect(pings).toBeGreaterThanOrEqual(15);
  expect(watch.dead).toBe(false);
  answering = false;
  await vi.advanceTimersByTimeAsync(4000);
  expect(watch.dead).toBe(false);
  await vi.advanceTimersByTimeAsync(3000);
  expect(watch.dead).toBe(true);
  await expect(pending).rejects.toThrow('The BM25 worker (english) stopped answering for 5 s. It is restarted on next use.');
  expect(worker.terminated).toBe(1);
});

test('no pings while nothing is pending', async () => {
  vi.useFakeTimers();
  const worker = new FakeWorker();
  let pings = 0;
  const watch = new WorkerWatch(worker, { label: 'W', ping: () => (pings++, never()), pingEveryMs: 1000, unresponsiveMs: 3000 });
  await watch.guard(Promise.resolve(1));
  await vi.advanceTimersByTimeAsync(60_000);
  expect(pings).toBe(0);
  expect(watch.dead).toBe(false);
});
