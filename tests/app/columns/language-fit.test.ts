import { describe, expect, it } from 'vitest';
import { fitLanguage, languageMisfit } from '../../../src/app/columns/language-fit.ts';
import { defaultRetriever, MULTILINGUAL_DENSE_MODEL, type RetrieverConfig } from '../../../src/lib/retrievers/config.ts';

const english = (kind: 'bm25' | 'dense' | 'ledr' | 'rm3' | 'rerank') => defaultRetriever(kind, { language: 'en' });

describe('languageMisfit / fitLanguage', () => {
  it('finds nothing wrong with a language’s own defaults', () => {
    for (const language of ['en', 'pl'] as const) {
      for (const kind of ['bm25', 'dense', 'ledr', 'rm3', 'rerank'] as const) {
        expect(languageMisfit(defaultRetriever(kind, { language, online: true }), language)).toBeUndefined();
      }
    }
  });

  it('names the English analyzer and the English-only model of English columns on a Polish collection', () => {
    expect(languageMisfit(english('bm25'), 'pl')).toEqual({ analyzers: ['english'], models: [] });
    expect(languageMisfit(english('dense'), 'pl')).toEqual({ analyzers: [], models: ['local/glove-100d-sif'] });
    expect(languageMisfit(english('ledr'), 'pl')).toEqual({ analyzers: ['english'], models: ['local/glove-100d-sif'] });
    // A Re-rank column's first stage counts.
    expect(languageMisfit(english('rerank'), 'pl')).toEqual({ analyzers: ['english'], models: [] });
  });

  it('switches to the language’s analyzer and the multilingual model, keeping every other setting', () => {
    const ledr: RetrieverConfig = { ...defaultRetriever('ledr'), k: 500 } as RetrieverConfig;
    const fit = fitLanguage(ledr, 'pl');
    expect(fit).toEqual({ ...ledr, bm25: { ...(ledr as { bm25: object }).bm25, analyzer: 'polish' }, dense: { ...(ledr as { dense: object }).dense, model: MULTILINGUAL_DENSE_MODEL, dtype: 'q8' } });
    expect(languageMisfit(fit, 'pl')).toBeUndefined();
    // The given configuration is not changed.
    expect((ledr as { bm25: { analyzer: string } }).bm25.analyzer).toBe('english');
  });

  it('leaves analyzers of no language and models it does not know alone', () => {
    const standard: RetrieverConfig = { kind: 'bm25', bm25: { k1: 0.9, b: 0.4, analyzer: 'standard' } };
    const custom: RetrieverConfig = { ...defaultRetriever('dense'), dense: { ...(defaultRetriever('dense') as { dense: object }).dense, model: 'someone/own-model' } } as RetrieverConfig;
    expect(languageMisfit(standard, 'pl')).toBeUndefined();
    expect(languageMisfit(custom, 'pl')).toBeUndefined();
  });
});
