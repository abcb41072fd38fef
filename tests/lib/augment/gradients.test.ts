/** The hand-written gradients of batch-loss.ts against central finite differences of the loss. */
import { describe, expect, it } from 'vitest';
import { BatchScratch, batchLoss, zeroGradients, type PreparedQuery, type TrainingExample } from '../../../src/lib/augment/batch-loss.ts';
import { corpusFeatures } from '../../../src/lib/augment/corpus-features.ts';
import { initialParams, trainedRowsOf, type AugmentParams } from '../../../src/lib/augment/model.ts';
import { docOrdinal } from '../../../src/lib/bm25/bm25-index.ts';
import { createAnalyzer } from '../../../src/lib/analysis/analyzers.ts';
import { indexCorpus } from '../../../src/lib/bm25/bm25-corpus.ts';
import { StaticQueryEncoder, type RowMix } from '../../../src/lib/augment/encoder.ts';
import { QUERY_WORDS, syntheticTable } from './synthetic.ts';

/** Queries that share words with the documents, so w(q), a(q) and the rows all reach the loss. */
function setting(): { params: AugmentParams; batch: TrainingExample[]; ctx: Parameters<typeof batchLoss>[2] } {
  const words = QUERY_WORDS.slice(0, 8);
  const analyzer = createAnalyzer('standard');
  const docs = [
    { id: 'a', title: '', text: 'amber birch birch cobalt' },
    { id: 'b', title: '', text: 'dune ember amber' },
    { id: 'c', title: '', text: 'fjord garnet harbor cobalt dune' },
    { id: 'd', title: '', text: 'harbor birch ember ember' },
    { id: 'e', title: '', text: 'garnet amber fjord' },
  ];
  const index = indexCorpus(docs, analyzer);
  const encoder = new StaticQueryEncoder('synthetic', syntheticTable(words, 6, 3), analyzer);
  const corpus = corpusFeatures(index, { k1: 0.9, b: 0.4 });
  const ordinals = new Map(index.terms.map((term, t) => [term, t]));
  const prepare = (text: string): PreparedQuery => {
    const encoded = encoder.encode(text);
    return { sentence: encoded.sentence, termOrdinals: Int32Array.from(encoded.terms, (t) => ordinals.get(t)!), termMixes: encoded.termMixes };
  };
  const doc = (id: string) => docOrdinal(index, id);
  const batch: TrainingExample[] = [
    { query: prepare('amber birch'), positive: doc('a'), negatives: [doc('d')], relevant: new Set([doc('a')]) },
    { query: prepare('harbor fjord cobalt'), positive: doc('c'), negatives: [doc('e')], relevant: new Set([doc('c'), doc('b')]) },
    { query: prepare('ember dune'), positive: doc('b'), negatives: [doc('d')], relevant: new Set([doc('b')]) },
  ];
  const params = initialParams(index.terms, encoder.dim, 2, 5, 0.5, Float32Array.from({ length: encoder.dim }, (_, c) => 0.05 * Math.cos(c)));
  // Move u off its start so that w(q) depends on the rows.
  params.u.forEach((_, c) => (params.u[c] = 0.3 * Math.sin(c + 1) + (c === encoder.dim ? 1 : 0)));
  params.rows = trainedRowsOf(encoder, batch.flatMap((e) => [...e.query.sentence.rows]));
  return { params, batch, ctx: { encoder, corpus, lambda: 0.3 } };
}

/** Central difference of the loss along one value of `values`, restored after. */
function numeric(values: Float32Array, i: number, loss: () => number, h = 1e-3): number {
  const saved = values[i]!;
  values[i] = saved + h;
  const up = loss();
  values[i] = saved - h;
  const down = loss();
  values[i] = saved;
  return (up - down) / (2 * h);
}

describe('batchLoss gradients', () => {
  const { params, batch, ctx } = setting();
  const scratch = new BatchScratch();
  const grads = zeroGradients(params);
  batchLoss(params, batch, ctx, scratch, grads);
  const loss = () => batchLoss(params, batch, ctx, scratch);

  /** Each checked value: analytic and numeric agree to 2% of the larger, or to 1e-4 absolutely. */
  function expectClose(analytic: number, numerical: number, what: string): void {
    const tolerance = Math.max(1e-4, 0.02 * Math.max(Math.abs(analytic), Math.abs(numerical)));
    expect(Math.abs(analytic - numerical), `${what}: analytic ${analytic}, numeric ${numerical}`).toBeLessThanOrEqual(tolerance);
  }

  it("of W: every other entry of each term's row", () => {
    const D = params.encoderDim + 1;
    let checked = 0;
    for (let t = 0; t < params.terms.length; t++) {
      for (let c = 0; c < D; c += 2) {
        expectClose(grads.W[t * D + c]!, numeric(params.W, t * D + c, loss), `W[${params.terms[t]}][${c}]`);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(20);
    expect(grads.W.some((g) => g !== 0)).toBe(true);
  });

  it('of u', () => {
    for (let c = 0; c < params.u.length; c++) expectClose(grads.u[c]!, numeric(params.u, c, loss), `u[${c}]`);
    expect(grads.u.some((g) => g !== 0)).toBe(true);
  });

  it('of a static table row', () => {
    const rows = params.rows!;
    expect(rows.ids.length).toBeGreaterThan(2);
    for (let i = 0; i < rows.values.length; i++) expectClose(grads.rows![i]!, numeric(rows.values, i, loss), `row ${rows.ids[Math.floor(i / params.encoderDim)]}[${i % params.encoderDim}]`);
    expect(grads.rows!.some((g) => g !== 0)).toBe(true);
  });
});

describe('batchLoss gradients with a frozen encoder whose mixes carry their vectors (a transformer’s)', () => {
  const { params: withRows, batch: rowBatch, ctx } = setting();
  const params: AugmentParams = { ...withRows, rows: undefined };
  const row = new Float32Array(params.encoderDim);
  const asVector = (mix: RowMix): RowMix => {
    const vector = new Float32Array(params.encoderDim);
    mix.rows.forEach((r, i) => {
      ctx.encoder.readRow(r, row);
      for (let c = 0; c < vector.length; c++) vector[c]! += mix.coefs[i]! * row[c]!;
    });
    return { rows: new Int32Array(0), coefs: new Float32Array(0), vector };
  };
  const batch = rowBatch.map((example) => ({ ...example, query: { ...example.query, sentence: asVector(example.query.sentence), termMixes: example.query.termMixes.map(asVector) } }));
  const scratch = new BatchScratch();
  const grads = zeroGradients(params);
  const lossValue = batchLoss(params, batch, ctx, scratch, grads);
  const loss = () => batchLoss(params, batch, ctx, scratch);

  it('gives the loss of the same vectors as table-row mixes', () => {
    expect(lossValue).toBeCloseTo(batchLoss(params, rowBatch, ctx, new BatchScratch()), 5);
  });

  it('of W and u', () => {
    const D = params.encoderDim + 1;
    const close = (analytic: number, numerical: number, what: string) =>
      expect(Math.abs(analytic - numerical), `${what}: analytic ${analytic}, numeric ${numerical}`).toBeLessThanOrEqual(Math.max(1e-4, 0.02 * Math.max(Math.abs(analytic), Math.abs(numerical))));
    for (let t = 0; t < params.terms.length; t++) for (let c = 1; c < D; c += 2) close(grads.W[t * D + c]!, numeric(params.W, t * D + c, loss), `W[${params.terms[t]}][${c}]`);
    for (let c = 0; c < D; c++) close(grads.u[c]!, numeric(params.u, c, loss), `u[${c}]`);
    expect(grads.W.some((g) => g !== 0) && grads.u.some((g) => g !== 0)).toBe(true);
    expect(grads.rows).toBeUndefined();
  });
});
