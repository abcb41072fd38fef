import { describe, expect, it } from 'vitest';
import { defaultRetriever, preparedSettings, settingsKey, type RetrieverConfig } from '../../../src/lib/retrievers/config.ts';

function never(): never {
  throw new Error('unreachable');
}

describe('preparedSettings', () => {
  it('LEDR scores exactly (no HNSW graph), runs open nothing', () => {
    const ledr = defaultRetriever('ledr');
    if (ledr.kind !== 'ledr') never();
    const hnswLedr: RetrieverConfig = { ...ledr, dense: { ...ledr.dense, search: 'hnsw' } };
    expect(preparedSettings(hnswLedr).dense?.search).toBe('exact');
    expect(preparedSettings(hnswLedr).bm25).toEqual(ledr.bm25);
    expect(preparedSettings({ kind: 'run', runKey: 'k', name: 'n' })).toEqual({});
    expect(preparedSettings(defaultRetriever('dense')).bm25).toBeUndefined();
  });
});

describe('settingsKey', () => {
  it('is the same for equal settings whatever the key order, and differs when a value differs', () => {
    expect(settingsKey({ k1: 0.9, b: 0.4, analyzer: 'english' })).toBe(settingsKey({ analyzer: 'english', b: 0.4, k1: 0.9 }));
    expect(settingsKey({ k1: 0.9, b: 0.4 })).not.toBe(settingsKey({ k1: 0.9, b: 0.5 }));
    expect(settingsKey({ a: undefined, b: [1, { c: 2 }] })).toBe('{"b":[1,{"c":2}]}');
  });
});
