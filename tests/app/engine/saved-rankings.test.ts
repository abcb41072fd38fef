import { afterEach, describe, expect, it, vi } from 'vitest';
import { defaultRetriever, type RetrieverConfig } from '../../../src/lib/retrievers/config.ts';
import { RetrievalEngine } from '../../../src/app/engine/retrieval-engine.ts';
import { savable, SavedRankings, type SavedRanking, type SavedRankingStore } from '../../../src/app/engine/saved-rankings.ts';
import { FakeBm25, FakeDense, FakeJobs, FakeRuns, Gate } from './fakes.ts';

const C = 'starter';
const BREAD = { id: 'q02', text: 'Why does bread go hard after a few days?' };
const DEFAULT_DENSE = defaultRetriever('dense') as Extract<RetrieverConfig, { kind: 'dense' }>;
const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

// The tests of waits (the quiet period, the longest hold) move fake timers: no real milliseconds raced.
afterEach(() => {
  vi.useRealTimers();
});

/** The database's part, as structured clones in a map. */
class MapStore implements SavedRankingStore {
  rows = new Map<string, unknown>();
  writes = 0;
  fail = false;
  async read(key: string): Promise<unknown> {
    if (this.fail) throw new Error('the database is closed');
    return this.rows.get(key);
  }
  async write(rankings: Array<{ key: string; collectionId: string; value: SavedRanking }>): Promise<void> {
    this.writes += 1;
    for (const { key, value } of rankings) this.rows.set(key, structuredClone(value));
  }
}

/** One visit: its own workers and engine over the store the visits share. */
function visit(store: MapStore, options: { build?: string; version?: number; whenIdle?: (run: () => void) => void } = {}) {
  const bm25 = new FakeBm25();
  const dense = new FakeDense();
  const saved = new SavedRankings(store, options.build ?? 'build-1', undefined, 0);
  const engine = new RetrievalEngine({
    bm25,
    dense,
    runs: new FakeRuns(),
    jobs: new FakeJobs(),
    collectionVersion: () => options.version ?? 1,
    saved,
    ...(options.whenIdle === undefined ? {} : { whenIdle: options.whenIdle }),
  });
  return { bm25, dense, saved, engine };
}

describe('saved rankings: what is saved and under which key', () => {
  it('saves the rankings that are a function of their key: not imported runs, re-ranking or HNSW search', () => {
    const hnsw: RetrieverConfig = { kind: 'dense', dense: { ...DEFAULT_DENSE.dense, search: 'hnsw' } };
    const ledrHnsw: RetrieverConfig = { ...(defaultRetriever('ledr') as Extract<RetrieverConfig, { kind: 'ledr' }>), dense: hnsw.dense };
    const kinds = ['bm25', 'dense', 'ledr', 'rrf', 'convex', 'rm3', 'bo1'] as const;
    expect(kinds.map((kind) => savable(defaultRetriever(kind)))).toEqual(kinds.map(() => true));
    const augmented: RetrieverConfig = { kind: 'augmented', bm25: { k1: 0.9, b: 0.4, analyzer: 'english' }, augmenter: { key: 'k', name: 'm', collection: 'c', split: 'train' } };
    expect(savable(augmented)).toBe(true);
    expect([hnsw, ledrHnsw, { kind: 'run', runKey: 'r', name: 'r' } as RetrieverConfig, defaultRetriever('rerank')].map(savable)).toEqual([false, false, false, false]);
  });

  it('keys differ with the build, the collection’s content, the settings, the query and the depth', () => {
    const saved = new SavedRankings(new MapStore(), 'build-1');
    const bm25 = defaultRetriever('bm25') as Extract<RetrieverConfig, { kind: 'bm25' }>;
    const key = saved.key(C, 1, bm25, BREAD, 1000);
    const others = [
      new SavedRankings(new MapStore(), 'build-2').key(C, 1, bm25, BREAD, 1000),
      saved.key('other', 1, bm25, BREAD, 1000),
      saved.key(C, 2, bm25, BREAD, 1000),
      saved.key(C, 1, { kind: 'bm25', bm25: { ...bm25.bm25, k1: 1.2 } }, BREAD, 1000),
      saved.key(C, 1, bm25, { text: BREAD.text }, 1000),
      saved.key(C, 1, bm25, { ...BREAD, text: 'stale bread' }, 1000),
      saved.key(C, 1, bm25, { ...BREAD, weighted: [{ term: 'bread', weight: 2 }] }, 1000),
      saved.key(C, 1, bm25, BREAD, 100),
    ];
    expect(key).toBeDefined();
    expect(new Set([key, ...others]).size).toBe(others.length + 1);
    // No version (the collection is not known) or not savable: no key.
    expect(saved.key(C, undefined, bm25, BREAD, 1000)).toBeUndefined();
    expect(saved.key(C, 1, defaultRetriever('rerank'), BREAD, 1000)).toBeUndefined();
  });

  it('a stored value of another kind, or a store that fails, reads as nothing saved', async () => {
    const store = new MapStore();
    const saved = new SavedRankings(store, 'build-1');
    store.rows.set('k', { ranking: { kind: 'dense', hits: [] } });
    store.rows.set('damaged', { ranking: { kind: 'bm25', hits: 'none' } });
    expect(await saved.read('k', 'dense')).toEqual({ ranking: { kind: 'dense', hits: [] } });
    expect(await saved.read('k', 'bm25')).toBeUndefined();
    expect(await saved.read('damaged', 'bm25')).toBeUndefined();
    store.fail = true;
    expect(await saved.read('k', 'dense')).toBeUndefined();
  });

  it('the rankings saved until they rest go in one write, the latest of each column settings; a collection forgotten is not written', async () => {
    const store = new MapStore();
    const writes: Array<() => void> = [];
    vi.useFakeTimers();
    const saved = new SavedRankings(store, 'build-1', (write) => writes.push(write), 20);
    const value = (docId: string): SavedRanking => ({ ranking: { kind: 'bm25', hits: [{ docId, score: 1 }] } });
    const bm25 = defaultRetriever('bm25');
    saved.save('typed', C, bm25, value('d0'));
    saved.save('a', C, bm25, value('d1'));
    await vi.advanceTimersByTimeAsync(10);
    saved.save('b', C, defaultRetriever('dense'), value('d2'));
    saved.save('c', 'other', bm25, value('d3'));
    saved.forget('other');
    // Nothing is written until the quiet period has passed since the last ranking (not the first); then the write is asked for.
    await vi.advanceTimersByTimeAsync(19);
    expect(writes).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(writes).toHaveLength(1);
    vi.useRealTimers();
    // Not written yet, but read as saved (a column asking again before the write).
    expect(await saved.read('a', 'bm25')).toEqual(value('d1'));
    writes[0]!();
    await tick();
    expect(store.writes).toBe(1);
    // The earlier ranking of the BM25 settings ('typed') was replaced by the later one before the write.
    expect([...store.rows.keys()]).toEqual(['a', 'b']);
  });
});

describe('saved rankings in the engine', () => {
  it('a later visit answers with the saved ranking without waiting for its index and vectors, which open for the next query', async () => {
    const store = new MapStore();
    const first = visit(store);
    const live = await first.engine.rankQuery(C, defaultRetriever('ledr'), BREAD);
    await first.saved.flush();
    expect(live.saved).toBeUndefined();

    const again = visit(store);
    again.bm25.gate = new Gate();
    again.dense.gate = new Gate();
    const shown = await again.engine.rankQuery(C, defaultRetriever('ledr'), BREAD);
    expect(shown).toEqual({ ...live, ms: 0, saved: true });
    expect(again.bm25.searches).toEqual([]);
    expect(again.engine.isPrepared(C, defaultRetriever('ledr'))).toBe(false);
    again.bm25.gate.open();
    again.dense.gate.open();
    await tick();
    expect([again.bm25.opens, again.dense.opens].map((opens) => opens.length)).toEqual([1, 1]);
    expect(again.engine.isPrepared(C, defaultRetriever('ledr'))).toBe(true);
    // Prepared now: the next ranking is computed (and equal to the saved one).
    const next = await again.engine.rankQuery(C, defaultRetriever('ledr'), BREAD);
    expect(next.saved).toBeUndefined();
    expect(next.ranking).toEqual(live.ranking);
  });

  it('another build or a collection imported again ranks anew', async () => {
    const store = new MapStore();
    const first = visit(store);
    await first.engine.rankQuery(C, defaultRetriever('bm25'), BREAD);
    await first.saved.flush();
    for (const options of [{ build: 'build-2' }, { version: 2 }]) {
      const other = visit(store, options);
      const result = await other.engine.rankQuery(C, defaultRetriever('bm25'), BREAD);
      expect(result.saved).toBeUndefined();
      expect(other.bm25.searches).toHaveLength(1);
    }
  });

  it('work held ahead (warm-ups, opens ahead) starts once a saved ranking is drawn', async () => {
    const store = new MapStore();
    const first = visit(store);
    await first.engine.rankQuery(C, defaultRetriever('bm25'), BREAD);
    await first.saved.flush();

    const idle: Array<() => void> = [];
    const again = visit(store, { whenIdle: (run) => idle.push(run) });
    again.engine.holdWorkAhead(60_000);
    again.engine.warm([defaultRetriever('bm25')]);
    again.engine.prepareAhead(C, defaultRetriever('bm25'));
    const shown = await again.engine.rankQuery(C, defaultRetriever('bm25'), BREAD);
    await tick();
    expect(shown.saved).toBe(true);
    expect([again.bm25.warmed, again.bm25.opens]).toEqual([[], []]);
    idle.forEach((run) => run());
    await tick();
    expect(again.bm25.warmed).toEqual(['english']);
    expect(again.bm25.opens).toHaveLength(1);
  });

  it('work held ahead starts at once when a ranking needs a worker, or after the longest hold', async () => {
    const store = new MapStore();
    const needs = visit(store, { whenIdle: () => undefined });
    needs.engine.holdWorkAhead(60_000);
    needs.engine.warm([defaultRetriever('bm25')]);
    await tick();
    expect(needs.bm25.warmed).toEqual([]);
    const result = await needs.engine.rankQuery(C, defaultRetriever('bm25'), BREAD);
    expect(result.saved).toBeUndefined();
    expect(needs.bm25.warmed).toEqual(['english']);

    vi.useFakeTimers();
    const waits = visit(store, { whenIdle: () => undefined });
    waits.engine.holdWorkAhead(5);
    waits.engine.warm([defaultRetriever('bm25')]);
    await vi.advanceTimersByTimeAsync(4);
    expect(waits.bm25.warmed).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(waits.bm25.warmed).toEqual(['english']);
  });
});
