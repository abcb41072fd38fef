/**
 * WorkerHost over fake workers (comlink over a MessageChannel, fake-worker.ts): a worker starts on first
 * use and serves every call; a crash rejects the calls in flight with a message naming the worker, and the
 * next call starts a fresh worker (or, with `restart: false`, is refused); a worker that stops answering
 * pings is declared dead; close frees and terminates. Real workers' crashes: tests/browser/failures.test.ts.
 */
import { afterEach, expect, test, vi } from 'vitest';
import { WorkerHost } from '../../../src/app/workers/worker-host.ts';
import { WorkerCrashedError } from '../../../src/app/workers/worker-watch.ts';
import { FakeWorkers } from './fake-worker.ts';

/** What the fake worker side offers; `disposed` counts dispose calls across workers. */
function fakeApi(log: { disposed: number; hangDispose?: boolean }) {
  return {
    ping: () => true,
    double: (x: number) => x * 2,
    never: () => new Promise<number>(() => {}),
    failPlainly: (): number => {
      throw new Error('no index for collection x');
    },
    abort: (): number => {
      throw new Error('RuntimeError: Aborted(OOM)');
    },
    dispose: () => {
      log.disposed++;
      return log.hangDispose === true ? new Promise<void>(() => {}) : undefined;
    },
  };
}
type FakeApi = ReturnType<typeof fakeApi>;

function setup(options: { restart?: boolean; pingEveryMs?: number; unresponsiveMs?: number; hangDispose?: boolean } = {}) {
  const log = { disposed: 0, hangDispose: options.hangDispose };
  const workers = new FakeWorkers(() => fakeApi(log));
  const crashes: WorkerCrashedError[] = [];
  /** Pings sent, and those the worker answered. */
  const pings = { sent: 0, answered: 0 };
  const host = new WorkerHost<FakeApi>({
    label: 'The test worker',
    create: workers.create,
    ping: (api) => {
      pings.sent++;
      return api.ping().then(() => pings.answered++);
    },
    onCrash: (error) => crashes.push(error),
    ...options,
  });
  return { host, workers, crashes, log, pings };
}

/**
 * The timing tests run on fake timers and a fake Date (WorkerWatch's pings and limit, close's timeout): a
 * pause of this process cannot pass for a silent worker, and no test waits on the wall clock. The fake
 * worker's messages still travel over a real MessageChannel (setImmediate and the event loop are not faked).
 */
function fakeClock(): void {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
}

afterEach(() => {
  vi.useRealTimers();
});

/** Lets the real event loop turn (MessageChannel deliveries) until `condition` holds. */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setImmediate(resolve));
}

/** Whether `promise` has settled (after the microtasks pending now have run). */
function settledFlag(promise: Promise<unknown>): { settled: boolean } {
  const flag = { settled: false };
  promise.then(
    () => (flag.settled = true),
    () => (flag.settled = true),
  );
  return flag;
}

test('starts one worker on first use and serves every call from it', async () => {
  const { host, workers } = setup();
  expect(host.running).toBe(false);
  expect(workers.made).toHaveLength(0);
  expect(await host.call((api) => api.double(21))).toBe(42);
  expect(await Promise.all([1, 2, 3].map((x) => host.call((api) => api.double(x))))).toEqual([2, 4, 6]);
  expect(workers.made).toHaveLength(1);
  expect(host.running).toBe(true);
  expect(host.starts).toBe(1);
});

test('an ordinary error of a call passes through and keeps the worker', async () => {
  const { host, workers, crashes } = setup();
  await expect(host.call((api) => api.failPlainly())).rejects.toThrow('no index for collection x');
  expect(await host.call((api) => api.double(2))).toBe(4);
  expect(workers.made).toHaveLength(1);
  expect(crashes).toHaveLength(0);
});

test('a crash rejects the calls in flight naming the worker; the next call starts a fresh worker', async () => {
  const { host, workers, crashes } = setup();
  const pending = host.call((api) => api.never());
  const other = host.call((api) => api.never());
  await host.call((api) => api.double(1));
  workers.last.crash('Uncaught Error: boom');
  await expect(pending).rejects.toBeInstanceOf(WorkerCrashedError);
  await expect(pending).rejects.toThrow('The test worker stopped: Uncaught Error: boom. It is restarted on next use.');
  await expect(other).rejects.toThrow('Uncaught Error: boom');
  expect(crashes.map((e) => e.message)).toEqual(['The test worker stopped: Uncaught Error: boom. It is restarted on next use.']);
  expect(workers.made[0]!.terminated).toBe(true);
  expect(host.running).toBe(false);

  expect(await host.call((api) => api.double(5))).toBe(10);
  expect(workers.made).toHaveLength(2);
  expect(workers.made[1]!.terminated).toBe(false);
  expect(host.starts).toBe(2);
});

test('a WebAssembly abort in a call kills the worker; the next call gets a fresh one', async () => {
  const { host, workers, crashes } = setup();
  await expect(host.call((api) => api.abort())).rejects.toThrow('The test worker failed (RuntimeError: Aborted(OOM)). It is restarted on next use.');
  expect(crashes).toHaveLength(1);
  expect(workers.made[0]!.terminated).toBe(true);
  expect(await host.call((api) => api.double(4))).toBe(8);
  expect(workers.made).toHaveLength(2);
});

test('a worker that stops answering pings is declared dead and its call rejects', async () => {
  const { host, workers, crashes, pings } = setup({ pingEveryMs: 10, unresponsiveMs: 60 });
  await host.call((api) => api.double(1));
  fakeClock();
  workers.last.hang();
  const call = host.call((api) => api.never());
  const done = settledFlag(call);
  // The first ping goes out at 10 ms and is never answered: the worker is alive until 60 ms after it.
  await vi.advanceTimersByTimeAsync(10);
  expect(pings.sent).toBe(1);
  await vi.advanceTimersByTimeAsync(59);
  expect(done.settled).toBe(false);
  expect(crashes).toHaveLength(0);
  expect(workers.last.terminated).toBe(false);
  await vi.advanceTimersByTimeAsync(1);
  await expect(call).rejects.toThrow('The test worker stopped answering for 0 s. It is restarted on next use.');
  expect(pings.answered).toBe(0);
  expect(crashes).toHaveLength(1);
  expect(workers.last.terminated).toBe(true);
});

test('a worker that answers its pings while a call runs long is left alone', async () => {
  // The call outlasts the unresponsive limit three times over, on the fake clock: each 10 ms step waits for
  // the ping sent in it to be answered, so a pause of this test's own process (parallel test files on two
  // cores) cannot pass for a silent worker, as a real 30 ms limit once did in a CI run.
  const { host, crashes, pings } = setup({ pingEveryMs: 10, unresponsiveMs: 30 });
  await host.call((api) => api.double(1));
  fakeClock();
  const slow = host.call(() => new Promise<string>((resolve) => setTimeout(() => resolve('done'), 100)));
  const done = settledFlag(slow);
  for (let elapsed = 0; elapsed < 100; elapsed += 10) {
    expect(done.settled).toBe(false);
    await vi.advanceTimersByTimeAsync(10);
    await until(() => pings.answered === pings.sent);
  }
  await expect(slow).resolves.toBe('done');
  // A ping every other step: one is sent, answered, and the next step sends the next.
  expect(pings.sent).toBeGreaterThanOrEqual(4);
  expect(crashes).toHaveLength(0);
  expect(host.running).toBe(true);
});

test('without restarts (a worker its owner must set up): calls after a crash are refused with the crash', async () => {
  const { host, workers } = setup({ restart: false });
  await host.call((api) => api.double(1));
  workers.last.crash('Uncaught Error: model lost');
  await expect(host.call((api) => api.double(2))).rejects.toThrow('The test worker stopped: Uncaught Error: model lost');
  expect(() => host.api).toThrow('Uncaught Error: model lost');
  expect(workers.made).toHaveLength(1);
});

test('callIfRunning: nothing before the first start and after a crash, the call while a worker runs', async () => {
  const { host, workers } = setup();
  expect(host.callIfRunning((api) => api.double(1))).toBeUndefined();
  expect(workers.made).toHaveLength(0);
  await host.call((api) => api.double(1));
  expect(await host.callIfRunning((api) => api.double(3))).toBe(6);
  workers.last.crash('Uncaught Error: gone');
  expect(host.callIfRunning((api) => api.double(3))).toBeUndefined();
  expect(workers.made).toHaveLength(1);
});

test('close disposes and terminates; a restarting host starts again on its next call, another refuses', async () => {
  const restarting = setup();
  await restarting.host.close((api) => api.dispose());
  expect(restarting.log.disposed).toBe(0);
  await restarting.host.call((api) => api.double(1));
  await restarting.host.close((api) => api.dispose());
  expect(restarting.log.disposed).toBe(1);
  expect(restarting.workers.last.terminated).toBe(true);
  expect(restarting.host.running).toBe(false);
  expect(await restarting.host.call((api) => api.double(7))).toBe(14);
  expect(restarting.workers.made).toHaveLength(2);
  expect(restarting.crashes).toHaveLength(0);

  const once = setup({ restart: false });
  await once.host.call((api) => api.double(1));
  await once.host.close();
  await expect(once.host.call((api) => api.double(1))).rejects.toThrow('The test worker was closed');
  expect(once.workers.made).toHaveLength(1);
});

test('a dispose that never answers is cut after the timeout; a dead worker is not asked to dispose', async () => {
  const { host, workers, log } = setup({ hangDispose: true });
  await host.call((api) => api.double(1));
  fakeClock();
  const closing = host.close((api) => api.dispose(), 50);
  const done = settledFlag(closing);
  // The worker is asked to dispose and never answers: the host waits for it until the timeout, no longer.
  await until(() => log.disposed === 1);
  await vi.advanceTimersByTimeAsync(49);
  expect(done.settled).toBe(false);
  expect(workers.last.terminated).toBe(false);
  await vi.advanceTimersByTimeAsync(1);
  await closing;
  expect(log.disposed).toBe(1);
  expect(workers.last.terminated).toBe(true);
  vi.useRealTimers();

  await host.call((api) => api.double(1));
  workers.last.crash('Uncaught Error: boom');
  await host.close((api) => api.dispose(), 50);
  expect(log.disposed).toBe(1);
});
