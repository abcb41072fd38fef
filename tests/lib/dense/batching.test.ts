import { afterEach, expect, test } from 'vitest';
import { BatchSizer, CHARS_PER_TOKEN, batchWork, lengthOrder, progressAt } from '../../../src/lib/dense/batching.ts';
import { embedBatched, embedderFromRunner, MAX_BATCH_TOKENS } from '../../../src/lib/dense/embedder.ts';
import { registryModel } from '../../../src/lib/dense/registry.ts';

test('lengthOrder puts the longest texts first and keeps input order among equal lengths', () => {
  expect(lengthOrder(['aa', 'a', 'aaaa', 'bb', ''])).toEqual([2, 0, 3, 1, 4]);
});

test('BatchSizer doubles while throughput rises, then settles on the best size', () => {
  const sizer = new BatchSizer({ initial: 8, max: 256 });
  const rate = (size: number) => (size <= 32 ? size * 100 : 3200); // chars/s saturates at 32
  for (let i = 0; i < 10; i++) {
    const size = sizer.current();
    sizer.record(size, rate(size), 1);
  }
  expect(sizer.current()).toBe(32);
});

test('BatchSizer does not measure the first batch of a size: a slow first run (buffers allocated) does not stop the growth', () => {
  const sizer = new BatchSizer({ initial: 16, max: 128 });
  const seen = new Set<number>();
  const sizes: number[] = [];
  for (let i = 0; i < 12; i++) {
    const size = sizer.current();
    sizes.push(size);
    // 1 ms per document plus 20 ms per call; a size’s first run takes 4× as long.
    const seconds = (size + 20) / 1000;
    sizer.record(size, size * 100, seen.has(size) ? seconds : 4 * seconds);
    seen.add(size);
  }
  expect(sizes.slice(0, 8)).toEqual([16, 16, 32, 32, 64, 64, 128, 128]);
  expect(sizer.current()).toBe(128);
});

test('batchWork counts what the model reads: characters up to maxTokens × CHARS_PER_TOKEN per text, plus one each', () => {
  const long = 'x'.repeat(10_000);
  expect(batchWork(['abc', long])).toBe(4 + 10_001);
  expect(batchWork(['abc', long], 128)).toBe(4 + 128 * CHARS_PER_TOKEN + 1);
});

// The fake clock below replaces performance.now; files share their worker (vitest.config.ts), so it goes back.
const realNow = performance.now;
afterEach(() => {
  performance.now = realNow;
});

/** The batch sizes an embedding of `texts` reports. */
async function sizesOf(embed: (texts: string[], onProgress: (size: number) => void) => Promise<unknown>, texts: string[]): Promise<number[]> {
  const sizes: number[] = [];
  await embed(texts, (size) => sizes.push(size));
  return sizes;
}

/** A runner taking 5 ms a call plus 1 ms a text on a fake clock (performance.now). */
function fakeClockRunner() {
  let clock = 0;
  performance.now = () => clock;
  return async (batch: string[]) => {
    clock += 5 + batch.length;
    return { data: new Float32Array(batch.length), dim: 1 };
  };
}

// Every text is longer than 128 tokens, the next batch's shorter than the last (longest first): the cost of a
// document is the same for all, with a fixed cost per call, so larger batches are faster.
const cutTexts = Array.from({ length: 2000 }, (_, i) => 'w '.repeat(3000 - i));

test('texts all cut at maxLength, longest first: the sizer grows as their cost per document is flat', async () => {
  const sizes = await sizesOf(
    (texts, onSize) => embedBatched(fakeClockRunner(), texts, { initialBatchSize: 16, maxTokens: 128, onProgress: (p) => onSize(p.batchSize) }),
    cutTexts,
  );
  // Past 128 a batch gains less than 5 % (5 ms a call against 128 ms of texts): the sizer keeps 128.
  expect(Math.max(...sizes)).toBe(128);
});

test('a transformer’s batches stop at MAX_BATCH_TOKENS (64 texts of tiny BERT’s 128 tokens); a pooled static model’s do not', async () => {
  const spec = registryModel('local/tiny-bert')!;
  const transformer = embedderFromRunner({ run: fakeClockRunner(), dispose: async () => {} }, { spec, device: 'wasm', dtype: 'fp32' });
  const sizes = await sizesOf((texts, onSize) => transformer.embed(texts, { onProgress: (p) => onSize(p.batchSize) }), cutTexts);
  expect(Math.max(...sizes)).toBe(MAX_BATCH_TOKENS / spec.maxLength);
  const pooled = embedderFromRunner({ run: fakeClockRunner(), dispose: async () => {} }, { spec: { ...spec, kind: 'static-pooled', maxLength: 2048 }, device: 'wasm', dtype: 'fp32' });
  const pooledSizes = await sizesOf((texts, onSize) => pooled.embed(texts, { onProgress: (p) => onSize(p.batchSize) }), cutTexts);
  expect(Math.max(...pooledSizes)).toBe(128);
});

test('BatchSizer halves after a failure and never grows past that size again', () => {
  const sizer = new BatchSizer({ initial: 64 });
  expect(sizer.failed()).toBe(true);
  expect(sizer.current()).toBe(32);
  sizer.record(32, 1000, 1);
  expect(sizer.current()).toBe(32);
  const tiny = new BatchSizer({ initial: 1 });
  expect(tiny.failed()).toBe(false);
});

test('progress reports docs/s and ETA', () => {
  expect(progressAt(50, 200, 2, 16)).toEqual({ done: 50, total: 200, docsPerSecond: 25, etaSeconds: 6, batchSize: 16 });
  expect(Number.isNaN(progressAt(0, 10, 0, 4).etaSeconds)).toBe(true);
});

/** A fake model: the vector of a text is [length, first char code]. Records batch compositions. */
function fakeRunner(batches: string[][], failAbove = Infinity) {
  return async (texts: string[]) => {
    if (texts.length > failAbove) throw new Error('out of memory');
    batches.push(texts);
    const data = new Float32Array(texts.length * 2);
    texts.forEach((t, i) => data.set([t.length, t.charCodeAt(0) || 0], i * 2));
    return { data, dim: 2 };
  };
}

const texts = Array.from({ length: 37 }, (_, i) => String.fromCharCode(65 + (i % 26)).repeat(1 + ((i * 7) % 23)));

test('embedBatched returns rows in input order whatever the batching', async () => {
  const batches: string[][] = [];
  const m = await embedBatched(fakeRunner(batches), texts, { batchSize: 5 });
  expect(m.rows).toBe(37);
  texts.forEach((t, i) => expect([m.data[i * 2], m.data[i * 2 + 1]]).toEqual([t.length, t.charCodeAt(0)]));
  expect(batches.map((b) => b.length)).toEqual([5, 5, 5, 5, 5, 5, 5, 2]);
  // Longest first: each batch's texts are no longer than the previous batch's.
  for (let b = 1; b < batches.length; b++) {
    expect(Math.max(...batches[b]!.map((t) => t.length))).toBeLessThanOrEqual(Math.min(...batches[b - 1]!.map((t) => t.length)));
  }
});

test('embedBatched retries a failing batch smaller (adaptive mode) and reports progress to the end', async () => {
  const batches: string[][] = [];
  const progress: number[] = [];
  const m = await embedBatched(fakeRunner(batches, 4), texts, { initialBatchSize: 16, onProgress: (p) => progress.push(p.done) });
  expect(m.rows).toBe(37);
  expect(Math.max(...batches.map((b) => b.length))).toBeLessThanOrEqual(4);
  expect(progress.at(-1)).toBe(37);
  await expect(embedBatched(fakeRunner([], 4), texts, { batchSize: 8 })).rejects.toThrow(/out of memory/);
});

test('embedBatched stops between batches when cancelled', async () => {
  const controller = new AbortController();
  const batches: string[][] = [];
  const run = fakeRunner(batches);
  const promise = embedBatched(
    async (t) => {
      const out = await run(t);
      if (batches.length === 2) controller.abort();
      return out;
    },
    texts,
    { batchSize: 4, signal: controller.signal },
  );
  await expect(promise).rejects.toThrow(/abort/i);
  expect(batches.length).toBe(2);
});
