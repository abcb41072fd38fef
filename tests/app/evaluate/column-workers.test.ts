import { describe, expect, it } from 'vitest';
import { sharesWorker, workersOf } from '../../../src/app/evaluate/column-workers.ts';
import { defaultRetriever, type RetrieverConfig } from '../../../src/lib/retrievers/config.ts';

const bm25 = defaultRetriever('bm25') as Extract<RetrieverConfig, { kind: 'bm25' }>;
const dense = defaultRetriever('dense') as Extract<RetrieverConfig, { kind: 'dense' }>;

describe('column workers', () => {
  it('BM25 columns share the worker of their analyzer, whatever k1 and b', () => {
    const other: RetrieverConfig = { kind: 'bm25', bm25: { ...bm25.bm25, k1: 1.2, b: 0.75 } };
    expect(sharesWorker(bm25, other)).toBe(true);
    const polish: RetrieverConfig = { kind: 'bm25', bm25: { ...bm25.bm25, analyzer: 'polish' } };
    expect(sharesWorker(bm25, polish)).toBe(false);
  });

  it('BM25 and dense columns rank in different workers; LEDR and RRF in both', () => {
    expect(sharesWorker(bm25, dense)).toBe(false);
    for (const fused of [defaultRetriever('ledr'), defaultRetriever('rrf')]) {
      expect(sharesWorker(fused, bm25)).toBe(true);
      expect(sharesWorker(fused, dense)).toBe(true);
    }
  });

  it('dense columns of another model or device rank in another worker; HNSW or exact search in the same', () => {
    expect(sharesWorker(dense, { kind: 'dense', dense: { ...dense.dense, model: 'local/other-model' } })).toBe(false);
    expect(sharesWorker(dense, { kind: 'dense', dense: { ...dense.dense, search: 'hnsw' } })).toBe(true);
  });

  it('an imported run ranks in no worker', () => {
    expect(workersOf({ kind: 'run', runKey: 'r', name: 'r' })).toEqual([]);
    expect(sharesWorker({ kind: 'run', runKey: 'r', name: 'r' }, bm25)).toBe(false);
  });
});
