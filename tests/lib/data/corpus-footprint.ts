/**
 * Time and heap of parsing one corpus file, measured in a fresh process (run by corpus-footprint.test.ts):
 *   node --expose-gc --import tsx tests/lib/data/corpus-footprint.ts <corpus.jsonl[.gz]> [runs]
 * Prints one JSON object. Peak heap and buffers are sampled (at each progress report and every 64
 * documents), garbage included; peakLive is the most the parse holds at once (see `peakLive`).
 */
import { createReadStream, statSync } from 'node:fs';
import { parseCorpus } from '../../../src/lib/data/corpus.ts';
import type { Doc } from '../../../src/lib/types.ts';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc');
const [path, runsArg] = process.argv.slice(2);
if (!path) throw new Error('usage: corpus-footprint.ts <corpus file> [runs]');
const runs = Number(runsArg ?? 5);

const megabytes = (bytes: number) => Math.round((bytes / 2 ** 20) * 10) / 10;

interface Footprint {
  ms: number;
  docs: number;
  /** Highest sampled heapUsed above the starting point. */
  peakHeap: number;
  /** Highest sampled ArrayBuffer memory (read buffers, inflate windows) above the starting point. */
  peakBuffers: number;
  /** Heap still used by the documents after a full GC. */
  retainedHeap: number;
}

/**
 * Highest live memory (heap + ArrayBuffers right after a full GC) at each progress report: what the
 * parse really holds at once, without the garbage a lazy GC leaves around. A separate pass (GCs are slow).
 */
async function peakLive(): Promise<number> {
  gc!();
  const live = () => {
    const { heapUsed, arrayBuffers } = process.memoryUsage();
    return heapUsed + arrayBuffers;
  };
  const before = live();
  let peak = before;
  const docs: Doc[] = [];
  const sample = () => {
    gc!();
    peak = Math.max(peak, live());
  };
  for await (const doc of parseCorpus(createReadStream(path!, { highWaterMark: 1 << 20 }), { onProgress: sample })) docs.push(doc);
  sample();
  return peak - before;
}

async function measure(): Promise<Footprint> {
  gc!();
  const before = process.memoryUsage();
  let peakHeap = before.heapUsed;
  let peakBuffers = before.arrayBuffers;
  const sample = () => {
    const now = process.memoryUsage();
    peakHeap = Math.max(peakHeap, now.heapUsed);
    peakBuffers = Math.max(peakBuffers, now.arrayBuffers);
  };
  const docs: Doc[] = [];
  const start = performance.now();
  for await (const doc of parseCorpus(createReadStream(path!, { highWaterMark: 1 << 20 }), { onProgress: sample })) {
    docs.push(doc);
    if (docs.length % 64 === 0) sample();
  }
  const ms = performance.now() - start;
  sample();
  gc!();
  const retainedHeap = process.memoryUsage().heapUsed - before.heapUsed;
  return { ms, docs: docs.length, peakHeap: peakHeap - before.heapUsed, peakBuffers: peakBuffers - before.arrayBuffers, retainedHeap };
}

// The first run is also the memory measurement: later runs reuse warmed-up code and would flatter nothing.
const first = await measure();
const times = [first.ms];
for (let run = 1; run < runs; run++) times.push((await measure()).ms);
const live = await peakLive();
times.sort((a, b) => a - b);
process.stdout.write(
  `${JSON.stringify({
    file: path,
    fileMB: megabytes(statSync(path).size),
    docs: first.docs,
    firstRunMs: Math.round(first.ms),
    medianMs: Math.round(times[Math.floor(times.length / 2)]!),
    peakHeapMB: megabytes(first.peakHeap),
    peakBuffersMB: megabytes(first.peakBuffers),
    retainedHeapMB: megabytes(first.retainedHeap),
    peakLiveMB: megabytes(live),
  })}\n`,
);
