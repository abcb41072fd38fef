/**
 * `--retriever wsum`: a weighted sum of N runs (ranx's wsum), for `eval` (`--weights`) and `tune` (ranx's
 * weight grid). The runs are retrievers of eval's flags (`--fuse bm25,dense,ledr`), each ranked by
 * `rankBatch` over one in-process search, and TREC run files (`--fuse-run a.run`, repeatable: imported
 * runs), in that order.
 */
import { createReadStream } from 'node:fs';
import { ParseError } from '../lib/data/errors.ts';
import { readTrecRun } from '../lib/data/trec.ts';
import type { Query, Run } from '../lib/types.ts';
import { fuseRuns } from '../lib/tuning/wsum-weights.ts';
import { CliError } from './cli-error.ts';
import { NodeSearch } from './node-search.ts';
import { FIRST_STAGES, rankRun, retrieverConfig, type FirstStageName, type RetrieverSettings } from './retrievers.ts';

export interface WsumFlags {
  /** Retrievers ranked here, in order. */
  retrievers: FirstStageName[];
  /** TREC run files, after the retrievers. */
  runFiles: string[];
  /** `--weights`, one per input (eval). */
  weights: number[] | undefined;
}

/** The inputs' names, as the report lists them. */
export function inputNames(flags: WsumFlags): string[] {
  return [...flags.retrievers, ...flags.runFiles];
}

export function parseWsumFlags(values: { fuse?: string | undefined; 'fuse-run'?: string[] | undefined; weights?: string | undefined }, needWeights: boolean): WsumFlags {
  const retrievers = (values.fuse ?? '').split(',').filter((name) => name !== '');
  for (const name of retrievers) {
    if (!(FIRST_STAGES as readonly string[]).includes(name)) throw new CliError(`--fuse ${name}: expected some of ${FIRST_STAGES.join(', ')}`);
  }
  const runFiles = values['fuse-run'] ?? [];
  const inputs = retrievers.length + runFiles.length;
  if (inputs < 2) throw new CliError('wsum fuses two or more runs: --fuse bm25,dense,… and/or --fuse-run <file> (repeatable)');
  const weights = values.weights?.split(',').map(Number);
  if (weights !== undefined && (weights.length !== inputs || weights.some((w) => !Number.isFinite(w) || w < 0))) {
    throw new CliError(`--weights ${values.weights}: expected ${inputs} numbers ≥ 0, one per run`);
  }
  if (needWeights && weights === undefined) throw new CliError(`--weights w1,…,w${inputs} is required with --retriever wsum`);
  return { retrievers: retrievers as FirstStageName[], runFiles, weights };
}

async function readRunFile(path: string): Promise<Run> {
  try {
    return (await readTrecRun(createReadStream(path), { file: path })).run;
  } catch (error) {
    if (error instanceof ParseError) throw new CliError(error.message);
    throw new CliError(`cannot read run file '${path}': ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** Each input's run over `queries`: the retrievers ranked as `eval` ranks them, then the files. */
export async function wsumInputRuns(docs: ConstructorParameters<typeof NodeSearch>[0], queries: readonly Query[], settings: RetrieverSettings, flags: WsumFlags, progress: (message: string) => void): Promise<Run[]> {
  const search = new NodeSearch(docs, { keepIdenticalIds: !settings.ignoreIdenticalIds, dtype: settings.dtype, progress, ...(settings.vectors === undefined ? {} : { importedVectors: settings.vectors }) });
  try {
    const ranked: Run[] = [];
    for (const name of flags.retrievers) {
      const each = { ...settings, retriever: name };
      ranked.push(await rankRun(search, retrieverConfig(each), queries, each, settings.topK));
    }
    // A file's queries of other splits take no part.
    const ids = new Set(queries.map((query) => query.id));
    const files = (await Promise.all(flags.runFiles.map(readRunFile))).map((run): Run => new Map([...run].filter(([qid]) => ids.has(qid))));
    return [...ranked, ...files];
  } finally {
    await search.dispose();
  }
}

/** The weighted sum `eval` measures: the inputs fused per query, cut to the run depth. */
export function wsumRun(runs: readonly Run[], weights: readonly number[], depth: number): Run {
  return fuseRuns(runs, weights, { limit: depth });
}
