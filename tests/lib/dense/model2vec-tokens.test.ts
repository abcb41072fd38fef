/** The ids model2vec averages (src/lib/dense/model2vec-tokens.ts), against model2vec's StaticModel.tokenize. */
import { expect, test } from 'vitest';
import { firstCodePoints, medianTokenLength, model2vecIds, model2vecText } from '../../../src/lib/dense/model2vec-tokens.ts';

test('the median token length is numpy’s median truncated to an integer, over code points', () => {
  expect(medianTokenLength(['a', 'bbb', 'cc'])).toBe(2);
  // Even count: (2 + 3) / 2 = 2.5 → 2.
  expect(medianTokenLength(['a', 'bb', 'ccc', 'dddd'])).toBe(2);
  // '##🧬' is three code points (four UTF-16 units).
  expect(medianTokenLength(['##🧬', '##🧬', 'a'])).toBe(3);
  expect(medianTokenLength([])).toBe(0);
});

test('texts are cut to maxLength × median code points before tokenizing', () => {
  expect(firstCodePoints('🧬🧬🧬', 2)).toBe('🧬🧬');
  expect(firstCodePoints('abc', 5)).toBe('abc');
  expect(model2vecText('abcdefghij', 2, 3)).toBe('abcdef');
});

test('the unknown token is dropped before the cut to maxLength', () => {
  expect(model2vecIds([100, 100, 7, 100, 8, 9], 100, 2)).toEqual([7, 8]);
  expect(model2vecIds([100, 100], 100, 2)).toEqual([]);
  expect(model2vecIds([100, 7], undefined, 5)).toEqual([100, 7]);
});
