/**
 * The CLI's flags become the configuration a page column holds: with default flags, each retriever is the
 * page's default column of that kind (so the same settings key, the same ranking), and the flags that
 * differ from the defaults land where the page keeps them.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { defaultRetriever } from '../../src/lib/retrievers/config.ts';
import { settingsKey } from '../../src/lib/settings-key.ts';
import { FIRST_STAGES, retrieverConfig, type RetrieverSettings } from '../../src/cli/retrievers.ts';
import { ensureModels } from '../lib/dense/models-fixture.ts';

/** What `eval` parses with no retriever flags but --retriever. */
function defaults(retriever: RetrieverSettings['retriever']): RetrieverSettings {
  return {
    retriever,
    analyzer: 'english',
    bm25: { k1: 0.9, b: 0.4 },
    topK: 1000,
    ignoreIdenticalIds: true,
    model: 'local/glove-100d-sif',
    dtype: undefined,
    search: 'exact',
    ledrK: 1000,
    lexical: 'bm25',
    rrfK: 60,
    alpha: 0.5,
    normalization: 'min-max',
    prf: {},
  };
}

beforeAll(() => {
  ensureModels('glove-100d-sif');
});

describe('retrieverConfig', () => {
  it.each(FIRST_STAGES)('%s with default flags is the page’s default column', (kind) => {
    expect(settingsKey(retrieverConfig(defaults(kind)))).toBe(settingsKey(defaultRetriever(kind)));
  });

  it('puts the flags where a column keeps them', () => {
    const config = retrieverConfig({
      ...defaults('convex'),
      bm25: { k1: 1.2, b: 0.75 },
      search: 'hnsw',
      hnsw: { efSearch: 64 },
      alpha: 0.3,
      normalization: 'z-score',
    });
    expect(config).toMatchObject({
      kind: 'convex',
      bm25: { k1: 1.2, b: 0.75, analyzer: 'english' },
      dense: { search: 'hnsw', hnsw: { M: 16, efConstruction: 200, efSearch: 64 } },
      alpha: 0.3,
      normalization: 'z-score',
    });
    expect(retrieverConfig({ ...defaults('rm3'), prf: { fbDocs: 5 } })).toMatchObject({ kind: 'rm3', fbTerms: 10, fbDocs: 5, originalQueryWeight: 0.5 });
    // A re-ranker's first stage reads the dense model from --dense-model (--model names the cross-encoder).
    expect(retrieverConfig({ ...defaults('rerank'), model: 'local/tiny-cross-encoder' }, 'dense')).toMatchObject({ dense: { model: 'local/glove-100d-sif' } });
  });
});
