/**
 * `npm run -s bench:exact [-- --rows 518300 --dim 100 --queries 300]`: exact dense search (exact-search.ts,
 * the WebAssembly kernel where it runs) at the size of SciFact ×100: one query (a typed query) and a batch of
 * queries (an evaluation's dense column), top 10 and top 1,000, in Node. Vectors are seeded synthetic unit
 * vectors (clusteredVectors), so no model is needed. Each figure records the 1-minute load average when it
 * was taken (the machine is shared).
 */
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { exactTopRowsMany } from '../src/lib/dense/exact-search.ts';
import { clusteredVectors } from '../src/lib/dense/synthetic-vectors.ts';
import { matrixRow } from '../src/lib/dense/vector-matrix.ts';
import { writeBenchResult, type BenchFigure } from './results-file.ts';

const { values } = parseArgs({
  options: { rows: { type: 'string', default: '518300' }, dim: { type: 'string', default: '100' }, queries: { type: 'string', default: '300' }, single: { type: 'string', default: '20' } },
});
const rows = Number(values.rows);
const dim = Number(values.dim);
const batch = Number(values.queries);
const singles = Number(values.single);

const matrix = clusteredVectors(rows, dim, { seed: 1 });
const queryMatrix = clusteredVectors(Math.max(batch, singles), dim, { seed: 2 });
const queries = Array.from({ length: queryMatrix.rows }, (_, i) => matrixRow(queryMatrix, i));

const load = (): number => Number(loadavg()[0]!.toFixed(2));
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
const figures: BenchFigure[] = [];

// The kernel copies the matrix into its memory on the first batch: done here, outside the timings.
exactTopRowsMany(matrix, queries.slice(0, 4), 10);

for (const k of [10, 1000]) {
  const samples: number[] = [];
  for (let i = 0; i < singles; i++) {
    const t0 = performance.now();
    exactTopRowsMany(matrix, [queries[i]!], k);
    samples.push(performance.now() - t0);
  }
  const sorted = [...samples].sort((a, b) => a - b);
  const p95 = sorted[Math.min(sorted.length - 1, Math.ceil(0.95 * sorted.length) - 1)]!;
  figures.push({ name: `exact top-${k} of one query, ${rows} × ${dim} rows (median of ${singles}; load ${load()})`, unit: 'ms', value: Number(median(samples).toFixed(1)), samples: samples.map((ms) => Number(ms.toFixed(1))) });
  figures.push({ name: `exact top-${k} of one query, ${rows} × ${dim} rows (p95 of ${singles}; load ${load()})`, unit: 'ms', value: Number(p95.toFixed(1)) });
}
for (const k of [10, 1000]) {
  const t0 = performance.now();
  exactTopRowsMany(matrix, queries.slice(0, batch), k);
  const ms = performance.now() - t0;
  figures.push({ name: `exact top-${k} of ${batch} queries, ${rows} × ${dim} rows (load ${load()})`, unit: 's', value: Number((ms / 1000).toFixed(2)) });
}

for (const figure of figures) console.log(`${figure.name}: ${figure.value} ${figure.unit}`);
writeBenchResult({ benchmark: 'exact', figures });
