/**
 * `npm run bench:import [-- --mb 200] [--json]`: streaming a large corpus through the import path with
 * bounded memory. The corpus (bench/import-corpus.ts) is generated on the fly and never stored, so the
 * figures say what the import holds, not what the file is. Scenarios, each after a full GC:
 *
 * - `lines`: raw lines only (readLineBatches);
 * - `parse`: documents parsed and counted (parseCorpus), the "only counting docs" case;
 * - `parse .gz`: the same bytes gzip-compressed on the fly, then decompressed and parsed;
 * - `import`: the whole import (planRecords → importCollection: parsing, batching, the content fingerprint,
 *   validation) into fake-indexeddb with the document writes discarded, so the figure is what the import
 *   keeps in memory (a small stub per document for validation) and not the in-memory database.
 *
 * Peak growth is sampled every 1,000 documents: V8 heap (`heapUsed`, which includes garbage not yet
 * collected), heap plus off-heap buffers (`external` + `arrayBuffers`, where the byte chunks live), and the
 * process's resident set; and every 20,000 documents after a full GC (`live heap`: what is really retained).
 */
import 'fake-indexeddb/auto';
import { parseArgs } from 'node:util';
import { parseCorpus } from '../src/lib/data/corpus.ts';
import { readLineBatches } from '../src/lib/data/lines.ts';
import { createParseLog } from '../src/lib/data/record-stream.ts';
import type { ImportFile } from '../src/lib/import/import-file.ts';
import { planRecords } from '../src/lib/import/records.ts';
import { importCollection } from '../src/lib/storage/collections.ts';
import { PlaygroundDatabase } from '../src/lib/storage/db.ts';
import { gzipped, PeakMeter, syntheticCorpus } from './import-corpus.ts';
import { writeBenchResult } from './results-file.ts';

const { values } = parseArgs({ options: { mb: { type: 'string', default: '200' }, json: { type: 'boolean', default: false } } });
const bytes = Number(values.mb) * 1024 * 1024;

interface Figures {
  scenario: string;
  docs: number;
  corpusMB: number;
  /** Compressed size, for the gzip scenario. */
  gzipMB?: number;
  seconds: number;
  mbPerSecond: number;
  peakHeapMB: number;
  peakHeapAndBuffersMB: number;
  peakRssMB: number;
  /** Peak heap growth right after a full GC (sampled every 20,000 documents): what the import retains. */
  peakLiveHeapMB?: number;
}

const MB = 1024 * 1024;
const gc = (globalThis as { gc?: () => void }).gc;

async function measure(scenario: string, run: (sample: () => void, counts: { docs: number; bytes: number }, gz: { bytes: number }) => Promise<void>): Promise<Figures> {
  gc?.();
  const heap = new PeakMeter(() => process.memoryUsage().heapUsed);
  const buffers = new PeakMeter(() => {
    const m = process.memoryUsage();
    return m.heapUsed + m.external + m.arrayBuffers;
  });
  const rss = new PeakMeter(() => process.memoryUsage().rss);
  const live = new PeakMeter(() => process.memoryUsage().heapUsed);
  for (const meter of [heap, buffers, rss, live]) meter.start();
  let samples = 0;
  const counts = { docs: 0, bytes: 0 };
  const gz = { bytes: 0 };
  const started = performance.now();
  await run(() => {
    heap.sample();
    buffers.sample();
    rss.sample();
    if (gc !== undefined && ++samples % 20 === 0) {
      gc();
      live.sample();
    }
  }, counts, gz);
  const seconds = (performance.now() - started) / 1000;
  return {
    scenario,
    docs: counts.docs,
    corpusMB: counts.bytes / MB,
    ...(gz.bytes > 0 ? { gzipMB: gz.bytes / MB } : {}),
    seconds,
    mbPerSecond: counts.bytes / MB / seconds,
    peakHeapMB: heap.peak / MB,
    peakHeapAndBuffersMB: buffers.peak / MB,
    peakRssMB: rss.peak / MB,
    ...(gc === undefined ? {} : { peakLiveHeapMB: live.peak / MB }),
  };
}

function every1000(sample: () => void): () => void {
  let n = 0;
  return () => {
    if (++n % 1000 === 0) sample();
  };
}

const scenarios: Array<Promise<Figures> | (() => Promise<Figures>)> = [
  () =>
    measure('lines', async (sample, counts) => {
      const tick = every1000(sample);
      for await (const batch of readLineBatches(syntheticCorpus({ bytes }, counts), { file: 'corpus.jsonl' })) for (const _ of batch) tick();
    }),
  () =>
    measure('parse', async (sample, counts) => {
      const tick = every1000(sample);
      let docs = 0;
      for await (const _ of parseCorpus(syntheticCorpus({ bytes }, counts), { onError: 'throw', log: createParseLog() })) {
        docs += 1;
        tick();
      }
      if (docs !== counts.docs) throw new Error(`parsed ${docs} of ${counts.docs} documents`);
    }),
  () =>
    measure('parse .gz', async (sample, counts, gz) => {
      const tick = every1000(sample);
      for await (const _ of parseCorpus(gzipped(syntheticCorpus({ bytes }, counts), gz), { onError: 'throw', log: createParseLog() })) tick();
    }),
  () =>
    measure('import', async (sample, counts) => {
      const db = new PlaygroundDatabase(`bench-import-${Date.now()}`);
      // Discard the documents: fake-indexeddb keeps everything in memory, which would be the database's
      // footprint, not the import's.
      db.documentChunks.bulkAdd = (async () => undefined) as unknown as typeof db.documentChunks.bulkAdd;
      const corpus: ImportFile = { role: 'corpus', format: 'jsonl', name: 'corpus.jsonl', open: async () => syntheticCorpus({ bytes }, counts) };
      const records = planRecords({ meta: { id: 'big', name: 'Big', source: { kind: 'local', detail: 'bench' } }, corpus, qrels: [] });
      const row = await importCollection(db, { id: 'big', name: 'Big', source: { kind: 'local', detail: 'bench' } }, records, {
        locks: null,
        // Reported once per written batch (1,000 documents or 4 MiB) of document chunks.
        onProgress: () => sample(),
        batchSize: 1000,
      });
      sample();
      if (row.docCount !== counts.docs) throw new Error(`imported ${row.docCount} of ${counts.docs} documents`);
      await db.delete();
    }),
];

const results: Figures[] = [];
for (const scenario of scenarios) results.push(await (typeof scenario === 'function' ? scenario() : scenario));

writeBenchResult({
  benchmark: 'import',
  note: `a ${values.mb} MiB generated corpus, never written to disk`,
  figures: results.flatMap((r) => [
    { name: `${r.scenario}: throughput (${values.mb} MiB corpus${r.gzipMB === undefined ? '' : `, ${r.gzipMB.toFixed(0)} MiB gzip`})`, unit: 'MiB/s', value: r.mbPerSecond },
    { name: `${r.scenario}: peak heap`, unit: 'MiB', value: r.peakHeapMB },
  ]),
});

if (values.json) {
  console.log(JSON.stringify({ gcExposed: gc !== undefined, results }, null, 2));
} else {
  const f = (x: number, digits = 1) => x.toFixed(digits);
  console.log(`Synthetic corpus of ${values.mb} MB (generated on the fly, never stored); Node ${process.version}; GC ${gc ? 'run before each scenario' : 'not exposed (run with node --expose-gc)'}.\n`);
  console.log('| scenario | docs | corpus MB | gzip MB | s | MB/s | peak heap MB | peak live heap MB | peak heap+buffers MB | peak RSS MB |');
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const r of results) {
    console.log(`| ${r.scenario} | ${r.docs.toLocaleString('en-US')} | ${f(r.corpusMB)} | ${r.gzipMB === undefined ? '' : f(r.gzipMB)} | ${f(r.seconds)} | ${f(r.mbPerSecond)} | ${f(r.peakHeapMB)} | ${r.peakLiveHeapMB === undefined ? '' : f(r.peakLiveHeapMB)} | ${f(r.peakHeapAndBuffersMB)} | ${f(r.peakRssMB)} |`);
  }
}
