/**
 * One measurement of `npm run bench:bm25`, in its own process so that each system starts from a clean
 * heap and a library that runs out of memory cannot take the others down:
 *   node --expose-gc --import tsx bench/bm25-run.ts <data.json> <system> <scale>
 * Prints one JSON line (a `RunFigures`).
 *
 * - index_ms: building the index from the analyzed documents (ours: token arrays; libraries: the tokens
 *   joined by spaces, split again by their tokenizer); at scale 1 the median of 3 builds (this machine is
 *   shared, single short timings are noisy), above that one build.
 * - index_bytes: growth of V8 heap + external memory (typed arrays, WebAssembly memory) over the build,
 *   both measured after a full GC, with the index alive.
 * - query_ms_*: per query, top 1000 hits as {docId, score} (the query's own id dropped), warm: an untimed
 *   pass (all 300 test queries at scale 1, whose run gives nDCG; 10 above), then timed passes over the
 *   300 queries: 3, fewer once 10 s have passed, and a pass is cut short when the query budget (argument 4,
 *   seconds, default 120) runs out — only a system needing seconds per query gets fewer than 300 samples
 *   (`samples` says how many).
 * - ndcg_cut_10: trec_eval ndcg_cut.10 on the SciFact test qrels (scale 1 only: copies make it moot).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { evaluate } from '../src/lib/eval/evaluate.ts';
import { BM25_WASM_URL } from '../src/lib/bm25-wasm/kernel-url.ts';
import type { Run } from '../src/lib/types.ts';
import { benchQueries, qrelsOf, readAnalyzedCollection, scaledDocs } from './bm25-data.ts';
import { SYSTEMS, type SystemKey } from './bm25-systems.ts';

const BENCH_K = 1000;

export interface RunFigures {
  system: SystemKey;
  scale: number;
  docs: number;
  index_ms: number;
  index_bytes: number;
  query_ms_mean: number;
  query_ms_p95: number;
  /** Timed searches (queries × passes). */
  samples: number;
  ndcg_cut_10: number | null;
}

function collectGarbage(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with node --expose-gc');
  gc();
  gc();
}

function memoryInUse(): number {
  collectGarbage();
  const { heapUsed, external } = process.memoryUsage();
  return heapUsed + external;
}

function percentile(sorted: readonly number[], fraction: number): number {
  // Nearest-rank percentile.
  return sorted[Math.max(0, Math.ceil(fraction * sorted.length) - 1)]!;
}

async function main(): Promise<void> {
  const [dataPath, systemKey, scaleText, budgetText] = process.argv.slice(2);
  const budgetMs = Number(budgetText ?? 120) * 1000;
  const info = SYSTEMS.find((system) => system.key === systemKey);
  if (!dataPath || !info || !scaleText) throw new Error('usage: bm25-run.ts <data.json> <system> <scale>');
  const scale = Number(scaleText);
  const data = readAnalyzedCollection(dataPath);
  const docs = scaledDocs(data, scale);
  const queries = benchQueries(data);
  const module = await WebAssembly.compile(readFileSync(fileURLToPath(BM25_WASM_URL)));
  const system = info.create(module);

  const buildTimes: number[] = [];
  let indexBytes = 0;
  for (let round = 0; round < (scale === 1 ? 3 : 1); round++) {
    // Memory of the first build only: later rounds start with the previous index still alive.
    const before = round === 0 ? memoryInUse() : 0;
    const started = performance.now();
    system.build(docs);
    buildTimes.push(performance.now() - started);
    if (round === 0) indexBytes = memoryInUse() - before;
  }
  buildTimes.sort((x, y) => x - y);
  const indexMs = buildTimes[buildTimes.length >> 1]!;

  const run: Run = new Map();
  for (const query of scale === 1 ? queries : queries.slice(0, 10)) run.set(query.id, system.search(query, BENCH_K));
  const times: number[] = [];
  const timingStarted = performance.now();
  timing: for (let pass = 0; pass < 3 && (pass === 0 || performance.now() - timingStarted < 10_000); pass++) {
    for (const query of queries) {
      if (performance.now() - timingStarted > budgetMs) break timing;
      const t0 = performance.now();
      system.search(query, BENCH_K);
      times.push(performance.now() - t0);
    }
  }
  times.sort((x, y) => x - y);
  const ndcg = scale === 1 ? evaluate(qrelsOf(data), run, { measures: ['ndcg_cut.10'] }).all['ndcg_cut_10']! : null;
  const figures: RunFigures = {
    system: info.key,
    scale,
    docs: docs.length,
    index_ms: indexMs,
    index_bytes: indexBytes,
    query_ms_mean: times.reduce((sum, t) => sum + t, 0) / times.length,
    query_ms_p95: percentile(times, 0.95),
    samples: times.length,
    ndcg_cut_10: ndcg,
  };
  process.stdout.write(`${JSON.stringify(figures)}\n`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
