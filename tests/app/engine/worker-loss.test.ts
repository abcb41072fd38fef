/**
 * After a worker dies, what it held open is gone; the backends tell the engine (lostBm25 / lostDense),
 * which must then prepare the columns again instead of asking the fresh worker for an index it never
 * opened. The fakes lose their open indexes the way a crashed worker does (stored ones stay stored).
 */
import { expect, test } from 'vitest';
import { defaultRetriever, type RetrieverConfig } from '../../../src/lib/retrievers/config.ts';
import { RetrievalEngine } from '../../../src/app/engine/retrieval-engine.ts';
import { FakeBm25, FakeDense, FakeJobs, FakeRuns } from './fakes.ts';

const C = 'starter';
const BREAD = { id: 'q02', text: 'Why does bread go hard after a few days?' };
const BM25 = defaultRetriever('bm25');
const DENSE = defaultRetriever('dense') as Extract<RetrieverConfig, { kind: 'dense' }>;

function setup() {
  const bm25 = new FakeBm25();
  const dense = new FakeDense();
  const engine = new RetrievalEngine({ bm25, dense, runs: new FakeRuns(), jobs: new FakeJobs() });
  return { bm25, dense, engine };
}

test('without being told, the engine asks the fresh worker for an index it does not hold (what lostBm25 prevents)', async () => {
  const { bm25, engine } = setup();
  await engine.rankQuery(C, BM25, BREAD);
  bm25.lose();
  await expect(engine.rankQuery(C, BM25, { text: 'stale loaf' })).rejects.toThrow('index not open');
});

test('a lost BM25 worker: its analyzer’s columns open the (stored) index again and rank as before', async () => {
  const { bm25, engine } = setup();
  const before = await engine.rankQuery(C, BM25, BREAD);
  expect(bm25.opens).toHaveLength(1);
  bm25.lose();
  engine.lostBm25('english');
  expect(engine.isPrepared(C, BM25)).toBe(false);
  const after = await engine.rankQuery(C, BM25, { text: 'stale loaf' });
  expect(bm25.opens).toHaveLength(2);
  expect(after.ranking.hits.length).toBeGreaterThan(0);
  expect((await engine.rankQuery(C, BM25, BREAD)).ranking.hits).toEqual(before.ranking.hits);
});

test('a lost BM25 worker of another analyzer changes nothing here', async () => {
  const { bm25, engine } = setup();
  await engine.rankQuery(C, BM25, BREAD);
  engine.lostBm25('standard');
  expect(engine.isPrepared(C, BM25)).toBe(true);
  await engine.rankQuery(C, BM25, { text: 'toast' });
  expect(bm25.opens).toHaveLength(1);
});

test('a lost dense worker: dense and fused columns of that model, device and dtype open again; BM25 stays open', async () => {
  const { bm25, dense, engine } = setup();
  const ledr = defaultRetriever('ledr');
  await engine.rankQuery(C, DENSE, BREAD);
  await engine.rankQuery(C, ledr, BREAD);
  expect(dense.opens).toHaveLength(1);
  dense.lose();
  engine.lostDense({ model: 'some/other-model', device: DENSE.dense.device, dtype: DENSE.dense.dtype });
  expect(engine.isPrepared(C, DENSE)).toBe(true);
  engine.lostDense(DENSE.dense);
  expect(engine.isPrepared(C, DENSE)).toBe(false);
  expect(engine.isPrepared(C, ledr)).toBe(false);
  expect(engine.isPrepared(C, BM25)).toBe(true);
  const again = await engine.rankQuery(C, DENSE, { text: 'stale loaf' });
  expect(again.ranking.hits.length).toBeGreaterThan(0);
  await engine.rankQuery(C, ledr, { text: 'stale loaf' });
  expect(dense.opens.length).toBeGreaterThanOrEqual(2);
  expect(bm25.opens).toHaveLength(1);
});

test('a model that moved to WASM while in use: denseInfo says so, the column stays prepared', async () => {
  const { engine } = setup();
  await engine.rankQuery(C, DENSE, BREAD);
  expect(engine.denseInfo(C, DENSE.dense)?.device).toBe('wasm');
  const webgpu = { ...DENSE.dense, device: 'webgpu' as const };
  await engine.rankQuery(C, { kind: 'dense', dense: webgpu }, BREAD);
  expect(engine.denseInfo(C, webgpu)?.fallbackReason).toBeUndefined();
  engine.movedToWasm(webgpu, 'the WebGPU device was lost');
  expect(engine.denseInfo(C, webgpu)).toMatchObject({ device: 'wasm', fallbackReason: 'the WebGPU device was lost' });
  expect(engine.isPrepared(C, { kind: 'dense', dense: webgpu })).toBe(true);
});
