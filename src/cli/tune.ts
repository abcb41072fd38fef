/**
 * `tune`: a retriever's parameters searched on a tuning split (train or dev, never the evaluated one) for
 * the best value of one trec_eval measure. Each grid point is the configuration `eval` ranks for the same
 * flags, ranked by the same `rankBatch` and measured by the same trec_eval (src/lib/tuning), so a point's
 * value is what `eval` prints for it on that split.
 *
 *   npm run -s cli -- tune --dataset <path | name> --split train --retriever convex --grid alpha=0:1:0.1
 *       [--grid k1=0.5:1.5:0.1 --grid b=0.2:1:0.1] [--metric ndcg_cut_10] [--eval-split test] [--json]
 */
import { judgedQueries } from '../lib/data/beir.ts';
import type { TunedPoint } from '../lib/tuning/best.ts';
import { GridError, gridSize, parseGridAxis, type GridAxis, type GridParams } from '../lib/tuning/grid.ts';
import { DEFAULT_TUNE_METRIC } from '../lib/tuning/metric.ts';
import { DEFAULT_MAX_POINTS, strategyFor, type SearchStrategy } from '../lib/tuning/strategy.ts';
import { SplitError } from '../lib/tuning/split-guard.ts';
import { checkTuneRequest, tune, type TuneResult } from '../lib/tuning/tune.ts';
import type { CliIo } from './cli-io.ts';
import { CliError } from './cli-error.ts';
import { loadDataset } from './dataset.ts';
import { cliMetric, EVAL_OPTIONS, retrieverSettings } from './eval.ts';
import { numberOption, parseFlags, positiveInteger } from './flags.ts';
import { NodeSearch } from './node-search.ts';
import { ledrLexical, retrieverConfig, type RetrieverName } from './retrievers.ts';
import { tuneWsumCommand } from './tune-wsum.ts';
import { quote } from './shell-quote.ts';
import { loadImportedVectors, VECTOR_USAGE, vectorFileFlags } from './vector-files.ts';

const { 'run-out': _runOut, ...RETRIEVER_OPTIONS } = EVAL_OPTIONS;

export const TUNE_OPTIONS = {
  ...RETRIEVER_OPTIONS,
  split: { type: 'string', default: 'train' },
  'eval-split': { type: 'string', default: 'test' },
  grid: { type: 'string', multiple: true },
  metric: { type: 'string', default: DEFAULT_TUNE_METRIC },
  'max-points': { type: 'string', default: String(DEFAULT_MAX_POINTS) },
  strategy: { type: 'string' },
  step: { type: 'string', default: '0.1' },
} as const;

/** Flags of `tune` that `eval` does not take (left out of the printed `eval` command). */
const TUNE_ONLY = new Set(['split', 'eval-split', 'grid', 'metric', 'max-points', 'strategy', 'step', 'json', 'help']);

const TUNABLE_RETRIEVERS: readonly RetrieverName[] = ['bm25', 'rm3', 'bo1', 'dense', 'ledr', 'rrf', 'convex'];

const USAGE = `usage: npm run -s cli -- tune --dataset <path | name> --retriever <name> --grid name=from:to:step [options]
  --split <name>            the tuning split (default train); never the evaluated one
  --eval-split <name>       the split that will be reported (default test): tuning on it is refused
  --retriever <name>        ${TUNABLE_RETRIEVERS.join(' | ')} | wsum
  --grid name=from:to:step  a parameter and its values (also name=v1,v2,… or name=v); repeat for a grid of
                            several. Names are eval's flags: alpha (convex), k (RRF's k, LEDR's K),
                            k1, b, fb-terms, fb-docs, orig-weight (rm3), ef-search (dense with --search hnsw)
  --metric <measure>        the trec_eval measure maximized, as printed (ndcg_cut_10, map, P_10, recall_100…)
                            or as -m takes it (ndcg_cut.10); trec_eval -c over the split (default ndcg_cut_10)
  --max-points <n>          grids up to n points are evaluated point by point (default ${DEFAULT_MAX_POINTS}); larger
                            ones by coordinate search from the flags' values (one axis at a time, until stable)
  --strategy grid|coordinate  force the search
  wsum: the weights of N runs (--fuse bm25,dense,… and/or --fuse-run <file>, as eval takes them), every
                            combination of 0, step, …, 1 summing to 1.0 as ranx's optimize_fusion tries them
                            (params w1…wN in input order); --step <s> (default 0.1) instead of --grid
  --json                    print {"best": {params, value}, "points": [...], ...}
${VECTOR_USAGE.replace('every evaluated query', 'every query of the tuning split')}
  every other flag of eval (--k1, --b, --model, --alpha, --normalization, --fb-terms, …) sets what is not tuned`;

/** The eval flag of a grid parameter. */
function flagOf(retriever: RetrieverName, name: string): string {
  if (name === 'k') return retriever === 'ledr' ? 'ledr-k' : 'rrf-k';
  return name;
}

/** `rrf-k` and `ledr-k` (eval's names) are the `k` of their retriever. */
function axisOf(text: string, retriever: RetrieverName): GridAxis {
  try {
    const axis = parseGridAxis(text);
    const alias = (retriever === 'rrf' && axis.name === 'rrf-k') || (retriever === 'ledr' && axis.name === 'ledr-k');
    return alias ? { ...axis, name: 'k' } : axis;
  } catch (error) {
    throw new CliError(`--grid ${error instanceof Error ? error.message : String(error)}`);
  }
}

function strategyOption(text: string | undefined): SearchStrategy | undefined {
  if (text === undefined || text === 'grid' || text === 'coordinate') return text;
  throw new CliError(`--strategy ${text}: expected grid or coordinate`);
}

/** The `eval` command that evaluates `params` on `split`: the user's retriever flags, the tuned ones set. */
function evalCommandLine(tokens: ReadonlyArray<{ kind: string; name?: string; value?: string | undefined }>, retriever: RetrieverName, params: GridParams, split: string): string {
  const tuned = new Set(Object.keys(params).map((name) => flagOf(retriever, name)));
  const kept = tokens.flatMap((token) =>
    token.kind === 'option' && token.name !== undefined && !TUNE_ONLY.has(token.name) && !tuned.has(token.name) ? [`--${token.name}`, ...(token.value === undefined ? [] : [quote(token.value)])] : [],
  );
  const set = Object.entries(params).flatMap(([name, value]) => [`--${flagOf(retriever, name)}`, String(value)]);
  return ['npm run -s cli -- eval', ...kept, '--split', quote(split), ...set].join(' ');
}


const showParams = (params: GridParams) =>
  Object.entries(params)
    .map(([name, value]) => `${name}=${value}`)
    .join(' ');

function parseTuneArgs(args: string[]) {
  const { values, tokens } = parseFlags(args, TUNE_OPTIONS);
  if (values.help) return undefined;
  if (values.dataset === undefined) throw new CliError('--dataset <path | name> is required (try --help)');
  const settings = retrieverSettings(values);
  const vectorFiles = vectorFileFlags(values, settings.retriever);
  if (!TUNABLE_RETRIEVERS.includes(settings.retriever)) throw new CliError(`--retriever ${settings.retriever}: tune takes ${TUNABLE_RETRIEVERS.join(', ')}`);
  const grids = values.grid ?? [];
  if (grids.length === 0) throw new CliError('--grid name=from:to:step is required (try --help)');
  const axes = grids.map((text) => axisOf(text, settings.retriever));
  const split = { tuning: values.split, evaluated: values['eval-split'] };
  const config = retrieverConfig(settings);
  try {
    checkTuneRequest(config.kind, axes, split);
  } catch (error) {
    if (error instanceof SplitError || error instanceof GridError) throw new CliError(error.message);
    throw error;
  }
  return {
    dataset: values.dataset,
    split,
    settings,
    vectorFiles,
    config,
    axes,
    metric: cliMetric(values.metric),
    json: values.json,
    strategy: { maxPoints: numberOption('max-points', values['max-points'], positiveInteger, 'a positive integer')!, strategy: strategyOption(values.strategy) },
    evalLine: (params: GridParams) => evalCommandLine(tokens ?? [], settings.retriever, params, split.evaluated),
  };
}

type TuneOptions = NonNullable<ReturnType<typeof parseTuneArgs>>;

const pointJson = (point: TunedPoint) => ({ params: point.params, value: point.value });

function report(options: TuneOptions, result: TuneResult, context: { dataset: string; queries: number }) {
  return {
    dataset: context.dataset,
    split: options.split.tuning,
    eval_split: options.split.evaluated,
    retriever: options.settings.retriever,
    metric: options.metric.name,
    queries: context.queries,
    strategy: result.strategy,
    grid_size: result.gridSize,
    evaluated: result.points.length,
    best: result.best === undefined ? null : pointJson(result.best),
    flat: result.flat.map(pointJson),
    points: result.points.map(pointJson),
    eval: result.best === undefined ? null : options.evalLine(result.best.params),
    searches: result.searches,
    ms: result.ms,
  };
}

function printText(io: CliIo, options: TuneOptions, result: TuneResult, context: { dataset: string; queries: number }): void {
  const search =
    result.strategy === 'grid'
      ? `every point of ${result.gridSize}`
      : `coordinate search (the grid's ${result.gridSize} points are over --max-points ${options.strategy.maxPoints}): ${result.points.length} points`;
  io.out(`# ${context.dataset} ${options.split.tuning}: ${context.queries} queries; ${options.settings.retriever}; ${options.metric.name} (trec_eval -c); ${search}\n`);
  for (const point of result.points) io.out(`${showParams(point.params)}\t${options.metric.name}\t${point.value.toFixed(4)}\n`);
  if (result.best === undefined) {
    io.out('best\tnone (no point has a value)\n');
    return;
  }
  io.out(`best\t${showParams(result.best.params)}\t${result.best.value.toFixed(4)}\n`);
  io.out(`flat\t${result.flat.length} point(s) within 0.005 of the best: ${result.flat.map((point) => showParams(point.params)).join('; ')}\n`);
  io.out(`eval\t${options.evalLine(result.best.params)}\n`);
  io.out(`searches\t${result.searches}\nms\t${result.ms.toFixed(0)}\n`);
}

export async function tuneCommand(args: string[], io: CliIo): Promise<void> {
  const progress = (message: string) => io.err(`${message}\n`);
  const flags = parseFlags(args, TUNE_OPTIONS);
  if (flags.values.retriever === 'wsum' && !flags.values.help) {
    await tuneWsumCommand(flags.values, flags.tokens ?? [], TUNE_ONLY, io);
    return;
  }
  const options = parseTuneArgs(args);
  if (options === undefined) {
    io.out(`${USAGE}\n`);
    return;
  }
  let { settings, config } = options;
  const collection = await loadDataset(options.dataset, { splits: [options.split.tuning] });
  const qrels = collection.qrels.get(options.split.tuning);
  if (qrels === undefined) throw new CliError(`no qrels for split "${options.split.tuning}"`);
  const queries = judgedQueries(collection.queries, qrels);
  if (queries.length === 0) throw new CliError(`split "${options.split.tuning}" judges no query of ${collection.name}`);
  if (options.vectorFiles !== undefined) {
    // Ranked as eval ranks them: the model is named by the files (vector-files.ts).
    const vectors = await loadImportedVectors(options.vectorFiles, collection, queries);
    settings = { ...settings, vectors, model: vectors.model };
    config = retrieverConfig(settings);
    progress(`read ${vectors.corpus.rows} document and ${vectors.queries.texts.length} query vectors of ${vectors.corpus.dim} dimensions`);
  }
  const strategy = strategyFor(options.axes, options.strategy);
  progress(`tune: ${queries.length} ${options.split.tuning} queries, ${gridSize(options.axes)} grid points, ${strategy === 'grid' ? 'every point' : 'coordinate search'}`);
  const imported = settings.vectors === undefined ? {} : { importedVectors: settings.vectors };
  const search = new NodeSearch(collection.docs, { keepIdenticalIds: !settings.ignoreIdenticalIds, dtype: settings.dtype, progress, ...imported });
  try {
    const lexical = ledrLexical(settings);
    const result = await tune({
      search,
      base: config,
      queries,
      qrels,
      metric: options.metric,
      depth: settings.topK,
      keepIdenticalIds: !settings.ignoreIdenticalIds,
      ...(lexical === undefined ? {} : { ledrLexical: lexical }),
      axes: options.axes,
      split: options.split,
      strategy: { ...options.strategy, onProgress: (done, total, point) => progress(`tune: ${done}/${total} ${showParams(point.params)} ${point.value.toFixed(4)}`) },
    });
    const context = { dataset: collection.name, queries: queries.length };
    if (options.json) io.out(`${JSON.stringify(report(options, result, context))}\n`);
    else printText(io, options, result, context);
  } finally {
    await search.dispose();
  }
}
