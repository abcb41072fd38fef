/**
 * `tune --retriever wsum`: the weights of N runs searched on the tuning split over ranx's grid
 * (src/lib/tuning/wsum-weights.ts). The runs are ranked or read once; each trial fuses and measures them
 * as `eval --retriever wsum --weights …` does, so a trial's value is eval's for those weights.
 */
import { judgedQueries } from '../lib/data/beir.ts';
import type { TunedPoint } from '../lib/tuning/best.ts';
import { SplitError, checkTuningSplit } from '../lib/tuning/split-guard.ts';
import { tuneWsum } from '../lib/tuning/wsum-weights.ts';
import type { CliIo } from './cli-io.ts';
import { CliError } from './cli-error.ts';
import { loadDataset } from './dataset.ts';
import { cliMetric, retrieverSettings, type EvalValues } from './eval.ts';
import { quote } from './shell-quote.ts';
import { inputNames, parseWsumFlags, wsumInputRuns } from './wsum.ts';
import { loadImportedVectors, vectorFileFlags } from './vector-files.ts';

type Token = { kind: string; name?: string; value?: string | undefined };

type WsumValues = Omit<EvalValues, 'run-out'> & { 'eval-split': string; step: string; grid?: string[] | undefined };

function stepOf(text: string): number {
  const step = Number(text);
  if (!(step > 0 && step <= 1) || !Number.isInteger(Math.round(1 / step)) || Math.abs(Math.round(1 / step) * step - 1) > 1e-9) {
    throw new CliError(`--step ${text}: expected a step that divides 1 (0.1, 0.05, 0.25, …)`);
  }
  return step;
}

/** The `eval` command of the best weights: the user's flags without tune's, the weights set. */
function evalLine(tokens: readonly Token[], tuneOnly: ReadonlySet<string>, weights: readonly number[], split: string): string {
  const kept = tokens.flatMap((token) =>
    token.kind === 'option' && token.name !== undefined && !tuneOnly.has(token.name) && token.name !== 'weights' ? [`--${token.name}`, ...(token.value === undefined ? [] : [quote(token.value)])] : [],
  );
  return ['npm run -s cli -- eval', ...kept, '--split', quote(split), '--weights', weights.join(',')].join(' ');
}

const weightsOf = (point: TunedPoint) => Object.values(point.params);

export async function tuneWsumCommand(values: WsumValues, tokens: readonly Token[], tuneOnly: ReadonlySet<string>, io: CliIo): Promise<void> {
  const progress = (message: string) => io.err(`${message}\n`);
  if (values.dataset === undefined) throw new CliError('--dataset <path | name> is required (try --help)');
  if (values.grid !== undefined) throw new CliError('wsum tunes its weights over ranx\'s grid: give --step, not --grid');
  try {
    checkTuningSplit(values.split, values['eval-split']);
  } catch (error) {
    if (error instanceof SplitError) throw new CliError(error.message);
    throw error;
  }
  const flags = parseWsumFlags(values, false);
  let settings = retrieverSettings({ ...values, retriever: 'bm25' });
  const vectorFiles = vectorFileFlags(values, 'wsum');
  const metric = cliMetric(values.metric ?? 'ndcg_cut_10');
  const step = stepOf(values.step);
  const collection = await loadDataset(values.dataset, { splits: [values.split] });
  const qrels = collection.qrels.get(values.split);
  if (qrels === undefined) throw new CliError(`no qrels for split "${values.split}"`);
  const queries = judgedQueries(collection.queries, qrels);
  if (queries.length === 0) throw new CliError(`split "${values.split}" judges no query of ${collection.name}`);
  if (vectorFiles !== undefined) {
    const vectors = await loadImportedVectors(vectorFiles, collection, queries);
    settings = { ...settings, vectors, model: vectors.model };
  }
  const started = performance.now();
  const runs = await wsumInputRuns(collection.docs, queries, settings, flags, progress);
  const result = tuneWsum(runs, qrels, metric, { step, limit: settings.topK, onProgress: (done, total) => done % 10 === 0 && progress(`tune: ${done}/${total} weight combinations`) });
  const ms = performance.now() - started;
  const eval_ = result.best === undefined ? null : evalLine(tokens, tuneOnly, weightsOf(result.best), values['eval-split']);
  const point = (p: TunedPoint) => ({ params: p.params, value: p.value });
  if (values.json) {
    const report = {
      dataset: collection.name,
      split: values.split,
      eval_split: values['eval-split'],
      retriever: 'wsum',
      inputs: inputNames(flags),
      metric: metric.name,
      queries: queries.length,
      strategy: 'grid',
      grid_size: result.points.length,
      evaluated: result.points.length,
      best: result.best === undefined ? null : point(result.best),
      flat: result.flat.map(point),
      points: result.points.map(point),
      eval: eval_,
      ms,
    };
    io.out(`${JSON.stringify(report)}\n`);
    return;
  }
  io.out(`# ${collection.name} ${values.split}: ${queries.length} queries; wsum of ${inputNames(flags).join(' + ')} (w1…w${runs.length}); ${metric.name} (trec_eval -c); ranx's ${result.points.length} weight combinations, step ${step}\n`);
  for (const p of result.points) io.out(`${weightsOf(p).join(',')}\t${metric.name}\t${p.value.toFixed(4)}\n`);
  if (result.best === undefined) return;
  io.out(`best\t${weightsOf(result.best).join(',')}\t${result.best.value.toFixed(4)}\n`);
  io.out(`flat\t${result.flat.length} combination(s) within 0.005 of the best\n`);
  io.out(`eval\t${eval_}\nms\t${ms.toFixed(0)}\n`);
}
