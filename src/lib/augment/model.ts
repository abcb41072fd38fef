/**
 * The parameters of the paper's eq. 1 and the vectors they make. Each encoding gets a constant 1 appended
 * (D = E + 1), so `u` and `W` carry a bias: at the start `u` is that bias alone (every w = 1) and W's bias
 * is 0, so the model ranks as plain BM25 plus W's small random augmentation. With enc(q)₀ centered (below),
 * W's bias is how the sparsity penalty switches a term off for every query.
 */
import type { QueryEncoder, RowMix } from './encoder.ts';
import { SeededRandom } from './rng.ts';

/** Table rows that are trained: their ids (ascending) and their current values. */
export interface TrainedRows {
  ids: Int32Array;
  /** [ids.length, E] row-major. */
  values: Float32Array;
}

export interface AugmentParams {
  /** E: the encoder's dimension (D = E + 1 with the bias). */
  encoderDim: number;
  /** The augmentation vocabulary: the training index's terms, in ordinal order. */
  terms: readonly string[];
  /** [terms, D] row-major: a(q) = ReLU(W enc(q)₀). */
  W: Float32Array;
  /** [D]: w(q)ᵢ = ReLU(uᵀ enc(q)ᵢ). */
  u: Float32Array;
  /** Scales every encoding (one constant, chosen at the start so query vectors have norm ≈ 1). */
  scale: number;
  /**
   * The training queries' mean sentence mix, subtracted from enc(q)₀ before scaling. Static word vectors
   * share a large common direction; uncentered, one step of W along it switches a term off for every
   * query at once, and a ReLU that is off for every query never learns again.
   */
  center?: Float32Array;
  rows?: TrainedRows;
}

/** Fresh parameters: `W` from N(0, initStd²) with a zero bias, `u` the bias alone. */
export function initialParams(terms: readonly string[], encoderDim: number, scale: number, seed: number, initStd: number, center?: Float32Array): AugmentParams {
  const dim = encoderDim + 1;
  const random = new SeededRandom(seed);
  const W = new Float32Array(terms.length * dim);
  for (let i = 0; i < W.length; i++) W[i] = i % dim === encoderDim ? 0 : random.normal() * initStd;
  const u = new Float32Array(dim);
  u[encoderDim] = 1;
  return { encoderDim, terms, W, u, scale, ...(center === undefined ? {} : { center }) };
}

/** The rows of `ids` copied from the table, to be trained. */
export function trainedRowsOf(encoder: QueryEncoder, ids: Iterable<number>): TrainedRows {
  const sorted = Int32Array.from(new Set(ids)).sort();
  const values = new Float32Array(sorted.length * encoder.dim);
  sorted.forEach((row, slot) => encoder.readRow(row, values, slot * encoder.dim));
  return { ids: sorted, values };
}

/** Where each trained row sits in `TrainedRows.values` (by binary search over its sorted ids). */
export function slotOf(rows: TrainedRows | undefined, row: number): number {
  if (rows === undefined) return -1;
  let low = 0;
  let high = rows.ids.length - 1;
  while (low <= high) {
    const mid = (low + high) >>> 1;
    const found = rows.ids[mid]!;
    if (found === row) return mid;
    if (found < row) low = mid + 1;
    else high = mid - 1;
  }
  return -1;
}

/**
 * scale · (Σ coef · row + vector) (trained rows where the model has them, the table's otherwise), then the
 * bias 1, into `out` (length D) at `offset`. A sentence (enc(q)₀) is centered first (`params.center`).
 */
export function encodeMix(params: AugmentParams, encoder: QueryEncoder, mix: RowMix, out: Float32Array, offset = 0, sentence = false): void {
  const E = params.encoderDim;
  const scratch = new Float32Array(E);
  const center = sentence ? params.center : undefined;
  for (let c = 0; c < E; c++) out[offset + c] = center === undefined ? 0 : -params.scale * center[c]!;
  const { vector } = mix;
  if (vector !== undefined) for (let c = 0; c < E; c++) out[offset + c]! += params.scale * vector[c]!;
  for (let i = 0; i < mix.rows.length; i++) {
    const row = mix.rows[i]!;
    const coef = mix.coefs[i]! * params.scale;
    const slot = slotOf(params.rows, row);
    const source = slot >= 0 ? params.rows!.values : scratch;
    const base = slot >= 0 ? slot * E : 0;
    if (slot < 0) encoder.readRow(row, scratch);
    for (let c = 0; c < E; c++) out[offset + c]! += coef * source[base + c]!;
  }
  out[offset + E] = 1;
}

/** Dot product of `a` at `ai` with `b` at `bi` over `n` values. */
export function dot(a: Float32Array, ai: number, b: Float32Array, bi: number, n: number): number {
  let sum = 0;
  for (let c = 0; c < n; c++) sum += a[ai + c]! * b[bi + c]!;
  return sum;
}
