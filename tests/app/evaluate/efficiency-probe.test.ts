import { describe, expect, it } from 'vitest';
import { bm25Efficiency, denseEfficiency } from '../../../src/app/evaluate/efficiency-probe.ts';
import { defaultRetriever } from '../../../src/lib/retrievers/config.ts';

function never(): never {
  throw new Error('unreachable');
}

describe('efficiency probe', () => {
  it('reports a BM25 index as the engine opened it: built now or loaded from storage, with size and build time', () => {
    const info = (source: 'stored' | 'built') => ({
      collectionId: 'c',
      settings: { analyzer: 'english' as const, field: 'title+text' as const, collection: { docCount: 3, createdAt: 100 } },
      source,
      numDocs: 3,
      numTerms: 9,
      numPostings: 12,
      storedBytes: 40,
      memoryBytes: 64,
      buildMs: 12.5,
      builtAt: 1_700_000_000_000,
      openMs: 2,
    });
    expect(bm25Efficiency(info('stored'), 'english')).toEqual({ analyzer: 'english', source: 'stored', buildMs: 12.5, bytes: 40, builtAt: 1_700_000_000_000 });
    expect(bm25Efficiency(info('built'), 'english').source).toBe('built');
  });

  it('reports dense vectors as float32 bytes, embedded or from storage', () => {
    const dense = defaultRetriever('dense');
    if (dense.kind !== 'dense') never();
    const embedded = denseEfficiency({ model: 'm', device: 'wasm', dtype: 'fp32', dim: 100, docs: 5183, fromCache: false, embedMs: 1700, docsPerSecond: 3049 }, dense.dense);
    expect(embedded).toMatchObject({ source: 'embedded', vectorBytes: 5183 * 100 * 4, docsPerSecond: 3049, device: 'wasm' });
    const stored = denseEfficiency({ model: 'm', device: 'webgpu', dtype: 'fp16', dim: 8, docs: 2, fromCache: true, embedMs: 0, hnsw: { source: 'stored', ms: 4 } }, dense.dense);
    expect(stored).toMatchObject({ source: 'stored', vectorBytes: 64, hnsw: { source: 'stored', ms: 4 } });
    expect(stored).not.toHaveProperty('docsPerSecond');
  });
});
