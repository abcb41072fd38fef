/**
 * `train-augment`: learns a BM25 query-augmentation model (the paper's eq. 1) on a dataset's judged split
 * and writes its model file.
 *
 *   npm run -s cli -- train-augment --dataset D --split train --encoder local/glove-100d-sif
 *       --analyzer english|wordpiece|polish --out model.json [--epochs N] [--seed S] [--lambda L]
 *       [--dev-split dev] [--json]
 */
import type { Bm25AnalyzerName } from '../lib/analysis/analyzers.ts';
import { ANSERINI_BM25_PARAMS } from '../lib/bm25/bm25-similarity.ts';
import { DEFAULT_TRAIN_SETTINGS, type TrainSettings } from '../lib/augment/train.ts';
import type { EmbeddingDtype } from '../lib/dense/registry.ts';
import { cliAnalyzerNames, isCliAnalyzerName } from './analyzer.ts';
import { loadQueryEncoder, trainOnDataset, writeModel } from './augment-model.ts';
import { CliError } from './cli-error.ts';
import { numberOption, parseFlags, positiveInteger } from './flags.ts';
import type { CliIo } from './cli-io.ts';
import { loadDataset, type Dataset } from './dataset.ts';
import { DEFAULT_DENSE_MODEL } from './dense.ts';
import type { QueryEncoder } from '../lib/augment/encoder.ts';
import type { Bm25Index } from '../lib/bm25/bm25-index.ts';
import { NodeSearch } from './node-search.ts';

const OPTIONS = {
  dataset: { type: 'string' },
  split: { type: 'string', default: 'train' },
  'dev-split': { type: 'string' },
  'held-out': { type: 'string', default: '0.1' },
  encoder: { type: 'string', default: DEFAULT_DENSE_MODEL },
  'encoder-dtype': { type: 'string' },
  analyzer: { type: 'string', default: 'english' },
  out: { type: 'string' },
  epochs: { type: 'string' },
  seed: { type: 'string' },
  lambda: { type: 'string' },
  lr: { type: 'string' },
  'batch-size': { type: 'string' },
  'hard-negatives': { type: 'string' },
  'train-rows': { type: 'boolean', default: false },
  k1: { type: 'string' },
  b: { type: 'string' },
  json: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

const D = DEFAULT_TRAIN_SETTINGS;
const USAGE = `usage: npm run -s cli -- train-augment --dataset <path | name> --out model.json [options]
  --dataset <path|name>   any dataset eval reads, with judgments for --split
  --split <name>          the judged split trained on (default train)
  --dev-split <name>      a judged split measured after each epoch (default: a held-out share of --split)
  --held-out <share>      without --dev-split: the share of --split held out, seeded (default 0.1; 0: none)
  --encoder <id>          a static table (default ${DEFAULT_DENSE_MODEL}), frozen unless --train-rows, or a
                          transformer (local/tiny-bert offline, a hub id such as Xenova/all-MiniLM-L6-v2), frozen
  --encoder-dtype <t>     a transformer's weights: fp32 | fp16 | q8 (default: the registry's)
  --train-rows            also train the static table's rows of the training queries' words (end to end)
  --analyzer <name>       ${cliAnalyzerNames.join(' | ')} (default english): the index's, and the model's vocabulary
  --epochs <n>            (default ${D.epochs})   --seed <n> (default ${D.seed})   --lambda <n> sparsity penalty (default ${D.lambda})
  --lr <n>                AdamW learning rate (default ${D.lr})   --batch-size <n> (default ${D.batchSize})
  --hard-negatives <n>    BM25-mined negatives per query and step (default ${D.hardNegatives}, of the top ${D.mineDepth})
  --k1 <n> --b <n>        BM25 parameters (default 0.9, 0.4)
  --out <file>            the model file to write (JSON)
  --json                  print the training report as one JSON object`;

function encoderDtypeOf(value: string | undefined): EmbeddingDtype | undefined {
  if (value !== undefined && value !== 'fp32' && value !== 'fp16' && value !== 'q8') throw new CliError(`--encoder-dtype ${value}: expected fp32, fp16 or q8`);
  return value;
}

function parseTrainArgs(args: string[]) {
  const parsed = parseFlags(args, OPTIONS);
  const v = parsed.values;
  if (v.help) return undefined;
  if (v.dataset === undefined) throw new CliError('--dataset <path | name> is required (try --help)');
  if (v.out === undefined) throw new CliError('--out <model.json> is required (try --help)');
  if (!isCliAnalyzerName(v.analyzer)) throw new CliError(`--analyzer ${v.analyzer}: expected one of ${cliAnalyzerNames.join(', ')}`);
  if (v['dev-split'] === v.split) throw new CliError(`--dev-split ${v.split}: the held-out measure needs a split other than the one trained on`);
  const settings: TrainSettings = {
    ...D,
    epochs: numberOption('epochs', v.epochs, positiveInteger, 'a positive integer') ?? D.epochs,
    seed: numberOption('seed', v.seed, Number.isInteger, 'an integer') ?? D.seed,
    lambda: numberOption('lambda', v.lambda, (n) => n >= 0, 'a number ≥ 0') ?? D.lambda,
    lr: numberOption('lr', v.lr, (n) => n > 0, 'a number > 0') ?? D.lr,
    batchSize: numberOption('batch-size', v['batch-size'], positiveInteger, 'a positive integer') ?? D.batchSize,
    hardNegatives: numberOption('hard-negatives', v['hard-negatives'], (n) => Number.isInteger(n) && n >= 0, 'an integer ≥ 0') ?? D.hardNegatives,
    trainRows: v['train-rows'],
  };
  return {
    dataset: v.dataset,
    split: v.split,
    devSplit: v['dev-split'],
    heldOut: numberOption('held-out', v['held-out'], (n) => n >= 0 && n < 1, 'a share from 0 to below 1')!,
    encoder: v.encoder,
    encoderDtype: encoderDtypeOf(v['encoder-dtype']),
    bm25: {
      k1: numberOption('k1', v.k1, (n) => n >= 0, 'a number ≥ 0') ?? ANSERINI_BM25_PARAMS.k1,
      b: numberOption('b', v.b, (n) => n >= 0 && n <= 1, 'a number between 0 and 1') ?? ANSERINI_BM25_PARAMS.b,
      analyzer: v.analyzer as Bm25AnalyzerName,
    },
    out: v.out,
    json: v.json,
    settings,
  };
}

export async function trainAugmentCommand(args: string[], io: CliIo): Promise<void> {
  const options = parseTrainArgs(args);
  if (options === undefined) {
    io.out(`${USAGE}\n`);
    return;
  }
  const progress = (message: string) => io.err(`${message}\n`);
  const splits = options.devSplit === undefined ? [options.split] : [options.split, options.devSplit];
  const dataset = await loadDataset(options.dataset, { splits });
  const search = new NodeSearch(dataset.docs, { progress });
  const { analyzer, index } = await search.openLexical(options.bm25.analyzer);
  const encoder = await loadQueryEncoder(options.encoder, analyzer, options.encoderDtype);
  try {
    await trainAndWrite(options, dataset, index, encoder, io);
  } finally {
    await encoder.dispose?.();
  }
}

async function trainAndWrite(
  options: NonNullable<ReturnType<typeof parseTrainArgs>>,
  dataset: Dataset,
  index: Bm25Index,
  encoder: QueryEncoder,
  io: CliIo,
): Promise<void> {
  const progress = (message: string) => io.err(`${message}\n`);
  if (options.settings.trainRows && !encoder.trainableRows) throw new CliError(`--train-rows: ${encoder.id} is a transformer, used frozen; only a static table's rows can be trained`);
  progress(`train-augment: ${dataset.name} ${options.split}, ${index.terms.length} terms, encoder ${encoder.id}${options.settings.trainRows ? ' (rows trained)' : ' (frozen)'}`);
  const { model, result } = await trainOnDataset(
    { dataset, index, bm25: options.bm25, encoder, split: options.split, ...(options.devSplit === undefined ? {} : { devSplit: options.devSplit }), heldOutShare: options.heldOut, settings: options.settings },
    {
      onEpoch: (r) =>
        progress(
          `epoch ${r.epoch}: loss ${r.loss.toFixed(4)}` +
            (r.heldOut === undefined ? '' : `, held-out nDCG@10 ${r.heldOut.ndcg_cut_10.toFixed(4)}, R@100 ${r.heldOut.recall_100.toFixed(4)}, ${r.heldOut.terms_per_query.toFixed(1)} terms/query`) +
            ` (${(r.ms / 1000).toFixed(1)} s)`,
        ),
    },
  );
  await writeModel(options.out, model);
  const report = {
    dataset: dataset.name,
    split: options.split,
    held_out: model.training.heldOut,
    encoder: encoder.id,
    trained_rows: options.settings.trainRows,
    analyzer: options.bm25.analyzer,
    queries: result.examples,
    settings: options.settings,
    baseline: result.baseline,
    history: result.history,
    train_ms: result.trainMs,
    out: options.out,
  };
  if (options.json) {
    io.out(`${JSON.stringify(report)}\n`);
    return;
  }
  io.out(`# ${dataset.name} ${options.split}: ${result.examples} queries; ${encoder.id}; ${options.settings.epochs} epochs in ${(result.trainMs / 1000).toFixed(1)} s\n`);
  if (result.baseline !== undefined) io.out(`held-out BM25 (w = 1, a = 0)\tnDCG@10 ${result.baseline.ndcg_cut_10.toFixed(4)}\tR@100 ${result.baseline.recall_100.toFixed(4)}\n`);
  for (const r of result.history) {
    io.out(`epoch ${r.epoch}\tloss ${r.loss.toFixed(4)}${r.heldOut === undefined ? '' : `\tnDCG@10 ${r.heldOut.ndcg_cut_10.toFixed(4)}\tR@100 ${r.heldOut.recall_100.toFixed(4)}\tterms ${r.heldOut.terms_per_query.toFixed(1)}`}\n`);
  }
  io.out(`wrote ${options.out}\n`);
}
