/**
 * One embedder, one session: concurrent calls run one after the other (SessionQueue), so two embeds never
 * interleave their batches on the session. The runner here records when each batch starts and ends and
 * yields to the event loop inside each batch, as an onnxruntime session does (it awaits its inference).
 * The first test shows that without the queue the same calls do interleave, so the others can fail.
 */
import { expect, test } from 'vitest';
import { embedBatched, embedderFromRunner, SessionQueue, type SessionRunner } from '../../../src/lib/dense/embedder.ts';
import { registryModel } from '../../../src/lib/dense/registry.ts';

const spec = registryModel('local/tiny-bert')!;

/** A runner whose every batch takes a few event-loop turns; `log` gets "start a0,a1" / "end a0,a1" lines. */
function recordingRunner(log: string[], options: { failOn?: string } = {}): SessionRunner & { running: number; maxRunning: number } {
  const runner = {
    running: 0,
    maxRunning: 0,
    async run(texts: string[]) {
      runner.running++;
      runner.maxRunning = Math.max(runner.maxRunning, runner.running);
      log.push(`start ${texts.join(',')}`);
      for (let turn = 0; turn < 3; turn++) await new Promise((resolve) => setTimeout(resolve, 0));
      log.push(`end ${texts.join(',')}`);
      runner.running--;
      if (options.failOn !== undefined && texts.includes(options.failOn)) throw new Error(`batch with ${options.failOn} failed`);
      return { data: Float32Array.from(texts.flatMap((t) => [t.length, 1])), dim: 2 };
    },
    dispose: async () => void log.push('dispose'),
  };
  return runner;
}

const textsOf = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}${i}`);

/** The caller of each batch, in the order batches started. */
const callers = (log: string[]) => log.filter((line) => line.startsWith('start')).map((line) => line.slice(6, 7));

test('without the queue, two concurrent embeds interleave their batches (what the queue prevents)', async () => {
  const log: string[] = [];
  const runner = recordingRunner(log);
  await Promise.all([embedBatched(runner.run, textsOf('a', 6), { batchSize: 2 }), embedBatched(runner.run, textsOf('b', 6), { batchSize: 2 })]);
  expect(runner.maxRunning).toBe(2);
  expect(callers(log)).not.toEqual(['a', 'a', 'a', 'b', 'b', 'b']);
});

test('two concurrent embed calls run one after the other, each batch alone on the session', async () => {
  const log: string[] = [];
  const runner = recordingRunner(log);
  const embedder = embedderFromRunner(runner, { spec, device: 'cpu', dtype: 'fp32' });
  const [a, b] = await Promise.all([embedder.embed(textsOf('a', 6), { batchSize: 2 }), embedder.embed(textsOf('bb', 4), { batchSize: 2 })]);
  expect(runner.maxRunning).toBe(1);
  expect(callers(log)).toEqual(['a', 'a', 'a', 'b', 'b']);
  // Every batch ends before the next starts.
  log.forEach((line, i) => {
    if (line.startsWith('start') && i > 0) expect(log[i - 1]!.startsWith('end')).toBe(true);
  });
  // Each caller gets its own vectors, in its own order.
  expect(a.rows).toBe(6);
  expect(Array.from(a.data.filter((_, i) => i % 2 === 0))).toEqual(textsOf('a', 6).map((t) => t.length));
  expect(b.rows).toBe(4);
  expect(Array.from(b.data.filter((_, i) => i % 2 === 0))).toEqual(textsOf('bb', 4).map((t) => t.length));
});

test('a failing call does not block the queue, and embedEach and dispose wait their turn too', async () => {
  const log: string[] = [];
  const runner = recordingRunner(log, { failOn: 'x0' });
  const embedder = embedderFromRunner(runner, { spec, device: 'cpu', dtype: 'fp32' });
  const failing = embedder.embed(['x0'], { batchSize: 1 });
  const each = embedder.embedEach(textsOf('e', 2));
  const disposed = embedder.dispose();
  await expect(failing).rejects.toThrow('batch with x0 failed');
  expect((await each).rows).toBe(2);
  await disposed;
  expect(log).toEqual(['start x0', 'end x0', 'start e0', 'end e0', 'start e1', 'end e1', 'dispose']);
  expect(runner.maxRunning).toBe(1);
});

test('a queued call cancelled before its turn rejects at once and never reaches the session', async () => {
  const log: string[] = [];
  const runner = recordingRunner(log);
  const embedder = embedderFromRunner(runner, { spec, device: 'cpu', dtype: 'fp32' });
  const controller = new AbortController();
  const first = embedder.embed(textsOf('a', 4), { batchSize: 2 });
  const second = embedder.embed(textsOf('b', 4), { batchSize: 2, signal: controller.signal });
  controller.abort(new DOMException('cancelled', 'AbortError'));
  await expect(second).rejects.toThrow('cancelled');
  expect(log.some((line) => line.includes('b'))).toBe(false);
  expect((await first).rows).toBe(4);
  expect(callers(log)).toEqual(['a', 'a']);
});

test('SessionQueue keeps call order for plain tasks', async () => {
  const queue = new SessionQueue();
  const order: number[] = [];
  const slow = (n: number, turns: number) => async () => {
    for (let i = 0; i < turns; i++) await Promise.resolve();
    order.push(n);
    return n;
  };
  const results = await Promise.all([queue.run(slow(1, 5)), queue.run(slow(2, 0)), queue.run(slow(3, 2))]);
  expect(results).toEqual([1, 2, 3]);
  expect(order).toEqual([1, 2, 3]);
});
