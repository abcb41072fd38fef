import 'fake-indexeddb/auto';
import { readFileSync } from 'node:fs';
import { zipSync, strToU8, gzipSync } from 'fflate';
import { afterEach, describe, expect, test } from 'vitest';
import { classifyFile, inspectFiles, splitFromName, type FileSample } from '../../../src/lib/import/classify.ts';
import { runImport } from '../../../src/lib/import/importer.ts';
import { expandInputs, inspectEntries, localImportPlan, type LocalInput } from '../../../src/lib/import/local.ts';
import { readZipDirectory, zipEntryBytes } from '../../../src/lib/import/zip.ts';
import { loadAllQrels, loadCollection } from '../../../src/lib/storage/collections.ts';
import { PlaygroundDatabase } from '../../../src/lib/storage/db.ts';
import { shared } from '../../shared-dir.ts';
import { writeParquet } from './parquet-writer.ts';

let dbCount = 0;
const opened: PlaygroundDatabase[] = [];
const freshDb = () => {
  const db = new PlaygroundDatabase(`local-test-${dbCount++}`);
  opened.push(db);
  return db;
};
afterEach(() => {
  for (const db of opened.splice(0)) db.close();
});

const sample = (path: string, head?: string, extra: Partial<FileSample> = {}): FileSample => ({ path, size: head?.length ?? 100, gzip: false, parquet: false, ...(head === undefined ? {} : { head }), ...extra });
/** A Blob over bytes (copied into a plain ArrayBuffer, as BlobPart wants). */
const blobOf = (bytes: Uint8Array | string): Blob => new Blob([typeof bytes === 'string' ? bytes : new Uint8Array(bytes)]);
const meta = (id: string) => ({ id, name: id, source: { kind: 'local' as const, detail: 'test' } });

describe('classification by name and content', () => {
  test('a BEIR folder: corpus, queries, qrels per split; the rest ignored', () => {
    const inspection = inspectFiles([
      sample('scifact/corpus.jsonl', '{"_id":"1","title":"t","text":"x"}\n'),
      sample('scifact/queries.jsonl', '{"_id":"q","text":"x"}\n'),
      sample('scifact/qrels/test.tsv', 'query-id\tcorpus-id\tscore\nq\t1\t1\n'),
      sample('scifact/qrels/train.tsv', 'q\t1\t1\n'),
      sample('scifact/README.md', '# hi'),
      sample('scifact/.DS_Store'),
    ]);
    expect(inspection.problems).toEqual([]);
    expect(inspection.plan).toEqual({
      corpus: 'scifact/corpus.jsonl',
      queries: 'scifact/queries.jsonl',
      qrels: [
        { split: 'test', path: 'scifact/qrels/test.tsv' },
        { split: 'train', path: 'scifact/qrels/train.tsv' },
      ],
    });
    expect(inspection.suggestedName).toBe('scifact');
    expect(inspection.files.filter((f) => f.ignored).map((f) => f.path)).toEqual(['scifact/README.md', 'scifact/.DS_Store']);
  });

  test('loose files with unhelpful names are recognised by content', () => {
    const inspection = inspectFiles([
      sample('mine.jsonl', '{"_id":"1","title":"","text":"x"}\n', { size: 5000 }),
      sample('asks.jsonl', '{"_id":"q1","text":"x"}\n', { size: 50 }),
      sample('judgments.csv', 'query-id,corpus-id,score\nq1,1,1\n'),
    ]);
    expect(inspection.plan).toEqual({ corpus: 'mine.jsonl', queries: 'asks.jsonl', qrels: [{ split: 'judgments', path: 'judgments.csv' }] });
  });

  test('gzip, parquet, NanoBEIR folders and split names', () => {
    expect(classifyFile(sample('x/corpus.jsonl.gz', '{"_id":"1"}', { gzip: true }))).toMatchObject({ role: 'corpus', format: 'jsonl' });
    expect(classifyFile(sample('nano/qrels/train-00000-of-00001.parquet', undefined, { parquet: true }))).toMatchObject({ role: 'qrels', split: 'train', format: 'parquet' });
    expect(classifyFile(sample('nano/corpus/train-00000-of-00001.parquet', undefined, { parquet: true }))).toMatchObject({ role: 'corpus' });
    expect(classifyFile(sample('docs.csv', '_id,title,text\n1,a,b\n'))).toMatchObject({ role: 'corpus', format: 'csv' });
    expect(splitFromName('qrels.dev')).toBe('dev');
    expect(splitFromName('qrels')).toBe('test');
  });

  test('what cannot be imported is said: no corpus, two corpora, two files for one split', () => {
    expect(inspectFiles([sample('q.tsv', 'q\t1\t1\n')]).problems[0]).toMatch(/no corpus found/);
    const two = inspectFiles([sample('a/corpus.jsonl', '{}'), sample('b/corpus.jsonl', '{}')]);
    expect(two.plan).toBeUndefined();
    expect(two.problems[0]).toMatch(/2 files look like a corpus: a\/corpus.jsonl, b\/corpus.jsonl/);
    const splits = inspectFiles([sample('corpus.jsonl', '{"title":""}'), sample('qrels/test.tsv', 'q\t1\t1'), sample('test.tsv', 'q\t1\t1')]);
    expect(splits.problems[0]).toMatch(/two judgment files for the split "test"/);
  });

  test('a corpus alone is fine, with warnings about queries and judgments', () => {
    const inspection = inspectFiles([sample('corpus.jsonl', '{"_id":"1","title":"","text":"x"}')]);
    expect(inspection.plan).toEqual({ corpus: 'corpus.jsonl', qrels: [] });
    expect(inspection.warnings.join(' ')).toMatch(/no queries file.*no judgments/s);
  });
});

function scifactZip(extra: Record<string, Uint8Array> = {}): Uint8Array {
  // Qrels listed first on purpose: entries are read in the order the import needs, not the zip's.
  return zipSync({
    'scifact/qrels/test.tsv': readFileSync(shared('beir', 'scifact', 'qrels', 'test.tsv')),
    'scifact/queries.jsonl': readFileSync(shared('beir', 'scifact', 'queries.jsonl')),
    'scifact/corpus.jsonl': [readFileSync(shared('beir', 'scifact', 'corpus.jsonl')), { level: 6 }],
    ...extra,
  });
}

describe('zip', () => {
  test('lists entries from the central directory and streams each one with its checksum checked', async () => {
    const zip = blobOf(scifactZip({ 'scifact/stored.txt': [strToU8('plain'), { level: 0 }] as unknown as Uint8Array }));
    const entries = await readZipDirectory(zip, 'beir.zip');
    expect(entries.map((e) => e.name)).toEqual(['scifact/qrels/test.tsv', 'scifact/queries.jsonl', 'scifact/corpus.jsonl', 'scifact/stored.txt']);
    const corpus = entries.find((e) => e.name.endsWith('corpus.jsonl'))!;
    let bytes = 0;
    for await (const chunk of zipEntryBytes(zip, corpus, 'beir.zip')) bytes += chunk.length;
    expect(bytes).toBe(readFileSync(shared('beir', 'scifact', 'corpus.jsonl')).length);
    const stored = entries.find((e) => e.name.endsWith('stored.txt'))!;
    expect(stored.method).toBe(0);
    const parts: Uint8Array[] = [];
    for await (const chunk of zipEntryBytes(zip, stored, 'beir.zip')) parts.push(chunk);
    expect(new TextDecoder().decode(parts[0])).toBe('plain');
  });

  test('a damaged entry is reported with the zip and entry name', async () => {
    const bytes = scifactZip();
    const entries = await readZipDirectory(blobOf(bytes), 'beir.zip');
    const corpus = entries.find((e) => e.name.endsWith('corpus.jsonl'))!;
    const damaged = bytes.slice();
    const at = corpus.localHeaderOffset + 30 + corpus.name.length + 2000;
    damaged[at] = damaged[at]! ^ 0xff;
    const read = async () => {
      for await (const _ of zipEntryBytes(blobOf(damaged), corpus, 'beir.zip')) void _;
    };
    await expect(read()).rejects.toMatchObject({ name: 'ParseError', file: 'beir.zip/scifact/corpus.jsonl' });
    await expect(readZipDirectory(blobOf(strToU8('not a zip at all')), 'x.zip')).rejects.toThrow(/not a zip file/);
  });

  test('importing SciFact from a BEIR zip: 5,183 docs, 1,109 queries, 300 judged test queries', async () => {
    const db = freshDb();
    const inputs: LocalInput[] = [{ path: 'scifact.zip', blob: blobOf(scifactZip()) }];
    const entries = await expandInputs(inputs);
    const inspection = await inspectEntries(entries);
    expect(inspection.plan?.corpus).toBe('scifact.zip/scifact/corpus.jsonl');
    expect(inspection.suggestedName).toBe('scifact');
    const outcome = await runImport(db, localImportPlan(entries, inspection, meta('local/zip')), { locks: null });
    expect(outcome.status).toBe('done');
    if (outcome.status === 'done') expect(outcome.collection).toMatchObject({ docCount: 5183, queryCount: 1109, splits: ['test'] });
    expect((await loadAllQrels(db, 'local/zip')).get('test')!.size).toBe(300);
  });
});

describe('loose local files', () => {
  test('gzip corpus, CSV queries and headerless CSV qrels, with line numbers of the CSV in errors', async () => {
    const db = freshDb();
    const corpus = gzipSync(strToU8('{"_id":"d1","title":"A","text":"alpha"}\n{"_id":"d2","title":"B","text":"beta"}\n'));
    const queries = '_id,text\nq1,"what is ""alpha"", really?"\nq2,"two\nlines"\n';
    const inputs: LocalInput[] = [
      { path: 'corpus.jsonl.gz', blob: blobOf(corpus) },
      { path: 'queries.csv', blob: blobOf(queries) },
      { path: 'qrels.csv', blob: blobOf('q1,d1,1\nq2,d2,2\n') },
    ];
    const entries = await expandInputs(inputs);
    const inspection = await inspectEntries(entries);
    const outcome = await runImport(db, localImportPlan(entries, inspection, meta('local/csv')), { locks: null });
    expect(outcome.status).toBe('done');
    const { queries: stored, qrels } = await loadCollection(db, 'local/csv');
    expect(stored.get('q1')!.text).toBe('what is "alpha", really?');
    expect(stored.get('q2')!.text).toBe('two\nlines');
    expect(qrels.get('test')!.get('q2')!.get('d2')).toBe(2);

    const bad = [{ path: 'corpus.jsonl', blob: blobOf('{"_id":"d1","title":"","text":"x"}\n') }, { path: 'queries.csv', blob: blobOf('_id,text\nq1,"a\nb"\nq2,x,extra\n') }];
    const badEntries = await expandInputs(bad);
    const failed = await runImport(db, localImportPlan(badEntries, await inspectEntries(badEntries), meta('local/bad')), { locks: null });
    expect(failed.status).toBe('failed');
    if (failed.status === 'failed') expect(failed.error).toMatchObject({ file: 'queries.csv', line: 4, kind: 'invalid-columns' });
  });

  test('a parquet corpus picked from disk is read by row groups; errors name the row', async () => {
    const db = freshDb();
    const ids = Array.from({ length: 250 }, (_, i) => `d${i}`);
    const corpus = writeParquet([{ name: '_id', type: 'string', values: ids }, { name: 'text', type: 'string', values: ids.map((id) => `text ${id}`) }], 100);
    const qrels = writeParquet([{ name: 'query-id', type: 'string', values: ['q1'] }, { name: 'corpus-id', type: 'string', values: ['d3'] }, { name: 'score', type: 'int64', values: [2n] }]);
    const inputs: LocalInput[] = [
      { path: 'nano/corpus/train-00000-of-00001.parquet', blob: blobOf(corpus) },
      { path: 'nano/qrels/test-00000-of-00001.parquet', blob: blobOf(qrels) },
    ];
    const entries = await expandInputs(inputs);
    const outcome = await runImport(db, localImportPlan(entries, await inspectEntries(entries), meta('local/pq')), { locks: null });
    expect(outcome.status).toBe('done');
    const loaded = await loadCollection(db, 'local/pq');
    expect(loaded.docs.map((d) => d.id)).toEqual(ids);
    expect(loaded.qrels.get('test')!.get('q1')!.get('d3')).toBe(2);

    const emptyId = writeParquet([{ name: '_id', type: 'string', values: ['a', ''] }, { name: 'text', type: 'string', values: ['x', 'y'] }]);
    const badEntries = await expandInputs([{ path: 'corpus.parquet', blob: blobOf(emptyId) }]);
    const failed = await runImport(db, localImportPlan(badEntries, await inspectEntries(badEntries), meta('local/pq-bad')), { locks: null });
    if (failed.status === 'failed') expect(failed.error).toMatchObject({ file: 'corpus.parquet', line: 2, reason: '"_id" is empty' });
    else expect.fail('expected a failure');
  });
});
