/** The settings an embedding set is stored under (src/lib/dense/embedding-text.ts vectorSettings). */
import { expect, test } from 'vitest';
import { vectorSettings } from '../../../src/lib/dense/embedding-text.ts';
import { resolveModelSpec } from '../../../src/lib/dense/registry.ts';

test('vectors of transformers and model2vec made before texts kept their closing token / dropped [UNK] are not reused', () => {
  expect(vectorSettings(resolveModelSpec('Xenova/all-MiniLM-L6-v2'), 'corpus')).toMatchObject({ textCut: 'own-tokens' });
  expect(vectorSettings(resolveModelSpec('Xenova/bge-small-en-v1.5'), 'queries')).toMatchObject({ textCut: 'own-tokens' });
  expect(vectorSettings(resolveModelSpec('minishlab/potion-base-8M'), 'corpus')).toMatchObject({ unknownTokens: 'dropped' });
});

test('the default static table keeps its settings, so its stored and shipped vectors stay valid', () => {
  expect(vectorSettings(resolveModelSpec('local/glove-100d-sif'), 'corpus')).toEqual({
    kind: 'static-table',
    pooling: 'none',
    normalize: true,
    passagePrefix: '',
    maxLength: 2048,
  });
});
