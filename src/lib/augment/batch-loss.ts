/**
 * The training loss of a batch and its gradients, written out by hand over Float32Arrays:
 *
 *   score(q, d) = Σₜ cₜ f(d)ₜ,  cₜ = wₜ vₜ (1 + aₜ) for a query term, vₜ aₜ for any other term
 *   a = ReLU(W e₀),  wᵢ = ReLU(uᵀ eᵢ),  e = scale · (mix of table rows) ⊕ 1
 *   L = mean over the batch of [ −log softmax(score)₊ + λ · sqrt(h)ᵀ a ]
 *
 * over each query's candidates: its positive, its hard negatives, and every other query's positive and
 * negatives (in-batch), leaving out documents judged relevant to it that are not its positive.
 */
import type { CorpusFeatures } from './corpus-features.ts';
import type { QueryEncoder, RowMix } from './encoder.ts';
import { dot, encodeMix, slotOf, type AugmentParams } from './model.ts';

/** A training query: its sentence mix and its terms that are in the vocabulary, with their mixes. */
export interface PreparedQuery {
  sentence: RowMix;
  termOrdinals: Int32Array;
  termMixes: RowMix[];
}

export interface TrainingExample {
  query: PreparedQuery;
  /** Document numbers of the index. */
  positive: number;
  negatives: readonly number[];
  /** Documents judged relevant to this query: never its negatives. */
  relevant: ReadonlySet<number>;
}

export interface Gradients {
  W: Float32Array;
  u: Float32Array;
  /** Of the trained rows (same layout as TrainedRows.values), when rows are trained. */
  rows?: Float32Array;
}

/** Sets every gradient back to zero (the arrays are reused from step to step). */
export function clearGradients(grads: Gradients): void {
  grads.W.fill(0);
  grads.u.fill(0);
  grads.rows?.fill(0);
}

export function zeroGradients(params: AugmentParams): Gradients {
  const grads: Gradients = { W: new Float32Array(params.W.length), u: new Float32Array(params.u.length) };
  if (params.rows !== undefined) grads.rows = new Float32Array(params.rows.values.length);
  return grads;
}

export interface LossContext {
  encoder: QueryEncoder;
  corpus: CorpusFeatures;
  lambda: number;
}

/** Buffers reused from batch to batch (the two B × V matrices dominate). */
export class BatchScratch {
  z = new Float32Array(0);
  g = new Float32Array(0);
  termSlot = new Int32Array(0);

  ensure(batch: number, vocab: number): void {
    if (this.z.length < batch * vocab) {
      this.z = new Float32Array(batch * vocab);
      this.g = new Float32Array(batch * vocab);
    }
    if (this.termSlot.length < vocab) this.termSlot = new Int32Array(vocab).fill(-1);
  }
}

/** The candidates of each example: positive first, then the batch's other documents it may be scored against. */
function candidatesOf(batch: readonly TrainingExample[]): number[][] {
  const pool = [...new Set(batch.flatMap((example) => [example.positive, ...example.negatives]))];
  return batch.map((example) => [example.positive, ...pool.filter((doc) => doc !== example.positive && !example.relevant.has(doc))]);
}

/** Adds `g · scale · coef` of `gradient` (length E at `offset`) into each trained row of `mix`. */
function backToRows(params: AugmentParams, grads: Gradients, mix: RowMix, gradient: Float32Array, offset: number): void {
  if (params.rows === undefined || grads.rows === undefined) return;
  const E = params.encoderDim;
  for (let i = 0; i < mix.rows.length; i++) {
    const slot = slotOf(params.rows, mix.rows[i]!);
    if (slot < 0) continue;
    const coef = mix.coefs[i]! * params.scale;
    for (let c = 0; c < E; c++) grads.rows[slot * E + c]! += coef * gradient[offset + c]!;
  }
}

/**
 * z = W e₀ for every query of the batch, term-major and four queries at a time, so each value of W is
 * loaded once per four products: this loop is most of a training step.
 */
export function forwardAugmentation(params: AugmentParams, e0: Float32Array, batch: number, z: Float32Array): void {
  const E = params.encoderDim;
  const D = E + 1;
  const V = params.terms.length;
  const { W } = params;
  const full = batch - (batch % 4);
  for (let t = 0; t < V; t++) {
    const base = t * D;
    for (let q = 0; q < full; q += 4) {
      const o0 = q * D;
      const o1 = o0 + D;
      const o2 = o1 + D;
      const o3 = o2 + D;
      let s0 = 0;
      let s1 = 0;
      let s2 = 0;
      let s3 = 0;
      for (let c = 0; c < D; c++) {
        const w = W[base + c]!;
        s0 += w * e0[o0 + c]!;
        s1 += w * e0[o1 + c]!;
        s2 += w * e0[o2 + c]!;
        s3 += w * e0[o3 + c]!;
      }
      z[q * V + t] = s0;
      z[(q + 1) * V + t] = s1;
      z[(q + 2) * V + t] = s2;
      z[(q + 3) * V + t] = s3;
    }
    for (let q = full; q < batch; q++) z[q * V + t] = dot(W, base, e0, q * D, D);
  }
}

/** One query's share of the loss; turns its row of `g` into dL/dz and adds its gradients of u and the term rows. */
function queryLoss(
  params: AugmentParams,
  ctx: LossContext,
  scratch: BatchScratch,
  example: TrainingExample,
  candidates: readonly number[],
  zRow: number,
  batchSize: number,
  grads: Gradients | undefined,
): number {
  const V = params.terms.length;
  const D = params.encoderDim + 1;
  const { idf, sqrtShare, starts, ordinals, tf } = ctx.corpus;
  const { z, g, termSlot } = scratch;
  const { termOrdinals, termMixes } = example.query;
  const n = termOrdinals.length;
  // eᵢ and wᵢ of the query's terms.
  const enc = new Float32Array(n * D);
  const y = new Float64Array(n);
  termMixes.forEach((mix, i) => {
    encodeMix(params, ctx.encoder, mix, enc, i * D);
    y[i] = dot(params.u, 0, enc, i * D, D);
    termSlot[termOrdinals[i]!] = i;
  });
  const coefficient = (t: number): number => {
    const a = Math.max(0, z[zRow + t]!);
    const slot = termSlot[t]!;
    return slot >= 0 ? Math.max(0, y[slot]!) * idf[t]! * (1 + a) : idf[t]! * a;
  };
  const scores = candidates.map((doc) => {
    let sum = 0;
    for (let s = starts[doc]!; s < starts[doc + 1]!; s++) sum += coefficient(ordinals[s]!) * tf[s]!;
    return sum;
  });
  const top = Math.max(...scores);
  const exps = scores.map((score) => Math.exp(score - top));
  const total = exps.reduce((sum, e) => sum + e, 0);
  let loss = top + Math.log(total) - scores[0]!;
  // dL/dc into g's row: Σ over candidates of (p − y) · f(d).
  g.fill(0, zRow, zRow + V);
  candidates.forEach((doc, j) => {
    const dScore = (exps[j]! / total - (j === 0 ? 1 : 0)) / batchSize;
    for (let s = starts[doc]!; s < starts[doc + 1]!; s++) g[zRow + ordinals[s]!]! += dScore * tf[s]!;
  });
  const lambdaShare = ctx.lambda / batchSize;
  for (let t = 0; t < V; t++) {
    const zt = z[zRow + t]!;
    const slot = termSlot[t]!;
    const dc = g[zRow + t]!;
    if (slot >= 0 && grads !== undefined) {
      // dL/dwᵢ = dc · v (1 + a), through ReLU to uᵀ eᵢ.
      const dy = y[slot]! > 0 ? dc * idf[t]! * (1 + Math.max(0, zt)) : 0;
      if (dy !== 0) {
        for (let c = 0; c < D; c++) grads.u[c]! += dy * enc[slot * D + c]!;
        const dEnc = new Float32Array(D);
        for (let c = 0; c < D; c++) dEnc[c] = dy * params.u[c]!;
        backToRows(params, grads, termMixes[slot]!, dEnc, 0);
      }
    }
    if (zt <= 0) {
      g[zRow + t] = 0;
      continue;
    }
    loss += ctx.lambda * sqrtShare[t]! * zt;
    const da = dc * (slot >= 0 ? Math.max(0, y[slot]!) * idf[t]! : idf[t]!) + lambdaShare * sqrtShare[t]!;
    g[zRow + t] = da;
  }
  for (let i = 0; i < n; i++) termSlot[termOrdinals[i]!] = -1;
  return loss;
}

/**
 * dW += gᵀ e₀ and de₀ = g W, term-major as the forward pass, over each term's queries with a gradient
 * only (after the first steps most terms have none); then de₀ reaches the trained rows.
 */
function backwardAugmentation(params: AugmentParams, batch: readonly TrainingExample[], e0: Float32Array, g: Float32Array, grads: Gradients): void {
  const E = params.encoderDim;
  const D = E + 1;
  const V = params.terms.length;
  const B = batch.length;
  const de0 = new Float32Array(B * D);
  const { W } = params;
  const wantRows = grads.rows !== undefined;
  const active = new Int32Array(B);
  const weights = new Float64Array(B);
  for (let t = 0; t < V; t++) {
    let n = 0;
    for (let q = 0; q < B; q++) {
      const gz = g[q * V + t]!;
      if (gz !== 0) {
        active[n] = q * D;
        weights[n++] = gz;
      }
    }
    if (n === 0) continue;
    const base = t * D;
    for (let c = 0; c < D; c++) {
      let sum = 0;
      for (let k = 0; k < n; k++) sum += weights[k]! * e0[active[k]! + c]!;
      grads.W[base + c]! += sum;
    }
    if (wantRows) for (let k = 0; k < n; k++) for (let c = 0; c < E; c++) de0[active[k]! + c]! += weights[k]! * W[base + c]!;
  }
  if (wantRows) batch.forEach((example, q) => backToRows(params, grads, example.query.sentence, de0, q * D));
}

/**
 * The batch's mean loss; with `grads`, their gradients are added to it (callers zero them per step). The
 * loss is computed in doubles, the parameters stay float32.
 */
export function batchLoss(params: AugmentParams, batch: readonly TrainingExample[], ctx: LossContext, scratch: BatchScratch, grads?: Gradients): number {
  const D = params.encoderDim + 1;
  const V = params.terms.length;
  const B = batch.length;
  scratch.ensure(B, V);
  const e0 = new Float32Array(B * D);
  batch.forEach((example, q) => encodeMix(params, ctx.encoder, example.query.sentence, e0, q * D, true));
  forwardAugmentation(params, e0, B, scratch.z);
  const candidates = candidatesOf(batch);
  let loss = 0;
  batch.forEach((example, q) => {
    loss += queryLoss(params, ctx, scratch, example, candidates[q]!, q * V, B, grads);
  });
  if (grads !== undefined) backwardAugmentation(params, batch, e0, scratch.g, grads);
  return loss / B;
}
