import { describe, expect, it } from 'vitest';
import { registryModel } from '../../../src/lib/dense/registry.ts';
import { defaultRetriever, MULTILINGUAL_DENSE_MODEL, preparedSettings, retrieverLabel, settingsKey, type RetrieverConfig } from '../../../src/lib/retrievers/config.ts';

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

describe('defaultRetriever follows the collection language', () => {
  it('English (and no context): English analyzer and the built-in model', () => {
    expect(defaultRetriever('bm25')).toEqual({ kind: 'bm25', bm25: { k1: 0.9, b: 0.4, analyzer: 'english' } });
    const dense = defaultRetriever('dense', { language: 'en', online: true });
    expect(dense.kind === 'dense' && dense.dense.model).toBe('local/glove-100d-sif');
  });

  it('Polish: the Polish analyzer for every BM25 part; the multilingual model only when online', () => {
    for (const kind of ['bm25', 'ledr', 'rrf', 'convex'] as const) {
      const config = defaultRetriever(kind, { language: 'pl' });
      expect('bm25' in config && config.bm25.analyzer).toBe('polish');
    }
    const online = defaultRetriever('dense', { language: 'pl', online: true });
    expect(online.kind === 'dense' && online.dense.model).toBe(MULTILINGUAL_DENSE_MODEL);
    expect(registryModel(MULTILINGUAL_DENSE_MODEL)).toMatchObject({ queryPrefix: 'query: ', passagePrefix: 'passage: ' });
    const offline = defaultRetriever('ledr', { language: 'pl', online: false });
    expect(offline.kind === 'ledr' && offline.dense.model).toBe('local/glove-100d-sif');
  });

  it('names a non-default analyzer in the label', () => {
    expect(retrieverLabel(defaultRetriever('bm25'))).toBe('BM25 (k1 0.9, b 0.4)');
    expect(retrieverLabel(defaultRetriever('bm25', { language: 'pl' }))).toBe('BM25 (k1 0.9, b 0.4, polish)');
  });
});
