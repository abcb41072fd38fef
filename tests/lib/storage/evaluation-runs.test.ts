import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  deleteEvaluations,
  evaluationKey,
  loadEvaluations,
  saveEvaluation,
  timingsOf,
  type EfficiencyRecord,
  type EvaluationRow,
} from '../../../src/lib/storage/evaluation-runs.ts';
import { summarizeLatency } from '../../../src/lib/eval/latency.ts';
import { defaultRetriever, type RetrieverConfig } from '../../../src/lib/retrievers/config.ts';
import { settingsKey } from '../../../src/lib/settings-key.ts';
import { PlaygroundDatabase } from '../../../src/lib/storage/db.ts';

let db: PlaygroundDatabase;
let counter = 0;

beforeEach(async () => {
  db = new PlaygroundDatabase(`evaluation-runs-test-${++counter}`);
  await db.open();
});

afterEach(async () => {
  await db.delete();
});

const efficiency: EfficiencyRecord = { rankMs: 300, prepareMs: 0, latency: summarizeLatency([1, 2, 3]), queriesPerCall: 1 };

function rowFor(retriever: RetrieverConfig, overrides: Partial<EvaluationRow> = {}): EvaluationRow {
  return {
    key: evaluationKey('beir/scifact', 'test', retriever),
    collectionId: 'beir/scifact',
    split: 'test',
    retriever,
    trec: '1 Q0 d1 1 2.5 bm25\n',
    createdAt: 1,
    timings: timingsOf(efficiency),
    collectionVersion: 100,
    tag: retriever.kind,
    queries: 1,
    missing: [],
    efficiency,
    ...overrides,
  };
}

describe('evaluation store (runs table)', () => {
  it('keys a run by collection, split and the canonical settings, so any change of settings is another key', () => {
    const bm25 = defaultRetriever('bm25');
    expect(evaluationKey('c', 'test', bm25)).toBe(`c|test|${settingsKey(bm25)}`);
    const reordered = { bm25: { analyzer: 'english', b: 0.4, k1: 0.9 }, kind: 'bm25' } as RetrieverConfig;
    expect(evaluationKey('c', 'test', reordered)).toBe(evaluationKey('c', 'test', bm25));
    expect(evaluationKey('c', 'test', { kind: 'bm25', bm25: { k1: 1.2, b: 0.4, analyzer: 'english' } })).not.toBe(evaluationKey('c', 'test', bm25));
    expect(evaluationKey('c', 'train', bm25)).not.toBe(evaluationKey('c', 'test', bm25));
  });

  it('reads back the rows of the columns asked for, on this import of the collection only', async () => {
    const bm25 = defaultRetriever('bm25');
    const dense = defaultRetriever('dense');
    const ledr = defaultRetriever('ledr');
    await saveEvaluation(db, rowFor(bm25));
    await saveEvaluation(db, rowFor(dense, { collectionVersion: 99 }));
    await saveEvaluation(db, rowFor(ledr));
    const found = await loadEvaluations(db, 'beir/scifact', 100, 'test', [bm25, dense]);
    expect([...found.keys()]).toEqual([evaluationKey('beir/scifact', 'test', bm25)]);
    const row = found.get(evaluationKey('beir/scifact', 'test', bm25))!;
    expect(row.trec).toBe('1 Q0 d1 1 2.5 bm25\n');
    expect(row.efficiency.latency).toEqual({ queries: 3, meanMs: 2, p95Ms: 3, maxMs: 3 });
    expect(row.timings).toMatchObject({ rank_ms: 300, latency_mean_ms: 2, latency_p95_ms: 3 });
  });

  it('ignores imported runs in the same table, and deletes only the split’s evaluations', async () => {
    const bm25 = defaultRetriever('bm25');
    await saveEvaluation(db, rowFor(bm25));
    await saveEvaluation(db, rowFor(bm25, { key: evaluationKey('beir/scifact', 'train', bm25), split: 'train' }));
    await db.runs.put({ key: 'beir/scifact|imported|mine|x', collectionId: 'beir/scifact', split: 'imported', retriever: { kind: 'run' }, trec: '', createdAt: 1, timings: {} });
    expect(await deleteEvaluations(db, 'beir/scifact', 'test')).toBe(1);
    expect((await db.runs.toArray()).map((r) => r.split).sort()).toEqual(['imported', 'train']);
    expect(await deleteEvaluations(db, 'beir/scifact', 'imported')).toBe(0);
  });
});
