/**
 * Query-augmentation models in Node: the encoder (a static table read from the model folder the page
 * serves, or a frozen transformer on onnxruntime-node through the dense code's session),
 * training on a dataset's split (with a dev split or a seeded held-out share of it), and model files on
 * disk. The commands `train-augment`, `eval`/`search --retriever augmented` and `augment-queries` use it.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Augmenter } from '../lib/augment/augmenter.ts';
import type { QueryEncoder } from '../lib/augment/encoder.ts';
import { EncoderChoiceError, openQueryEncoder, type EncoderSources } from '../lib/augment/encoder-loader.ts';
import { formatModelFile, modelRef, parseModelFile, type AugmentModel } from '../lib/augment/model-file.ts';
import { evaluableQueries as evaluableQueriesOf, trainOnSplits } from '../lib/augment/splits.ts';
import type { JudgedQueries, TrainHooks, TrainResult, TrainSettings } from '../lib/augment/train.ts';
import type { Analyzer } from '../lib/analysis/analyzer.ts';
import type { Bm25Index } from '../lib/bm25/bm25-index.ts';
import { judgedQueries } from '../lib/data/beir.ts';
import { loadTransformerSession } from '../lib/dense/embedder.ts';
import { configureModelSource } from '../lib/dense/model-source.ts';
import type { EmbeddingDtype } from '../lib/dense/registry.ts';
import { loadStaticTable } from '../lib/dense/static-table.ts';
import type { AugmenterRef, Bm25Settings } from '../lib/retrievers/config.ts';
import { CliError } from './cli-error.ts';
import type { Dataset } from './dataset.ts';
import { resolveNodeModel } from './dense.ts';

/**
 * The encoder `model` names, with the index's analyzer: a static table (its rows trainable), or a
 * transformer (frozen; `dtype` its weights, default the registry's). Hub models need the network.
 */
export async function loadQueryEncoder(model: string, analyzer: Analyzer, dtype?: EmbeddingDtype): Promise<QueryEncoder> {
  const resolved = resolveNodeModel(model);
  const sources: EncoderSources = {
    readTable: (spec) => loadStaticTable(`${join(resolved.localModelPath, spec.id)}/`, (path) => readFile(path)),
    openSession: (spec, wanted) => {
      configureModelSource(spec, { localModelPath: resolved.localModelPath });
      return loadTransformerSession({ spec, device: 'cpu', dtype: wanted });
    },
  };
  try {
    return await openQueryEncoder(resolved.spec, analyzer, sources, dtype);
  } catch (error) {
    if (error instanceof EncoderChoiceError) throw new CliError(`--encoder ${model}: ${error.message}`);
    throw error;
  }
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
  return { model, path, ref: modelRef(text, name, model) };
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

/** evaluableQueries of src/lib/augment/splits.ts, its refusal a command-line error. */
export function evaluableQueries(model: AugmentModel, collection: string, split: string, all: JudgedQueries): { queries: JudgedQueries; note?: string } {
  try {
    return evaluableQueriesOf(model, collection, split, all);
  } catch (error) {
    throw new CliError(error instanceof Error ? error.message : String(error));
  }
}

/** A split's judged queries. */
function judged(dataset: Dataset, split: string): JudgedQueries {
  const qrels = dataset.qrels.get(split);
  if (qrels === undefined) throw new CliError(`no qrels for split "${split}"`);
  return { queries: judgedQueries(dataset.queries, qrels), qrels };
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
  const { dataset, split, devSplit } = request;
  const all = judged(dataset, split);
  if (all.queries.length === 0) throw new CliError(`split "${split}" judges no query of ${dataset.name}`);
  const dev = devSplit === undefined ? undefined : { split: devSplit, judged: judged(dataset, devSplit) };
  return trainOnSplits(
    { collection: dataset.name, split, judged: all, ...(dev === undefined ? {} : { dev }), heldOutShare: request.heldOutShare },
    { index: request.index, bm25: request.bm25, encoder: request.encoder },
    request.settings,
    hooks,
  );
}
