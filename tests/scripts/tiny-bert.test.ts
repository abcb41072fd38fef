/** The tiny BERT-shaped test model: deterministic, BERT's inputs and output, padding masked out. */
import * as ort from 'onnxruntime-node';
import { expect, test } from 'vitest';
import { TINY_HIDDEN, tinyBertConfig, tinyBertModel } from '../../scripts/models/tiny-bert.ts';

const VOCAB = 1000;

function int64(values: number[], dims: number[]) {
  return new ort.Tensor('int64', BigInt64Array.from(values.map(BigInt)), dims);
}

test('the generator is deterministic', () => {
  expect(Buffer.from(tinyBertModel(VOCAB, 'fp32')).equals(Buffer.from(tinyBertModel(VOCAB, 'fp32')))).toBe(true);
  expect(tinyBertConfig(VOCAB)).toMatchObject({ model_type: 'bert', hidden_size: TINY_HIDDEN, vocab_size: VOCAB });
});

test('inputs and output are those of an exported BERT; padding does not change the real tokens', async () => {
  const session = await ort.InferenceSession.create(tinyBertModel(VOCAB, 'fp32'));
  expect([...session.inputNames].sort()).toEqual(['attention_mask', 'input_ids', 'token_type_ids']);
  expect(session.outputNames).toEqual(['last_hidden_state']);
  const alone = await session.run({ input_ids: int64([101, 7, 8, 102], [1, 4]), attention_mask: int64([1, 1, 1, 1], [1, 4]), token_type_ids: int64([0, 0, 0, 0], [1, 4]) });
  const padded = await session.run({
    input_ids: int64([101, 7, 8, 102, 0, 0], [1, 6]),
    attention_mask: int64([1, 1, 1, 1, 0, 0], [1, 6]),
    token_type_ids: int64([0, 0, 0, 0, 0, 0], [1, 6]),
  });
  expect(alone.last_hidden_state!.dims).toEqual([1, 4, TINY_HIDDEN]);
  expect(padded.last_hidden_state!.dims).toEqual([1, 6, TINY_HIDDEN]);
  const a = alone.last_hidden_state!.data as Float32Array;
  const b = padded.last_hidden_state!.data as Float32Array;
  for (let i = 0; i < a.length; i++) expect(Math.abs(a[i]! - b[i]!)).toBeLessThan(1e-5);
  // token_type_ids matter (the type embedding is added).
  const typed = await session.run({ input_ids: int64([101, 7, 8, 102], [1, 4]), attention_mask: int64([1, 1, 1, 1], [1, 4]), token_type_ids: int64([0, 1, 1, 1], [1, 4]) });
  expect(Math.abs((typed.last_hidden_state!.data as Float32Array)[TINY_HIDDEN]! - a[TINY_HIDDEN]!)).toBeGreaterThan(1e-4);
  await session.release();
});

test('the q8 file quantizes only the word embeddings and stays close to fp32', async () => {
  const fp32 = await ort.InferenceSession.create(tinyBertModel(VOCAB, 'fp32'));
  const q8 = await ort.InferenceSession.create(tinyBertModel(VOCAB, 'q8'));
  const feeds = { input_ids: int64([101, 5, 9, 102], [1, 4]), attention_mask: int64([1, 1, 1, 1], [1, 4]), token_type_ids: int64([0, 0, 0, 0], [1, 4]) };
  const a = (await fp32.run(feeds)).last_hidden_state!.data as Float32Array;
  const b = (await q8.run(feeds)).last_hidden_state!.data as Float32Array;
  let maxDiff = 0;
  for (let i = 0; i < a.length; i++) maxDiff = Math.max(maxDiff, Math.abs(a[i]! - b[i]!));
  expect(maxDiff).toBeGreaterThan(0);
  expect(maxDiff).toBeLessThan(0.1);
  // The word table shrinks from 4 to 1 byte per weight, plus one 4-byte scale per row.
  const saved = tinyBertModel(VOCAB, 'fp32').byteLength - tinyBertModel(VOCAB, 'q8').byteLength;
  expect(saved).toBeGreaterThan(VOCAB * TINY_HIDDEN * 3 - VOCAB * 4 - 1000);
});
