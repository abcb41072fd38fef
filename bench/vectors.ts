/**
 * `npm run bench:vectors [-- --docs 20000 --dim 384]`: how fast vector files made elsewhere are read
 * (src/lib/import/vector-file.ts, the code the import worker and the CLI run), per format: Pyserini's
 * embeddings.jsonl, Parquet (list<float>, 1,024 rows per group) and float32 .npy + ids. The files are
 * seeded random vectors written to a temporary folder first (not timed); each read is timed three times
 * and the median kept. Node, one thread; the figures are vectors read per second.
 */
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createReadStream } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { readVectorFile, type VectorFileInput } from '../src/lib/import/vector-file.ts';
import { npyVectors, parquetVectors, pyseriniJsonl, randomVectors } from '../tests/lib/import/vector-fixtures.ts';
import { writeBenchResult, type BenchFigure } from './results-file.ts';

const { values } = parseArgs({ options: { docs: { type: 'string', default: '20000' }, dim: { type: 'string', default: '384' } } });
const docs = Number(values.docs);
const dim = Number(values.dim);
const RUNS = 3;

function diskInput(path: string): VectorFileInput {
  return { name: path, open: async () => createReadStream(path, { highWaterMark: 1 << 20 }) };
}

const dir = mkdtempSync(join(tmpdir(), 'bench-vectors-'));
try {
  const ids = Array.from({ length: docs }, (_, i) => `doc${i}`);
  const vectors = randomVectors(docs, dim, 1);
  const files = {
    jsonl: join(dir, 'embeddings.jsonl'),
    parquet: join(dir, 'embeddings.parquet'),
    npy: join(dir, 'embeddings.npy'),
    ids: join(dir, 'embeddings.ids.txt'),
  };
  writeFileSync(files.jsonl, pyseriniJsonl(ids, vectors));
  writeFileSync(files.parquet, parquetVectors(ids, vectors, 1024));
  writeFileSync(files.npy, npyVectors(vectors));
  writeFileSync(files.ids, ids.join('\n'));
  const figures: BenchFigure[] = [];
  const formats = [
    { name: 'Pyserini embeddings.jsonl', read: () => readVectorFile({ file: diskInput(files.jsonl) }), bytes: statSync(files.jsonl).size },
    { name: 'Parquet list<float>', read: () => readVectorFile({ file: diskInput(files.parquet) }), bytes: statSync(files.parquet).size },
    { name: '.npy float32 + ids', read: () => readVectorFile({ file: diskInput(files.npy), ids: diskInput(files.ids) }), bytes: statSync(files.npy).size },
  ];
  for (const format of formats) {
    const samples: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const started = performance.now();
      const rows = await format.read();
      const seconds = (performance.now() - started) / 1000;
      if (rows.vectors.rows !== docs || rows.vectors.dim !== dim) throw new Error(`${format.name}: read ${rows.vectors.rows} × ${rows.vectors.dim}`);
      samples.push(Math.round(docs / seconds));
    }
    const median = [...samples].sort((a, b) => a - b)[Math.floor(RUNS / 2)]!;
    process.stderr.write(`${format.name} (${(format.bytes / 2 ** 20).toFixed(0)} MB): ${median} vectors/s (${samples.join(', ')})\n`);
    figures.push({ name: `read ${docs} × ${dim} vectors: ${format.name} (${(format.bytes / 2 ** 20).toFixed(0)} MB)`, unit: 'vectors/s', value: median, samples });
  }
  writeBenchResult({ benchmark: 'vectors', figures, note: 'Node, one thread; median of three reads of each file from disk' });
} finally {
  rmSync(dir, { recursive: true, force: true });
}
