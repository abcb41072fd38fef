/**
 * Training a query-augmentation model on a collection's judged split: BM25-mined hard negatives plus
 * in-batch negatives, the contrastive loss with the sparsity penalty (batch-loss.ts), AdamW, one seed for
 * everything random. After each epoch the held-out queries are ranked through `rankBatch` and measured.
 */
import type { Bm25Index } from '../bm25/bm25-index.ts';
import { docOrdinal } from '../bm25/bm25-index.ts';
import { evaluate } from '../eval/evaluate.ts';
import type { AugmenterRef, Bm25Settings } from '../retrievers/config.ts';
import { rankBatch } from '../retrievers/rank.ts';
import type { Qrels, Query, Run } from '../types.ts';
import { AdamW } from './adamw.ts';
import { Augmenter } from './augmenter.ts';
import { BatchScratch, batchLoss, clearGradients, zeroGradients, type Gradients, type PreparedQuery, type TrainingExample } from './batch-loss.ts';
import { corpusFeatures } from './corpus-features.ts';
import type { EncodedQuery, QueryEncoder } from './encoder.ts';
import { AugmentIndexSearch } from './index-search.ts';
import { mineHardNegatives } from './mining.ts';
import { initialParams, trainedRowsOf, type AugmentParams } from './model.ts';
import { SeededRandom } from './rng.ts';

export interface TrainSettings {
  epochs: number;
  /** Queries per step (the paper: 144). */
  batchSize: number;
  lr: number;
  /** λ of the sparsity penalty (the paper: 0.1). */
  lambda: number;
  /** AdamW's decoupled weight decay of W (u and table rows are not decayed: rows would shrink toward zero). */
  weightDecay: number;
  /** Hard negatives per query and step (the paper: 1), drawn from the top `mineDepth` BM25 non-relevant documents. */
  hardNegatives: number;
  mineDepth: number;
  seed: number;
  /** Train the static table's rows of the training queries' words too (end to end), or keep the encoder frozen (a transformer always is). */
  trainRows: boolean;
  /** Standard deviation of W's initial values. */
  initStd: number;
}

export const DEFAULT_TRAIN_SETTINGS: Readonly<TrainSettings> = Object.freeze({
  epochs: 10,
  batchSize: 144,
  lr: 1e-3,
  lambda: 0.1,
  weightDecay: 0.01,
  hardNegatives: 1,
  mineDepth: 10,
  seed: 1,
  trainRows: false,
  initStd: 0.01,
});

export interface JudgedQueries {
  queries: readonly Query[];
  qrels: Qrels;
}

export interface TrainData {
  index: Bm25Index;
  /** k1, b and the analyzer of the index (the encoder's analyzer must be that one). */
  bm25: Bm25Settings;
  /** A static table or a frozen transformer (its training queries are encoded once, in batches). */
  encoder: QueryEncoder;
  train: JudgedQueries;
  /** Measured after each epoch (a dev split or a held-out share of train); absent: no measure. */
  heldOut?: JudgedQueries;
}

export interface HeldOutMeasure {
  ndcg_cut_10: number;
  recall_100: number;
  /** Mean terms of the weighted queries. */
  terms_per_query: number;
}

export interface EpochReport {
  epoch: number;
  /** Mean batch loss over the epoch (rank loss + λ · penalty). */
  loss: number;
  heldOut?: HeldOutMeasure;
  ms: number;
}

export interface TrainHooks {
  /** After every step; awaited, so a worker can yield there and notice a Cancel. */
  onStep?: (step: number, steps: number, loss: number) => void | Promise<void>;
  onEpoch?: (report: EpochReport) => void;
  /** Plain BM25's held-out measure, before the first step (the baseline a chart draws the epochs against). */
  onBaseline?: (baseline: HeldOutMeasure) => void;
  signal?: AbortSignal;
}

export interface TrainResult {
  params: AugmentParams;
  history: EpochReport[];
  /** The held-out measure of plain BM25 (epoch 0's reference). */
  baseline?: HeldOutMeasure;
  /** Training queries that had a judged relevant document in the index. */
  examples: number;
  trainMs: number;
}

interface QueryData {
  prepared: PreparedQuery;
  positives: number[];
  relevant: Set<number>;
}

/** Relevant (grade > 0) documents of each query that the index holds, as document numbers. */
function relevantDocs(index: Bm25Index, qrels: Qrels, query: Query): Set<number> {
  const docs = new Set<number>();
  for (const [docId, grade] of qrels.get(query.id) ?? []) {
    const doc = docOrdinal(index, docId);
    if (grade > 0 && doc >= 0) docs.add(doc);
  }
  return docs;
}

function prepare(ordinals: ReadonlyMap<string, number>, encoded: EncodedQuery): PreparedQuery {
  const kept = encoded.terms.map((term, i) => [ordinals.get(term) ?? -1, i] as const).filter(([t]) => t >= 0);
  return { sentence: encoded.sentence, termOrdinals: Int32Array.from(kept, ([t]) => t), termMixes: kept.map(([, i]) => encoded.termMixes[i]!) };
}

/** The mix as one vector: its fixed vector (a transformer's) plus its table rows. */
function mixVector(encoder: QueryEncoder, mix: PreparedQuery['sentence'], row: Float32Array): Float64Array {
  const vector = Float64Array.from(mix.vector ?? new Float32Array(encoder.dim));
  mix.rows.forEach((r, i) => {
    encoder.readRow(r, row);
    for (let c = 0; c < encoder.dim; c++) vector[c]! += mix.coefs[i]! * row[c]!;
  });
  return vector;
}

/** The training queries' mean sentence vector (the center), and one over their mean norm around it (the scale). */
function encodingFrame(encoder: QueryEncoder, queries: readonly PreparedQuery[]): { center: Float32Array; scale: number } {
  const row = new Float32Array(encoder.dim);
  const vectors = queries.map(({ sentence }) => mixVector(encoder, sentence, row));
  const center = new Float32Array(encoder.dim);
  for (const vector of vectors) for (let c = 0; c < encoder.dim; c++) center[c]! += vector[c]! / vectors.length;
  let sum = 0;
  for (const vector of vectors) sum += Math.hypot(...vector.map((x, c) => x - center[c]!));
  return { center, scale: sum === 0 ? 1 : vectors.length / sum };
}

/** Draws `n` distinct items of `from` (all when fewer); random documents stand in when BM25 found none. */
function sample(random: SeededRandom, from: readonly number[], n: number, numDocs: number, avoid: ReadonlySet<number>): number[] {
  if (from.length === 0) {
    const picked: number[] = [];
    for (let tries = 0; picked.length < n && tries < 10 * n + 10; tries++) {
      const doc = random.below(numDocs);
      if (!avoid.has(doc) && !picked.includes(doc)) picked.push(doc);
    }
    return picked;
  }
  return random.shuffled(from).slice(0, n);
}

/** Held-out nDCG@10 and R@100 of a model, ranked as an Augmented BM25 column (rankBatch). */
export async function measureHeldOut(index: Bm25Index, augmenter: Augmenter, bm25: Bm25Settings, heldOut: JudgedQueries): Promise<HeldOutMeasure> {
  const ref: AugmenterRef = { key: 'training', name: 'training', collection: '', split: '' };
  const search = new AugmentIndexSearch(index, augmenter.encoder.analyzer, new Map([[ref.key, augmenter]]));
  const config = { kind: 'augmented' as const, bm25, augmenter: ref };
  const rankings = await rankBatch(search, config, heldOut.queries, { form: 'parts', depth: 100 });
  const run: Run = new Map();
  let terms = 0;
  heldOut.queries.forEach((query, i) => {
    const ranking = rankings[i];
    run.set(query.id, ranking?.hits.map(({ docId, score }) => ({ docId, score })) ?? []);
    if (ranking?.kind === 'augmented') terms += ranking.expanded.length;
  });
  const result = evaluate(heldOut.qrels, run, { measures: ['ndcg_cut.10', 'recall.100'], complete: true });
  return { ndcg_cut_10: result.all['ndcg_cut_10']!, recall_100: result.all['recall_100']!, terms_per_query: terms / Math.max(1, heldOut.queries.length) };
}

function stepAll(params: AugmentParams, grads: Gradients, optimizers: { W: AdamW; u: AdamW; rows?: AdamW }): void {
  optimizers.W.step(params.W, grads.W);
  optimizers.u.step(params.u, grads.u);
  if (optimizers.rows !== undefined && params.rows !== undefined && grads.rows !== undefined) optimizers.rows.step(params.rows.values, grads.rows);
}

export async function trainAugmenter(data: TrainData, settings: TrainSettings, hooks: TrainHooks = {}): Promise<TrainResult> {
  const started = performance.now();
  const { index, encoder, bm25 } = data;
  const corpus = corpusFeatures(index, bm25);
  const ordinals = new Map(index.terms.map((term, t) => [term, t]));
  if (settings.trainRows && !encoder.trainableRows) throw new Error(`${encoder.id} is a frozen encoder: only a static table's rows can be trained`);
  const judged = data.train.queries.map((query) => ({ query, relevant: relevantDocs(index, data.train.qrels, query) })).filter(({ relevant }) => relevant.size > 0);
  if (judged.length === 0) throw new Error('no training query has a judged relevant document in the collection');
  const kept: Query[] = judged.map(({ query }) => query);
  const encoded = await encoder.encodeMany(kept.map((query) => query.text), hooks.signal);
  const queries: QueryData[] = judged.map(({ relevant }, i) => ({ prepared: prepare(ordinals, encoded[i]!), positives: [...relevant], relevant }));
  const negatives = mineHardNegatives(index, encoder.analyzer, bm25, kept, queries.map((q) => q.relevant), settings.mineDepth);
  const { center, scale } = encodingFrame(encoder, queries.map((q) => q.prepared));
  const params = initialParams(index.terms, encoder.dim, scale, settings.seed, settings.initStd, center);
  if (settings.trainRows) params.rows = trainedRowsOf(encoder, queries.flatMap((q) => [q.prepared.sentence, ...q.prepared.termMixes].flatMap((mix) => [...mix.rows])));
  const optimizers = {
    W: new AdamW(params.W.length, { lr: settings.lr, weightDecay: settings.weightDecay }),
    u: new AdamW(params.u.length, { lr: settings.lr }),
    ...(params.rows === undefined ? {} : { rows: new AdamW(params.rows.values.length, { lr: settings.lr }) }),
  };
  const random = new SeededRandom(settings.seed + 1);
  const scratch = new BatchScratch();
  const ctx = { encoder, corpus, lambda: settings.lambda };
  const augmenter = new Augmenter(params, encoder);
  const baseline = data.heldOut === undefined ? undefined : await measureHeldOut(index, withoutAugmentation(augmenter), bm25, data.heldOut);
  if (baseline !== undefined) hooks.onBaseline?.(baseline);
  const stepsPerEpoch = Math.ceil(queries.length / settings.batchSize);
  const grads = zeroGradients(params);
  const history: EpochReport[] = [];
  let step = 0;
  for (let epoch = 1; epoch <= settings.epochs; epoch++) {
    const epochStart = performance.now();
    const order = random.shuffled(queries.map((_, i) => i));
    let lossSum = 0;
    for (let start = 0; start < order.length; start += settings.batchSize) {
      hooks.signal?.throwIfAborted();
      const batch = order.slice(start, start + settings.batchSize).map((i): TrainingExample => {
        const q = queries[i]!;
        const positive = q.positives[random.below(q.positives.length)]!;
        return { query: q.prepared, positive, negatives: sample(random, negatives[i]!, settings.hardNegatives, index.docIds.length, q.relevant), relevant: q.relevant };
      });
      clearGradients(grads);
      const loss = batchLoss(params, batch, ctx, scratch, grads);
      stepAll(params, grads, optimizers);
      lossSum += loss;
      await hooks.onStep?.(++step, stepsPerEpoch * settings.epochs, loss);
    }
    const heldOut = data.heldOut === undefined ? undefined : await measureHeldOut(index, augmenter, bm25, data.heldOut);
    const report: EpochReport = { epoch, loss: lossSum / stepsPerEpoch, ...(heldOut === undefined ? {} : { heldOut }), ms: performance.now() - epochStart };
    history.push(report);
    hooks.onEpoch?.(report);
  }
  return { params, history, ...(baseline === undefined ? {} : { baseline }), examples: queries.length, trainMs: performance.now() - started };
}

/** The same encoder with W = 0 and u the bias alone: plain BM25 over the query's terms (weights 1). */
function withoutAugmentation(augmenter: Augmenter): Augmenter {
  const { params } = augmenter;
  const u = new Float32Array(params.u.length);
  u[params.encoderDim] = 1;
  return new Augmenter({ ...params, W: new Float32Array(params.W.length), u, rows: undefined }, augmenter.encoder);
}
