/**
 * `npm run bench:ann [-- --json]`: HNSW (hnswlib-wasm) against exact search, latency per query and
 * recall@10 against exact, on SciFact (5,183 docs, the 300 test queries, local/glove-100d-sif vectors) and a
 * 10× corpus (51,830 noisy copies of the SciFact vectors, same queries). The efSearch sweep shows the
 * recall/latency trade-off; `ratios.vs_naive` = exact ms per query / HNSW ms per query at the default efSearch.
 * Runs on onnxruntime-node (embedding) and hnswlib-wasm in Node — the same wasm build the search worker uses.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { denseRetrieve, provideIndexedDb } from '../src/cli/dense.ts';
import { annRecallAtK } from '../src/lib/dense/ann-recall.ts';
import { exactTopK } from '../src/lib/dense/exact-search.ts';
import { DEFAULT_HNSW, HnswIndex, type HnswParams } from '../src/lib/dense/hnsw-index.ts';
import { scaledUpVectors } from '../src/lib/dense/synthetic-vectors.ts';
import type { ScoredRow } from '../src/lib/dense/exact-search.ts';
import { matrixRow, type VectorMatrix } from '../src/lib/dense/vector-matrix.ts';
import { shared } from '../tests/shared-dir.ts';
import { buildModels } from '../scripts/models/build-models.ts';
import { writeBenchResult } from './results-file.ts';

const K = 10;
const EF_SWEEP = [16, 32, 64, 100, 128, 200];

interface SweepRow {
  efSearch: number;
  recallAt10: number;
  msPerQuery: number;
}

interface CorpusFigures {
  corpus: string;
  docs: number;
  queries: number;
  dim: number;
  exactMsPerQuery: number;
  hnsw: { params: HnswParams; buildMs: number; sweep: SweepRow[] };
  defaultEf: SweepRow;
}

function readJsonl<T>(path: string): T[] {
  return readFileSync(path, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as T);
}

function timePerQuery(queries: VectorMatrix, search: (q: Float32Array) => ScoredRow[]): { results: ScoredRow[][]; ms: number } {
  // One untimed pass warms the JIT and the caches; the timed pass is what a user waits for.
  for (let q = 0; q < Math.min(queries.rows, 20); q++) search(matrixRow(queries, q));
  const t0 = performance.now();
  const results = Array.from({ length: queries.rows }, (_, q) => search(matrixRow(queries, q)));
  return { results, ms: (performance.now() - t0) / queries.rows };
}

async function benchCorpus(name: string, corpus: VectorMatrix, queries: VectorMatrix, params: HnswParams): Promise<CorpusFigures> {
  const exact = timePerQuery(queries, (q) => exactTopK(corpus, q, K));
  const t0 = performance.now();
  const index = await HnswIndex.build(corpus, params);
  const buildMs = performance.now() - t0;
  const sweep: SweepRow[] = [];
  for (const ef of [...new Set([...EF_SWEEP, params.efSearch])].sort((a, b) => a - b)) {
    index.setEfSearch(ef);
    const ann = timePerQuery(queries, (q) => index.search(q, K));
    sweep.push({ efSearch: ef, recallAt10: annRecallAtK(ann.results, exact.results, K), msPerQuery: ann.ms });
  }
  index.dispose();
  return {
    corpus: name,
    docs: corpus.rows,
    queries: queries.rows,
    dim: corpus.dim,
    exactMsPerQuery: exact.ms,
    hnsw: { params, buildMs, sweep },
    defaultEf: sweep.find((row) => row.efSearch === params.efSearch)!,
  };
}

/** Results go to stdout; everything else (progress, library chatter) to stderr. */
function print(text: string): void {
  process.stdout.write(`${text}\n`);
}

function printTable(figures: CorpusFigures[]): void {
  for (const f of figures) {
    const p = f.hnsw.params;
    print(`\n${f.corpus}: ${f.docs} docs × ${f.dim}d, ${f.queries} queries; exact ${f.exactMsPerQuery.toFixed(3)} ms/query; HNSW build ${(f.hnsw.buildMs / 1000).toFixed(2)} s (M ${p.M}, efConstruction ${p.efConstruction})`);
    print('| efSearch | recall@10 vs exact | ms/query | speed-up vs exact |');
    print('|---:|---:|---:|---:|');
    for (const row of f.hnsw.sweep) {
      const mark = row.efSearch === p.efSearch ? ' (default)' : '';
      print(`| ${row.efSearch}${mark} | ${row.recallAt10.toFixed(4)} | ${row.msPerQuery.toFixed(3)} | ${(f.exactMsPerQuery / row.msPerQuery).toFixed(1)}× |`);
    }
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { json: { type: 'boolean', default: false }, factor: { type: 'string', default: '10' } } });
  const log = (message: string) => process.stderr.write(`${message}\n`);
  // Libraries print progress with console.log (hnswlib-wasm's file-system messages): keep stdout for the
  // result alone, so --json output is one parseable object.
  console.log = (...args: unknown[]) => process.stderr.write(`${args.map(String).join(' ')}\n`);
  await provideIndexedDb();
  buildModels({ only: ['glove-100d-sif'] });
  const docs = readJsonl<{ _id: string; title?: string; text?: string }>(shared('beir', 'scifact', 'corpus.jsonl')).map((d) => ({ id: d._id, title: d.title ?? '', text: d.text ?? '' }));
  const judged = new Set(readFileSync(shared('beir', 'scifact', 'qrels', 'test.tsv'), 'utf8').trim().split('\n').slice(1).map((l) => l.split('\t')[0]!));
  const queries = readJsonl<{ _id: string; text: string }>(shared('beir', 'scifact', 'queries.jsonl')).filter((q) => judged.has(q._id)).map((q) => ({ id: q._id, text: q.text }));
  log(`embedding SciFact (${docs.length} docs, ${queries.length} test queries) with local/glove-100d-sif…`);
  const dense = await denseRetrieve({ docs, queries, model: 'local/glove-100d-sif', topK: K });
  const factor = Number(values.factor);
  const figures: CorpusFigures[] = [];
  log('SciFact-sized corpus…');
  figures.push(await benchCorpus('scifact (glove-100d-sif)', dense.corpus.vectors, dense.queryVectors, DEFAULT_HNSW));
  log(`${factor}× synthetic corpus…`);
  const big = scaledUpVectors(dense.corpus.vectors, factor, { noise: 0.3, seed: 7 });
  figures.push(await benchCorpus(`scifact ×${factor} (noisy copies)`, big, dense.queryVectors, DEFAULT_HNSW));
  const ratios = {
    vs_naive: Object.fromEntries(figures.map((f) => [f.corpus, f.exactMsPerQuery / f.defaultEf.msPerQuery])),
  };
  const goal = figures[0]!.defaultEf;
  const summary = { goal: { recallAt10: goal.recallAt10, msPerQuery: goal.msPerQuery, met: goal.recallAt10 >= 0.99 && goal.msPerQuery < 1 } };
  writeBenchResult({
    benchmark: 'ann',
    figures: figures.flatMap((f) => [
      { name: `HNSW recall@10, efSearch ${f.hnsw.params.efSearch} (${f.corpus}, ${f.docs} docs)`, unit: '', value: f.defaultEf.recallAt10, ...(f === figures[0] ? { goal: { min: 0.99 } } : {}) },
      { name: `HNSW search, efSearch ${f.hnsw.params.efSearch} (${f.corpus})`, unit: 'ms/query', value: f.defaultEf.msPerQuery, ...(f === figures[0] ? { goal: { max: 1 } } : {}), peers: { 'exact search': f.exactMsPerQuery } },
      { name: `HNSW build, M ${f.hnsw.params.M}, efConstruction ${f.hnsw.params.efConstruction} (${f.corpus})`, unit: 'ms', value: f.hnsw.buildMs },
    ]),
  });
  if (values.json) {
    print(JSON.stringify({ bench: 'ann', k: K, figures, ratios, ...summary }, null, 1));
  } else {
    printTable(figures);
    print(`\nvs exact (naive) at default efSearch: ${Object.entries(ratios.vs_naive).map(([c, r]) => `${c} ${r.toFixed(1)}×`).join(', ')}`);
    print(`SciFact goal (recall@10 ≥ 0.99 at < 1 ms/query): ${summary.goal.met ? 'met' : 'NOT met'} (${goal.recallAt10.toFixed(4)}, ${goal.msPerQuery.toFixed(3)} ms)`);
  }
}

await main();
