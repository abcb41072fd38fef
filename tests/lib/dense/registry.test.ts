import { expect, test } from 'vitest';
import { customModelSpec, MODEL_REGISTRY, modelSuitsLanguage, REFERENCE_MODELS, registryModel, resolveModelSpec } from '../../../src/lib/dense/registry.ts';

test('the registry holds the models the issue names, with their model-card settings', () => {
  const ids = MODEL_REGISTRY.map((m) => m.id);
  for (const id of ['Xenova/all-MiniLM-L6-v2', 'Xenova/bge-small-en-v1.5', 'Xenova/e5-small-v2', 'Supabase/gte-small', 'Xenova/multilingual-e5-small', 'minishlab/potion-base-8M', 'local/glove-100d-sif']) {
    expect(ids).toContain(id);
  }
  expect(registryModel('Xenova/bge-small-en-v1.5')).toMatchObject({ pooling: 'cls', queryPrefix: 'Represent this sentence for searching relevant passages: ', passagePrefix: '' });
  expect(registryModel('Xenova/e5-small-v2')).toMatchObject({ pooling: 'mean', queryPrefix: 'query: ', passagePrefix: 'passage: ' });
  expect(registryModel('Xenova/multilingual-e5-small')).toMatchObject({ queryPrefix: 'query: ', passagePrefix: 'passage: ' });
  expect(registryModel('Xenova/multilingual-e5-small')!.languages).toContain('pl');
  expect(registryModel('minishlab/potion-base-8M')!.kind).toBe('model2vec');
  expect(registryModel('local/glove-100d-sif')).toMatchObject({ kind: 'static-table', source: 'local', dim: 100, pooling: 'none', dtypes: ['q8'] });
  // Reference models resolve by id (tests, CLI) but are not offered by the app.
  expect(registryModel('local/glove-100d-avg')).toMatchObject({ kind: 'static-pooled', source: 'local' });
  expect(ids).not.toContain('local/glove-100d-avg');
});

test('multilingual models for Polish, with their prefixes; GloVe is English-only', () => {
  expect(registryModel('Xenova/paraphrase-multilingual-MiniLM-L12-v2')).toMatchObject({ pooling: 'mean', queryPrefix: '', passagePrefix: '', maxLength: 128 });
  expect(modelSuitsLanguage(registryModel('Xenova/paraphrase-multilingual-MiniLM-L12-v2')!, 'pl')).toBe(true);
  expect(modelSuitsLanguage(registryModel('Xenova/multilingual-e5-small')!, 'pl')).toBe(true);
  expect(modelSuitsLanguage(registryModel('local/glove-100d-sif')!, 'pl')).toBe(false);
  expect(modelSuitsLanguage(registryModel('local/glove-100d-sif')!, 'en')).toBe(true);
  expect(modelSuitsLanguage(customModelSpec('someone/model'), 'pl')).toBe(true);
});

test('every entry is complete and consistent', () => {
  expect(new Set(MODEL_REGISTRY.map((m) => m.id)).size).toBe(MODEL_REGISTRY.length);
  for (const m of [...MODEL_REGISTRY, ...REFERENCE_MODELS]) {
    expect(m.dtypes).toContain(m.defaultDtype);
    expect(m.dim).toBeGreaterThan(0);
    expect(m.maxLength).toBeGreaterThan(0);
    expect(m.source === 'local').toBe(m.id.startsWith('local/'));
    // A graph that pools by itself must not be pooled again.
    if (m.kind !== 'transformer') expect(m.pooling).toBe('none');
  }
});

test('an unknown hub id gets the sentence-transformers defaults, overridable', () => {
  expect(customModelSpec('someone/model')).toMatchObject({ kind: 'transformer', source: 'hub', pooling: 'mean', normalize: true, dim: 0 });
  expect(resolveModelSpec('someone/model', { pooling: 'cls' }).pooling).toBe('cls');
  expect(resolveModelSpec('Xenova/e5-small-v2', { maxLength: 128 }).queryPrefix).toBe('query: ');
});
