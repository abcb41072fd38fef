/**
 * A 200 MB corpus streamed through the parser and through the whole import with bounded memory. The corpus
 * is generated on the fly (bench/import-corpus.ts) and never stored. Memory is sampled every 1,000
 * documents as V8's `heapUsed` growth, which also counts garbage not yet collected (no GC is forced here:
 * vitest does not expose it), so the bounds are generous; `npm run bench:import` reports the same figures
 * with a full GC before each run, and the heap really retained.
 */
import 'fake-indexeddb/auto';
import { expect, test } from 'vitest';
import { gzipped, PeakMeter, syntheticCorpus } from '../../../bench/import-corpus.ts';
import { parseCorpus } from '../../../src/lib/data/corpus.ts';
import { createParseLog } from '../../../src/lib/data/record-stream.ts';
import type { ImportFile } from '../../../src/lib/import/import-file.ts';
import { planRecords } from '../../../src/lib/import/records.ts';
import { importCollection } from '../../../src/lib/storage/collections.ts';
import type { DocumentChunkRow } from '../../../src/lib/storage/document-chunks.ts';
import { PlaygroundDatabase } from '../../../src/lib/storage/db.ts';

const MB = 1024 * 1024;
const CORPUS_BYTES = 200 * MB;

test('counting the documents of a 200 MB corpus: peak heap growth stays under half the corpus', async () => {
  const counts = { docs: 0, bytes: 0 };
  const heap = new PeakMeter(() => process.memoryUsage().heapUsed);
  heap.start();
  let docs = 0;
  let lastId = '';
  for await (const doc of parseCorpus(syntheticCorpus({ bytes: CORPUS_BYTES }, counts), { onError: 'throw', log: createParseLog() })) {
    docs += 1;
    lastId = doc.id;
    if (docs % 1000 === 0) heap.sample();
  }
  heap.sample();
  expect(counts.bytes).toBeGreaterThanOrEqual(CORPUS_BYTES);
  expect(docs).toBe(counts.docs);
  expect(lastId).toBe(`doc${counts.docs - 1}`);
  console.log(`parse: ${docs} docs, ${(counts.bytes / MB).toFixed(1)} MB, peak heap growth ${(heap.peak / MB).toFixed(1)} MB`);
  expect(heap.peak).toBeLessThan(CORPUS_BYTES / 2);
});

test('a 50 MB gzip stream (decompressed on the fly) also parses in bounded memory', async () => {
  const counts = { docs: 0, bytes: 0 };
  const compressed = { bytes: 0 };
  const heap = new PeakMeter(() => process.memoryUsage().heapUsed);
  heap.start();
  let docs = 0;
  for await (const _ of parseCorpus(gzipped(syntheticCorpus({ bytes: 50 * MB, seed: 7 }, counts), compressed), { onError: 'throw', log: createParseLog() })) {
    docs += 1;
    if (docs % 1000 === 0) heap.sample();
  }
  expect(docs).toBe(counts.docs);
  expect(compressed.bytes).toBeLessThan(counts.bytes / 2);
  console.log(`parse .gz: ${docs} docs, ${(counts.bytes / MB).toFixed(1)} MB (${(compressed.bytes / MB).toFixed(1)} MB gzip), peak heap growth ${(heap.peak / MB).toFixed(1)} MB`);
  expect(heap.peak).toBeLessThan(50 * MB);
});

test('the whole import of a 200 MB corpus (document writes discarded) holds far less than the corpus', async () => {
  const db = new PlaygroundDatabase('large-corpus-test');
  // fake-indexeddb keeps every row in memory: that would be the database's footprint, not the import's.
  let written = 0;
  db.documentChunks.bulkAdd = (async (rows: DocumentChunkRow[]) => {
    for (const row of rows) written += row.ids.length;
  }) as unknown as typeof db.documentChunks.bulkAdd;
  const counts = { docs: 0, bytes: 0 };
  const heap = new PeakMeter(() => process.memoryUsage().heapUsed);
  heap.start();
  const meta = { id: 'big', name: 'Big', source: { kind: 'local' as const, detail: 'test' } };
  const corpus: ImportFile = { role: 'corpus', format: 'jsonl', name: 'corpus.jsonl', open: async () => syntheticCorpus({ bytes: CORPUS_BYTES, seed: 3 }, counts) };
  const row = await importCollection(db, meta, planRecords({ meta, corpus, qrels: [] }), { locks: null, onProgress: () => heap.sample() });
  heap.sample();
  expect(row.docCount).toBe(counts.docs);
  expect(written).toBe(counts.docs);
  expect(row.fingerprint).toMatch(new RegExp(`^${counts.docs}:[0-9a-f]{8}$`));
  console.log(`import: ${row.docCount} docs, ${(counts.bytes / MB).toFixed(1)} MB, peak heap growth ${(heap.peak / MB).toFixed(1)} MB`);
  expect(heap.peak).toBeLessThan(CORPUS_BYTES * 0.75);
  await db.delete();
});
