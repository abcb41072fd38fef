/**
 * Query-augmentation models in Node: the encoder (a static table read from the model folder the page
 * serves, or a frozen transformer on onnxruntime-node through the dense code's session),
 * training on a dataset's split (with a dev split or a seeded held-out share of it), and model files on
 * disk. The commands `train-augment`, `eval`/`search --retriever augmented` and `augment-queries` use it.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Augmenter } from '../lib/augment/augmenter.ts';
import { StaticQueryEncoder, type QueryEncoder } from '../lib/augment/encoder.ts';
import { TransformerQueryEncoder } from '../lib/augment/transformer-encoder.ts';
import { formatModelFile, parseModelFile, type AugmentModel, type HeldOutSource } from '../lib/augment/model-file.ts';
import { SeededRandom } from '../lib/augment/rng.ts';
import { trainAugmenter, type JudgedQueries, type TrainHooks, type TrainResult, type TrainSettings } from '../lib/augment/train.ts';
import type { Analyzer } from '../lib/analysis/analyzer.ts';
import type { Bm25Index } from '../lib/bm25/bm25-index.ts';
import { judgedQueries } from '../lib/data/beir.ts';
import { fnv1a } from '../lib/data/fingerprint.ts';
import { loadTransformerSession } from '../lib/dense/embedder.ts';
import { configureModelSource } from '../lib/dense/model-source.ts';
import type { EmbeddingDtype } from '../lib/dense/registry.ts';
import { loadStaticTable } from '../lib/dense/static-table.ts';
import type { AugmenterRef, Bm25Settings } from '../lib/retrievers/config.ts';
import type { Qrels } from '../lib/types.ts';
import { CliError } from './cli-error.ts';
import type { Dataset } from './dataset.ts';
import { resolveNodeModel } from './dense.ts';

/**
 * The encoder `model` names, with the index's analyzer: a static table (its rows trainable), or a
 * transformer (frozen; `dtype` its weights, default the registry's). Hub models need the network.
 */
export async function loadQueryEncoder(model: string, analyzer: Analyzer, dtype?: EmbeddingDtype): Promise<QueryEncoder & { dispose?: () => Promise<void> }> {
  const resolved = resolveNodeModel(model);
  const { spec } = resolved;
  if (spec.kind === 'static-table') {
    const table = await loadStaticTable(`${join(resolved.localModelPath, spec.id)}/`, (path) => readFile(path));
    return new StaticQueryEncoder(spec.id, table, analyzer);
  }
  if (spec.kind !== 'transformer') throw new CliError(`--encoder ${model}: a ${spec.kind} model has no token states; use a static table (local/glove-100d-sif) or a transformer`);
  const wanted = dtype ?? spec.defaultDtype;
  if (!spec.dtypes.includes(wanted)) throw new CliError(`--encoder ${model}: no ${wanted} weights (has ${spec.dtypes.join(', ')})`);
  configureModelSource(spec, { localModelPath: resolved.localModelPath });
  const session = await loadTransformerSession({ spec, device: 'cpu', dtype: wanted });
  return TransformerQueryEncoder.open(spec.id, analyzer, session, wanted);
}

/** A model file read from disk, with the reference a retriever configuration holds. */
export interface LoadedModel {
  model: AugmentModel;
  ref: AugmenterRef;
  path: string;
}

export async function readModel(path: string): Promise<LoadedModel> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new CliError(`--augmenter ${path}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : String(error)}`);
  }
  let model: AugmentModel;
  try {
    model = parseModelFile(text, path);
  } catch (error) {
    throw new CliError(error instanceof Error ? error.message : String(error));
  }
  const name = path.split(/[\\/]/).pop()!;
  return { model, path, ref: { key: fnv1a(text), name, collection: model.training.collection, split: model.training.split } };
}

export async function writeModel(path: string, model: AugmentModel): Promise<void> {
  await writeFile(path, formatModelFile(model));
}

/** The model applied to queries, its encoder loaded with `analyzer` (which must be the model's). */
export async function augmenterOf(model: AugmentModel, analyzer: Analyzer): Promise<Augmenter> {
  if (analyzer.name !== model.bm25.analyzer) throw new CliError(`the model was trained over the ${model.bm25.analyzer} analyzer, not ${analyzer.name}`);
  const encoder = await loadQueryEncoder(model.encoderModel, analyzer, model.encoderDtype);
  if (encoder.dim !== model.params.encoderDim) throw new CliError(`${model.encoderModel} gives ${encoder.dim}-dimensional vectors; the model was trained on ${model.params.encoderDim}`);
  return new Augmenter(model.params, encoder);
}

/**
 * The queries of `split` a model may be evaluated on: all of them, or — when the model trained on this
 * split with a seeded share held out (a collection with one judged split) — that held-out share only,
 * drawn again from the model file's seed. Any other use of the training split (or of the dev split that
 * measured its epochs) is refused.
 */
export function evaluableQueries(model: AugmentModel, collection: string, split: string, all: JudgedQueries): { queries: JudgedQueries; note?: string } {
  const { training } = model;
  if (training.collection !== collection) return { queries: all };
  if (training.heldOut.kind === 'split' && training.heldOut.split === split) throw new CliError(`the model's epochs were measured on ${collection} ${split}: evaluate it on another split`);
  if (training.split !== split) return { queries: all };
  if (training.heldOut.kind !== 'share') throw new CliError(`the model was trained on ${collection} ${split}: evaluate it on another split`);
  const { heldOut } = holdOutShare(all, training.heldOut.share, training.settings.seed);
  return { queries: heldOut, note: `the ${heldOut.queries.length} queries of ${split} held out from training (share ${training.heldOut.share}, seed ${training.settings.seed})` };
}

/** A split's judged queries. */
function judged(dataset: Dataset, split: string): JudgedQueries {
  const qrels = dataset.qrels.get(split);
  if (qrels === undefined) throw new CliError(`no qrels for split "${split}"`);
  return { queries: judgedQueries(dataset.queries, qrels), qrels };
}

/** A seeded share of `all`'s queries held out (their judgments with them), the rest to train on. */
export function holdOutShare(all: JudgedQueries, share: number, seed: number): { train: JudgedQueries; heldOut: JudgedQueries } {
  const shuffled = new SeededRandom(seed).shuffled(all.queries);
  const count = Math.round(share * shuffled.length);
  const part = (queries: typeof shuffled): JudgedQueries => ({ queries, qrels: new Map(queries.map((q) => [q.id, all.qrels.get(q.id)!])) as Qrels });
  return { heldOut: part(shuffled.slice(0, count)), train: part(shuffled.slice(count)) };
}

export interface TrainRequest {
  dataset: Dataset;
  index: Bm25Index;
  bm25: Bm25Settings;
  encoder: QueryEncoder;
  split: string;
  /** A judged split measured after each epoch; absent: `heldOutShare` of the training split. */
  devSplit?: string;
  heldOutShare: number;
  settings: TrainSettings;
}

export async function trainOnDataset(request: TrainRequest, hooks: TrainHooks = {}): Promise<{ model: AugmentModel; result: TrainResult }> {
  const { dataset, split, devSplit, settings } = request;
  const all = judged(dataset, split);
  if (all.queries.length === 0) throw new CliError(`split "${split}" judges no query of ${dataset.name}`);
  const parts: { train: JudgedQueries; heldOut?: JudgedQueries } =
    devSplit !== undefined ? { train: all, heldOut: judged(dataset, devSplit) } : request.heldOutShare > 0 ? holdOutShare(all, request.heldOutShare, settings.seed) : { train: all };
  const heldOut: HeldOutSource =
    devSplit !== undefined
      ? { kind: 'split', split: devSplit, queries: parts.heldOut!.queries.length }
      : parts.heldOut !== undefined
        ? { kind: 'share', share: request.heldOutShare, queries: parts.heldOut.queries.length }
        : { kind: 'none' };
  const result = await trainAugmenter({ index: request.index, bm25: request.bm25, encoder: request.encoder, train: parts.train, ...(parts.heldOut === undefined ? {} : { heldOut: parts.heldOut }) }, settings, hooks);
  const model: AugmentModel = {
    bm25: request.bm25,
    encoderModel: request.encoder.id,
    ...(request.encoder instanceof TransformerQueryEncoder ? { encoderDtype: request.encoder.dtype } : {}),
    params: result.params,
    training: {
      collection: dataset.name,
      split,
      queries: result.examples,
      heldOut,
      settings,
      history: result.history.map(({ ms: _ms, ...epoch }) => epoch),
      ...(result.baseline === undefined ? {} : { baseline: result.baseline }),
    },
  };
  return { model, result };
}
