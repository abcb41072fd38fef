import { describe, expect, it } from 'vitest';
import { registryModel } from '../../../src/lib/dense/registry.ts';
import { defaultRetriever, MULTILINGUAL_DENSE_MODEL, preparedSettings, retrieverLabel, type RetrieverConfig } from '../../../src/lib/retrievers/config.ts';

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

  it('RM3 and Bo1 need their BM25 index; Re-rank its first stage\'s needs and its cross-encoder', () => {
    expect(preparedSettings(defaultRetriever('rm3'))).toEqual({ bm25: { k1: 0.9, b: 0.4, analyzer: 'english' } });
    expect(preparedSettings(defaultRetriever('bo1'))).toEqual({ bm25: { k1: 0.9, b: 0.4, analyzer: 'english' } });
    const ledr = defaultRetriever('ledr');
    if (ledr.kind !== 'ledr') never();
    const rerank: RetrieverConfig = { kind: 'rerank', firstStage: ledr, depth: 100, rerank: { model: 'local/tiny-cross-encoder', dtype: 'fp32', device: 'wasm' } };
    expect(preparedSettings(rerank)).toEqual({ ...preparedSettings(ledr), rerank: rerank.rerank });
  });
});

describe('new kinds: defaults and labels', () => {
  it('RM3 has Anserini\'s defaults, Bo1 PyTerrier\'s, Re-rank BM25 top 100 with the registry default cross-encoder', () => {
    expect(defaultRetriever('rm3')).toEqual({ kind: 'rm3', bm25: { k1: 0.9, b: 0.4, analyzer: 'english' }, fbTerms: 10, fbDocs: 10, originalQueryWeight: 0.5 });
    expect(defaultRetriever('bo1')).toEqual({ kind: 'bo1', bm25: { k1: 0.9, b: 0.4, analyzer: 'english' }, fbTerms: 10, fbDocs: 3 });
    expect(defaultRetriever('rerank', { language: 'pl' })).toEqual({
      kind: 'rerank',
      firstStage: { kind: 'bm25', bm25: { k1: 0.9, b: 0.4, analyzer: 'polish' } },
      depth: 100,
      rerank: { model: 'Xenova/ms-marco-MiniLM-L-6-v2', dtype: 'q8', device: 'auto' },
    });
    expect(retrieverLabel(defaultRetriever('rm3'))).toBe('RM3 (10 terms, 10 docs, w 0.5)');
    expect(retrieverLabel({ kind: 'bm25', bm25: { k1: 0.9, b: 0.4, analyzer: 'wordpiece' } })).toBe('BM25 (k1 0.9, b 0.4, wordpiece)');
    expect(retrieverLabel(defaultRetriever('rerank'))).toBe('Re-rank 100: ms-marco-MiniLM-L-6-v2 over BM25 (k1 0.9, b 0.4)');
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
