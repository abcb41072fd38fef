/** Single-text encoding (src/lib/dense/single-encoding.ts) with fake tokenizers; real ones: truncation.test.ts. */
import { expect, test } from 'vitest';
import { encodeSingle, singleTemplateOf, type SingleTokenizer } from '../../../src/lib/dense/single-encoding.ts';
import { padBatch } from '../../../src/lib/dense/token-ids.ts';

/** Words → ids by a running table; `wrap` is the post-processor. */
function fake(wrap: (ids: number[], text: string) => number[]): SingleTokenizer {
  const table = new Map<string, number>();
  const ids = (text: string) => text.split(/\s+/).filter(Boolean).map((word) => table.get(word) ?? table.set(word, 1000 + table.size).get(word)!);
  return { ids, withSpecialTokens: (text) => wrap(ids(text), text) };
}

test('the template is read off the tokenizer: BERT, XLM-R, none', () => {
  expect(singleTemplateOf(fake((ids) => [101, ...ids, 102]))).toEqual({ prefix: [101], suffix: [102] });
  expect(singleTemplateOf(fake((ids) => [0, ...ids, 2]))).toEqual({ prefix: [0], suffix: [2] });
  expect(singleTemplateOf(fake((ids) => ids))).toEqual({ prefix: [], suffix: [] });
});

test('a tokenizer whose special tokens depend on the text, or that changes the text’s tokens, is refused', () => {
  expect(() => singleTemplateOf(fake((ids, text) => [text.length, ...ids, 2]))).toThrow(/different special tokens/);
  expect(() => singleTemplateOf(fake((ids) => [101, ...ids.map((id) => id + 1), 102]))).toThrow(/own tokens/);
});

test('the text is cut to leave room for the special tokens; short texts are whole', () => {
  const template = { prefix: [101], suffix: [102] };
  expect(encodeSingle(template, [1, 2, 3, 4, 5], 5)).toEqual([101, 1, 2, 3, 102]);
  expect(encodeSingle(template, [1, 2, 3], 5)).toEqual([101, 1, 2, 3, 102]);
  expect(encodeSingle(template, [1], 5)).toEqual([101, 1, 102]);
  expect(encodeSingle(template, [], 5)).toEqual([101, 102]);
  expect(() => encodeSingle(template, [1], 2)).toThrow(/no room/);
});

test('a batch is padded on the right with the pad id and mask 0', () => {
  const batch = padBatch([{ ids: [101, 7, 102] }, { ids: [101, 102] }], 0);
  expect([batch.rows, batch.width]).toEqual([2, 3]);
  expect(Array.from(batch.inputIds, Number)).toEqual([101, 7, 102, 101, 102, 0]);
  expect(Array.from(batch.attentionMask, Number)).toEqual([1, 1, 1, 1, 1, 0]);
});
