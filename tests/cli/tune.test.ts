/**
 * `tune` against `eval`, in-process: every grid point's value equals what `eval` prints for that setting
 * on the tuning split; the best is the maximum, ties to the first in grid order; the evaluated split is
 * refused. A slice of SciFact (the first 60 train and 30 test queries, their judged documents and 600
 * others) keeps each `eval` quick.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { shared } from '../shared-dir.ts';
import { tempDir } from '../temp-dir.ts';
import { cli, cliStdout } from './run-cli.ts';

interface TuneJson {
  best: { params: Record<string, number>; value: number } | null;
  points: Array<{ params: Record<string, number>; value: number }>;
  flat: Array<{ params: Record<string, number>; value: number }>;
  strategy: string;
  grid_size: number;
  evaluated: number;
  metric: string;
  eval: string;
}

const lines = (path: string) => readFileSync(path, 'utf8').trimEnd().split('\n');

/** The qrels rows of a split's first `count` queries. */
function firstQueries(rows: string[], count: number): string[] {
  const kept = new Set<string>();
  return rows.filter((row) => {
    const qid = row.split('\t')[0]!;
    if (!kept.has(qid) && kept.size < count) kept.add(qid);
    return kept.has(qid);
  });
}

/** A BEIR folder: a slice of SciFact's queries with their judgments, their judged documents and 600 more. */
function sciFactSlice(): string {
  const source = shared('beir', 'scifact');
  const dir = tempDir('rp-tune-');
  mkdirSync(join(dir, 'qrels'));
  const [header, ...train] = lines(join(source, 'qrels', 'train.tsv'));
  const [, ...test] = lines(join(source, 'qrels', 'test.tsv'));
  const splits = { train: firstQueries(train, 60), test: firstQueries(test, 30) };
  for (const [split, rows] of Object.entries(splits)) writeFileSync(join(dir, 'qrels', `${split}.tsv`), `${[header, ...rows].join('\n')}\n`);
  const judged = new Set([...splits.train, ...splits.test].map((row) => row.split('\t')[1]!));
  const queryIds = new Set([...splits.train, ...splits.test].map((row) => row.split('\t')[0]!));
  const corpus = lines(join(source, 'corpus.jsonl')).filter((line, i) => i < 600 || judged.has((JSON.parse(line) as { _id: string })._id));
  writeFileSync(join(dir, 'corpus.jsonl'), `${corpus.join('\n')}\n`);
  const queries = lines(join(source, 'queries.jsonl')).filter((line) => queryIds.has((JSON.parse(line) as { _id: string })._id));
  writeFileSync(join(dir, 'queries.jsonl'), `${queries.join('\n')}\n`);
  return dir;
}

/** The eval flag of a grid parameter, as `tune --help` states it. */
function evalFlags(retriever: string, params: Record<string, number>): string[] {
  return Object.entries(params).flatMap(([name, value]) => [`--${name === 'k' ? (retriever === 'ledr' ? 'ledr-k' : 'rrf-k') : name}`, String(value)]);
}

async function tuneJson(args: string[]): Promise<TuneJson> {
  return JSON.parse(await cliStdout(['tune', ...args, '--json'])) as TuneJson;
}

async function evalValue(dataset: string, retriever: string, params: Record<string, number>, metric: string, extra: string[] = []): Promise<number> {
  const stdout = await cliStdout(['eval', '--dataset', dataset, '--split', 'train', '--retriever', retriever, ...extra, ...evalFlags(retriever, params), '--metric', metric, '--json']);
  return (JSON.parse(stdout) as { metrics: Record<string, number> }).metrics[metric]!;
}

/** The first point of highest value in grid order, found here without the tuner's code. */
function firstMaximum(points: TuneJson['points']): TuneJson['points'][number] {
  return points.reduce((best, point) => (point.value > best.value ? point : best));
}

describe('tune on a slice of SciFact train', () => {
  let dataset = '';
  beforeAll(() => {
    dataset = sciFactSlice();
  });

  const cases: Array<{ retriever: string; grid: string[]; metric: string; extra?: string[]; points: number }> = [
    { retriever: 'convex', grid: ['alpha=0:1:0.5'], metric: 'ndcg_cut_10', points: 3 },
    { retriever: 'rrf', grid: ['k=10,60'], metric: 'map', points: 2 },
    { retriever: 'bm25', grid: ['k1=0.6:1.2:0.6', 'b=0.3:0.9:0.6'], metric: 'ndcg_cut_10', points: 4 },
    { retriever: 'ledr', grid: ['k=100,1000'], metric: 'P_10', points: 2 },
    { retriever: 'rm3', grid: ['fb-terms=5,10', 'orig-weight=0.5'], metric: 'recall_100', extra: ['--fb-docs', '5'], points: 2 },
  ];

  for (const { retriever, grid, metric, extra = [], points } of cases) {
    it(`${retriever} ${grid.join(' ')}: every point equals eval's ${metric}, the best is the first maximum`, async () => {
      const result = await tuneJson(['--dataset', dataset, '--split', 'train', '--retriever', retriever, ...extra, ...grid.flatMap((g) => ['--grid', g]), '--metric', metric]);
      expect(result.strategy).toBe('grid');
      expect(result.points).toHaveLength(points);
      for (const point of result.points) expect(point.value, JSON.stringify(point.params)).toBe(await evalValue(dataset, retriever, point.params, metric, extra));
      expect(result.best).toEqual(firstMaximum(result.points));
      expect(result.flat.every((point) => point.value >= result.best!.value - 0.005)).toBe(true);
      expect(result.eval).toContain('--split test');
    }, 240_000);
  }

  it('searches a grid over --max-points by coordinates, each value still eval\'s', async () => {
    const result = await tuneJson(['--dataset', dataset, '--retriever', 'bm25', '--grid', 'k1=0.5:1.5:0.5', '--grid', 'b=0.2:1:0.4', '--max-points', '4']);
    expect(result).toMatchObject({ strategy: 'coordinate', grid_size: 9 });
    expect(result.evaluated).toBeLessThan(9);
    const sample = result.points[result.points.length - 1]!;
    expect(sample.value).toBe(await evalValue(dataset, 'bm25', sample.params, 'ndcg_cut_10'));
    expect(result.best).toEqual(firstMaximum(result.points));
  }, 240_000);

  it('wsum of two retrievers and an imported run: every weight combination equals eval --weights', async () => {
    const imported = join(tempDir('rp-tune-run-'), 'bm25-k1-1.2.run');
    await cliStdout(['eval', '--dataset', dataset, '--split', 'train', '--retriever', 'bm25', '--k1', '1.2', '--run-out', imported]);
    const inputs = ['--fuse', 'bm25,rm3', '--fuse-run', imported];
    const result = await tuneJson(['--dataset', dataset, '--retriever', 'wsum', ...inputs, '--step', '0.5']);
    // Every combination of 0, 0.5 and 1 over three runs that sums to 1, first run outermost.
    const expected = [0, 0.5, 1].flatMap((a) => [0, 0.5, 1].flatMap((b) => [0, 0.5, 1].map((c) => [a, b, c]))).filter(([a, b, c]) => a! + b! + c! === 1);
    expect(result.points.map((p) => Object.values(p.params))).toEqual(expected);
    for (const point of result.points) {
      const stdout = await cliStdout(['eval', '--dataset', dataset, '--split', 'train', '--retriever', 'wsum', ...inputs, '--weights', Object.values(point.params).join(','), '--json']);
      expect(point.value).toBe((JSON.parse(stdout) as { metrics: Record<string, number> }).metrics.ndcg_cut_10);
    }
    expect(result.best).toEqual(firstMaximum(result.points));
    expect(result.eval).toMatch(/--retriever wsum --fuse bm25,rm3 --fuse-run \S+ --split test --weights [\d.,]+$/);
  }, 240_000);

  it('prints every point, the best and the eval command as text', async () => {
    const stdout = await cliStdout(['tune', '--dataset', dataset, '--retriever', 'bm25', '--grid', 'b=0.4,0.8']);
    expect(stdout).toMatch(/^b=0\.4\tndcg_cut_10\t0\.\d{4}$/m);
    expect(stdout).toMatch(/^best\tb=0\.[48]\t0\.\d{4}$/m);
    expect(stdout).toMatch(/^eval\tnpm run -s cli -- eval --dataset \S+ --retriever bm25 --split test --b 0\.[48]$/m);
  }, 120_000);
});

describe('tune refuses', () => {
  it('the evaluated split, before reading anything', async () => {
    const { code, stderr } = await cli(['tune', '--dataset', '/nonexistent', '--split', 'test', '--retriever', 'convex', '--grid', 'alpha=0:1:0.1']);
    expect(code).not.toBe(0);
    expect(stderr).toMatch(/refusing to tune on "test": it is the split being evaluated/);
    const dev = await cli(['tune', '--dataset', '/nonexistent', '--split', 'dev', '--eval-split', 'dev', '--retriever', 'bm25', '--grid', 'b=0.4']);
    expect(dev.stderr).toMatch(/refusing to tune on "dev"/);
  });

  it('grids the retriever does not have, bad ranges and measures of several values', async () => {
    const refused = async (args: string[]) => (await cli(['tune', '--dataset', '/nonexistent', ...args])).stderr;
    expect(await refused(['--retriever', 'bm25', '--grid', 'alpha=0:1:0.1'])).toMatch(/alpha is not a parameter of bm25/);
    expect(await refused(['--retriever', 'convex', '--grid', 'alpha=0:2:0.5'])).toMatch(/alpha 1\.5: expected a number between 0 and 1/);
    expect(await refused(['--retriever', 'convex'])).toMatch(/--grid name=from:to:step is required/);
    expect(await refused(['--retriever', 'rerank', '--grid', 'depth=10'])).toMatch(/tune takes/);
    expect(await refused(['--retriever', 'bm25', '--grid', 'b=0.4', '--metric', 'P'])).toMatch(/give one value/);
    expect(await refused(['--retriever', 'wsum', '--fuse', 'bm25'])).toMatch(/wsum fuses two or more runs/);
    expect(await refused(['--retriever', 'wsum', '--split', 'test', '--fuse', 'bm25,dense'])).toMatch(/refusing to tune on "test"/);
  });
});
