/**
 * `npm run bench:tune [-- --exhaustive]`: how long Tune takes on SciFact train (809 queries) in Node, as
 * the CLI's `tune` runs it, and what it finds. The index and the corpus vectors are built once beforehand
 * (reported apart: the page has them stored); each tune then ranks and measures its grid points.
 *
 *   convex α 0:1:0.1 (11 points) and RRF k 10:100:10 (10): one BM25 and one dense search, re-fused per point;
 *   BM25 k1 0.5:1.5:0.1 × b 0.2:1:0.1 (99 points): coordinate search from k1 0.9, b 0.4 (a BM25 search per
 *   point); with --exhaustive also every point, to compare;
 *   wsum of BM25, dense and LEDR (ranx's 62 weight combinations, step 0.1): three rankings, re-fused per trial.
 */
import { parseArgs } from 'node:util';
import { loadDataset } from '../src/cli/dataset.ts';
import { NodeSearch } from '../src/cli/node-search.ts';
import { judgedQueries } from '../src/lib/data/beir.ts';
import { DEFAULT_DENSE, defaultRetriever, type RetrieverConfig } from '../src/lib/retrievers/config.ts';
import { parseGridAxis } from '../src/lib/tuning/grid.ts';
import { parseTuneMetric } from '../src/lib/tuning/metric.ts';
import type { SearchStrategy } from '../src/lib/tuning/strategy.ts';
import { tune, type TuneResult } from '../src/lib/tuning/tune.ts';
import { tuneWsum } from '../src/lib/tuning/wsum-weights.ts';
import { rankBatch } from '../src/lib/retrievers/rank.ts';
import type { Hit } from '../src/lib/types.ts';
import { shared } from '../tests/shared-dir.ts';
import type { BenchFigure } from './results-file.ts';
import { writeBenchResult } from './results-file.ts';

const { values } = parseArgs({ options: { exhaustive: { type: 'boolean', default: false } } });

const collection = await loadDataset(shared('beir', 'scifact'), { splits: ['train'] });
const qrels = collection.qrels.get('train')!;
const queries = judgedQueries(collection.queries, qrels);
const search = new NodeSearch(collection.docs);
const metric = parseTuneMetric('ndcg_cut_10');

const prepareStart = performance.now();
// The index and the corpus vectors, built before any tune (the page has them stored).
await search.bm25(defaultRetriever('bm25').bm25, [{ text: 'warm' }], 1);
await search.dense(DEFAULT_DENSE, ['warm'], 1);
const prepareMs = performance.now() - prepareStart;

interface Case {
  name: string;
  config: RetrieverConfig;
  grid: string[];
  strategy?: SearchStrategy;
}

const cases: Case[] = [
  { name: 'convex α 0:1:0.1', config: defaultRetriever('convex'), grid: ['alpha=0:1:0.1'] },
  { name: 'RRF k 10:100:10', config: defaultRetriever('rrf'), grid: ['k=10:100:10'] },
  { name: 'BM25 k1 0.5:1.5:0.1 × b 0.2:1:0.1', config: defaultRetriever('bm25'), grid: ['k1=0.5:1.5:0.1', 'b=0.2:1:0.1'] },
  ...(values.exhaustive ? [{ name: 'BM25 k1 0.5:1.5:0.1 × b 0.2:1:0.1', config: defaultRetriever('bm25'), grid: ['k1=0.5:1.5:0.1', 'b=0.2:1:0.1'], strategy: 'grid' as const }] : []),
];

const show = (params: Readonly<Record<string, number>>) => Object.entries(params).map(([k, v]) => `${k} ${v}`).join(', ');

const results: Array<{ case: Case; result: TuneResult }> = [];
for (const entry of cases) {
  const result = await tune({
    search,
    base: entry.config,
    queries,
    qrels,
    metric,
    axes: entry.grid.map(parseGridAxis),
    split: { tuning: 'train', evaluated: 'test' },
    ...(entry.strategy === undefined ? {} : { strategy: { strategy: entry.strategy } }),
  });
  results.push({ case: entry, result });
  process.stderr.write(
    `${entry.name}: ${result.strategy}, ${result.points.length}/${result.gridSize} points, ${result.searches} searches, ${(result.ms / 1000).toFixed(1)} s; best ${show(result.best!.params)} ${result.best!.value.toFixed(4)}\n`,
  );
}
// wsum: the three default columns ranked once (as eval ranks them), then ranx's weight grid.
const wsumStart = performance.now();
const inputs = ['bm25', 'dense', 'ledr'] as const;
const runs = await Promise.all(
  inputs.map(async (kind) => {
    const rankings = await rankBatch(search, defaultRetriever(kind), queries, { form: 'hits' });
    return new Map(queries.map((query, i): [string, Hit[]] => [query.id, rankings[i] ?? []]));
  }),
);
const wsum = tuneWsum(runs, qrels, metric, { limit: 1000 });
const wsumMs = performance.now() - wsumStart;
process.stderr.write(`wsum ${inputs.join(' + ')}: ${wsum.points.length} combinations, ${(wsumMs / 1000).toFixed(1)} s; best ${show(wsum.best!.params)} ${wsum.best!.value.toFixed(4)}\n`);
await search.dispose();

const figures: BenchFigure[] = [
  { name: 'Tune on SciFact train (809 queries, Node): BM25 index and GloVe corpus vectors, built once before the tunes', unit: 'ms', value: Math.round(prepareMs) },
  ...results.map(({ case: entry, result }) => ({
    name: `Tune on SciFact train (809 queries, Node): ${entry.name}, ${result.strategy === 'grid' ? 'every point' : 'coordinate search'} (${result.points.length} of ${result.gridSize} points, ${result.searches} searches)`,
    unit: 's',
    value: Number((result.ms / 1000).toFixed(2)),
  })),
  {
    name: `Tune on SciFact train (809 queries, Node): wsum of BM25, dense and LEDR, ranx's grid (${wsum.points.length} weight combinations, 3 rankings)`,
    unit: 's',
    value: Number((wsumMs / 1000).toFixed(2)),
  },
];
const note = results.map(({ case: entry, result }) => `${entry.name} (${result.strategy}): best ${show(result.best!.params)}, train nDCG@10 ${result.best!.value.toFixed(4)}`).concat(`wsum ${inputs.join(' + ')}: best ${show(wsum.best!.params)}, train nDCG@10 ${wsum.best!.value.toFixed(4)}`)
  .join('; ');
writeBenchResult({ benchmark: 'tune', figures, note });
