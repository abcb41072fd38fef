/**
 * The cross-encoder scorer with the project's tiny cross-encoder (npm run models), whose logit is a known
 * function of the token ids (scripts/models/tiny-cross-encoder.ts):
 *
 *   logit = Σ_{document tokens} w(id)·(0.25 + occurrences of id among the query tokens) − 0.5·Σ_{query tokens} w(id)
 *
 * Pairs are checked against transformers.js's own pair encoding of the real all-MiniLM-L6-v2 tokenizer, and
 * scores against that formula computed here from the token ids, on SciFact queries and documents.
 */
import { AutoTokenizer } from '@huggingface/transformers';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { crossEncoderTokenWeight, CROSS_ALPHA, CROSS_BETA } from '../../../scripts/models/tiny-cross-encoder.ts';
import { loadDataset } from '../../../src/cli/dataset.ts';
import { loadNodeCrossEncoder, resolveNodeReranker } from '../../../src/cli/rerank.ts';
import type { CrossEncoder } from '../../../src/lib/rerank/cross-encoder.ts';
import { PairScoreCache } from '../../../src/lib/rerank/pair-score-cache.ts';
import { rerankDocText } from '../../../src/lib/rerank/rerank.ts';
import type { Doc, Query } from '../../../src/lib/types.ts';
import { ensureModels } from '../dense/models-fixture.ts';
import { shared } from '../../shared-dir.ts';

const CLS = 101;
const SEP = 102;

type Tokenizer = ((text: string, options: { text_pair: string; return_tensor: false }) => { input_ids: number[]; token_type_ids: number[] }) & {
  encode(text: string, options: { add_special_tokens: boolean }): number[];
};

let fp32: CrossEncoder;
let q8: CrossEncoder;
let tokenizer: Tokenizer;
let docs: Doc[];
let queries: Query[];

/** The tiny model's logit computed from the token ids of one pair as the model reads it. */
function expectedLogit(ids: readonly number[], typeIds: readonly number[]): number {
  const queryIds = ids.filter((_, i) => typeIds[i] === 0);
  let score = 0;
  ids.forEach((id, i) => {
    if (typeIds[i] !== 1) return;
    const inQuery = queryIds.filter((q) => q === id).length;
    score += crossEncoderTokenWeight(id) * (CROSS_ALPHA + inQuery);
  });
  for (const id of queryIds) score -= CROSS_BETA * crossEncoderTokenWeight(id);
  return score;
}

beforeAll(async () => {
  ensureModels('tiny-cross-encoder');
  const model = resolveNodeReranker('local/tiny-cross-encoder');
  // No cache: every score below comes from the model.
  fp32 = await loadNodeCrossEncoder(model, { dtype: 'fp32', cache: false });
  q8 = await loadNodeCrossEncoder(model, { dtype: 'q8', cache: false });
  // configureModelSource above pointed transformers.js at the model folder.
  tokenizer = (await AutoTokenizer.from_pretrained('local/tiny-cross-encoder')) as unknown as Tokenizer;
  const scifact = await loadDataset(shared('beir', 'scifact'), { splits: ['test'] });
  docs = scifact.docs.slice(0, 40);
  queries = [...scifact.queries.values()].slice(0, 10);
});
afterAll(async () => {
  await fp32?.dispose();
  await q8?.dispose();
});

describe('pair encoding', () => {
  test('max length comes from the model config (max_position_embeddings 512, model_max_length 512)', () => {
    expect(fp32.maxLength).toBe(512);
  });

  test('[CLS] q [SEP] d [SEP] with token_type_ids 0…0 1…1, equal to the tokenizer’s own pair encoding', () => {
    let compared = 0;
    for (const query of queries) {
      for (const doc of docs.slice(0, 8)) {
        const text = rerankDocText(doc);
        const own = tokenizer(query.text, { text_pair: text, return_tensor: false });
        if (own.input_ids.length > 512) continue;
        const pair = fp32.encode(query.text, text);
        expect(pair.ids).toEqual(own.input_ids);
        expect(pair.typeIds).toEqual(own.token_type_ids);
        const q = tokenizer.encode(query.text, { add_special_tokens: false });
        const d = tokenizer.encode(text, { add_special_tokens: false });
        expect(pair.ids).toEqual([CLS, ...q, SEP, ...d, SEP]);
        expect(pair.typeIds).toEqual([...Array(q.length + 2).fill(0), ...Array(d.length + 1).fill(1)]);
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(60);
  });

  test('truncation cuts the document and keeps the whole query and the closing [SEP]', async () => {
    const model = await loadNodeCrossEncoder(resolveNodeReranker('local/tiny-cross-encoder'), { dtype: 'fp32', maxLength: 48 });
    try {
      const query = queries[0]!.text;
      const text = rerankDocText(docs[0]!);
      const q = tokenizer.encode(query, { add_special_tokens: false });
      const d = tokenizer.encode(text, { add_special_tokens: false });
      expect(d.length).toBeGreaterThan(48);
      const pair = model.encode(query, text);
      const kept = 48 - 3 - q.length;
      expect(pair.ids).toEqual([CLS, ...q, SEP, ...d.slice(0, kept), SEP]);
      expect(pair.docTokensCut).toBe(d.length - kept);
      expect(pair.queryTokensCut).toBe(0);
      // What the model scored is the cut pair: the full query's penalty, the kept document tokens only.
      const [score] = await model.score(query, [{ id: docs[0]!.id, text }]);
      expect(score).toBe(expectedLogit(pair.ids, pair.typeIds));
      expect(score).not.toBe(expectedLogit(...fullPair(q, d)));
    } finally {
      await model.dispose();
    }
  });
});

function fullPair(q: number[], d: number[]): [number[], number[]] {
  return [[CLS, ...q, SEP, ...d, SEP], [...Array(q.length + 2).fill(0), ...Array(d.length + 1).fill(1)]];
}

describe('scores', () => {
  test('equal the hand-computed function of the token ids, whatever the batch and padding (fp32 and q8)', async () => {
    for (const query of queries.slice(0, 4)) {
      const pairs = docs.map((doc) => ({ id: doc.id, text: rerankDocText(doc) }));
      const [byFive, byOne, quantized] = await Promise.all([
        fp32.score(query.text, pairs, { batchSize: 5 }),
        new OnePairPerCall(fp32).score(query.text, pairs),
        q8.score(query.text, pairs, { batchSize: 16 }),
      ]);
      pairs.forEach((pair, i) => {
        const encoded = fp32.encode(query.text, pair.text);
        const expected = expectedLogit(encoded.ids, encoded.typeIds);
        expect(byFive[i]).toBe(Math.fround(expected));
        expect(byOne[i]).toBe(byFive[i]);
        expect(quantized[i]).toBe(byFive[i]);
      });
      // A lexical-overlap score: not the same for every document.
      expect(new Set(byFive).size).toBeGreaterThan(10);
    }
  });

  test('the cache answers a pair seen before, per (model, query text, doc id)', async () => {
    const cache = new PairScoreCache();
    const model = await loadNodeCrossEncoder(resolveNodeReranker('local/tiny-cross-encoder'), { dtype: 'fp32', cache });
    try {
      const pairs = docs.slice(0, 12).map((doc) => ({ id: doc.id, text: rerankDocText(doc) }));
      const progress: number[] = [];
      const first = await model.score(queries[0]!.text, pairs);
      expect(cache.size).toBe(12);
      const again = await model.score(queries[0]!.text, pairs.slice(0, 6), { onProgress: (p) => progress.push(p.cached) });
      expect(Array.from(again)).toEqual(Array.from(first.slice(0, 6)));
      expect(progress).toEqual([6]);
      // Another query text is another key; so is a document id.
      await model.score(`${queries[0]!.text} `, pairs.slice(0, 2));
      expect(cache.size).toBe(14);
      // A poisoned entry shows the score came from the cache, not the model.
      cache.set(model.modelKey, queries[0]!.text, pairs[0]!.id, 42);
      expect((await model.score(queries[0]!.text, pairs.slice(0, 1)))[0]).toBe(42);
    } finally {
      await model.dispose();
    }
  });

  test('cancel: an abort between batches rejects with the AbortError and stops the batches', async () => {
    const model = await loadNodeCrossEncoder(resolveNodeReranker('local/tiny-cross-encoder'), { dtype: 'fp32', cache: false });
    try {
      const pairs = docs.map((doc) => ({ id: doc.id, text: rerankDocText(doc) }));
      const controller = new AbortController();
      const seen: number[] = [];
      const scoring = model.score(queries[1]!.text, pairs, {
        batchSize: 4,
        signal: controller.signal,
        onProgress: (p) => {
          seen.push(p.done);
          if (p.done >= 8) controller.abort(new DOMException('stop', 'AbortError'));
        },
      });
      await expect(scoring).rejects.toMatchObject({ name: 'AbortError' });
      expect(Math.max(...seen)).toBe(8);
      const aborted = AbortSignal.abort(new DOMException('before', 'AbortError'));
      await expect(model.score(queries[1]!.text, pairs, { signal: aborted })).rejects.toMatchObject({ name: 'AbortError' });
      // The session is still usable afterwards.
      expect((await model.score(queries[1]!.text, pairs.slice(0, 2))).length).toBe(2);
    } finally {
      await model.dispose();
    }
  });
});

/** Scores one pair per call (batch 1), so every row runs unpadded. */
class OnePairPerCall {
  constructor(private readonly model: CrossEncoder) {}
  async score(query: string, pairs: { id: string; text: string }[]): Promise<Float32Array> {
    const out = new Float32Array(pairs.length);
    for (const [i, pair] of pairs.entries()) out[i] = (await this.model.score(query, [pair], { batchSize: 1 }))[0]!;
    return out;
  }
}
