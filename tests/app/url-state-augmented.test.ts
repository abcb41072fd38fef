/** An Augmented BM25 column travels in the address with its model's reference and BM25 settings. */
import { describe, expect, it } from 'vitest';
import { decodeRetriever, encodeRetriever } from '../../src/app/url-state.ts';
import type { RetrieverConfig } from '../../src/lib/retrievers/config.ts';

describe('augmented column in the address', () => {
  it('round-trips its model reference (key, name, collection, split) and BM25 settings', () => {
    const config: RetrieverConfig = {
      kind: 'augmented',
      bm25: { k1: 1.2, b: 0.75, analyzer: 'wordpiece' },
      augmenter: { key: '1a2b3c4d', name: 'scifact aug; λ=0.1', collection: 'scifact', split: 'train' },
    };
    expect(decodeRetriever(encodeRetriever(config))).toEqual(config);
  });
});
