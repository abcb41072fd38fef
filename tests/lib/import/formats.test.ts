/**
 * Own files in other shapes than BEIR's, through the whole local import (files or a zip → classify →
 * field mapping → parse → store): Pyserini JSON collections (a .jsonl keyed id/contents, a .json array, a
 * folder of parts), folders and zips of .txt/.md documents, and CSV with other column names.
 */
import 'fake-indexeddb/auto';
import { strToU8, zipSync } from 'fflate';
import { afterEach, describe, expect, test } from 'vitest';
import type { ErrorPolicy } from '../../../src/lib/data/record-stream.ts';
import type { ValidationReport } from '../../../src/lib/data/validate.ts';
import type { FieldMapping } from '../../../src/lib/import/field-mapping.ts';
import { runImport, type ImportOutcome } from '../../../src/lib/import/importer.ts';
import { expandInputs, inspectEntries, localImportPlan, type LocalInput } from '../../../src/lib/import/local.ts';
import { loadCollection } from '../../../src/lib/storage/collections.ts';
import { PlaygroundDatabase } from '../../../src/lib/storage/db.ts';

let dbCount = 0;
const opened: PlaygroundDatabase[] = [];
afterEach(() => {
  for (const db of opened.splice(0)) db.close();
});

type Files = Record<string, string | Uint8Array>;
const inputsOf = (files: Files): LocalInput[] => Object.entries(files).map(([path, content]) => ({ path, blob: new Blob([typeof content === 'string' ? content : new Uint8Array(content)]) }));
const zipped = (name: string, files: Files): LocalInput[] => [
  { path: name, blob: new Blob([new Uint8Array(zipSync(Object.fromEntries(Object.entries(files).map(([path, content]) => [path, typeof content === 'string' ? strToU8(content) : content]))))]) },
];

async function inspect(inputs: LocalInput[]) {
  const entries = await expandInputs(inputs);
  return { entries, inspection: await inspectEntries(entries) };
}

async function importAll(inputs: LocalInput[], options: { fields?: FieldMapping; onError?: ErrorPolicy } = {}) {
  const db = new PlaygroundDatabase(`formats-${dbCount++}`);
  opened.push(db);
  const { entries, inspection } = await inspect(inputs);
  const plan = localImportPlan(entries, inspection, { id: 'local/x', name: 'X', source: { kind: 'local', detail: 'test' } }, options.fields);
  const outcome: ImportOutcome = await runImport(db, plan, { locks: null, onError: options.onError ?? 'throw' });
  return { db, inspection, outcome };
}

async function storedDocs(db: PlaygroundDatabase) {
  const loaded = await loadCollection(db, 'local/x');
  return loaded.docs.map((doc) => ({ id: doc.id, title: doc.title, text: doc.text }));
}

describe('Pyserini JSON collections', () => {
  test('a .jsonl keyed id/contents, once refused with "_id" is missing, imports with its mapping guessed', async () => {
    const { inspection, outcome, db } = await importAll(inputsOf({ 'msmarco-sample.jsonl': '{"id":"0","contents":"The presence of communication."}\n{"id":"1","contents":"The Manhattan Project."}\n' }));
    expect(inspection.plan).toEqual({ corpus: 'msmarco-sample.jsonl', qrels: [] });
    expect(inspection.files[0]!.note).toBe('JSON lines with "id" and "contents": documents');
    expect(inspection.fields?.mapping).toEqual({ id: 'id', text: 'contents', title: null });
    expect(outcome.status).toBe('done');
    expect(await storedDocs(db)).toEqual([
      { id: '0', title: '', text: 'The presence of communication.' },
      { id: '1', title: '', text: 'The Manhattan Project.' },
    ]);
  });

  test('a .json file holding an array', async () => {
    const { inspection, outcome, db } = await importAll(inputsOf({ 'wiki-sample.json': '[\n  {"id": "a", "contents": "alpha"},\n  {"id": "b", "contents": "beta"}\n]\n' }));
    expect(inspection.files[0]!.note).toBe('a JSON array of objects with "id" and "contents": documents');
    expect(inspection.fields?.mapping).toEqual({ id: 'id', text: 'contents', title: null });
    expect(outcome.status).toBe('done');
    expect((await storedDocs(db)).map((doc) => doc.id)).toEqual(['a', 'b']);
  });

  test('a folder of .jsonl parts is one corpus, in path order; an id repeated across parts is a duplicate', async () => {
    const { inspection, outcome, db } = await importAll(
      inputsOf({
        'collection/docs10.jsonl': '{"id":"d3","contents":"three"}\n',
        'collection/docs2.jsonl': '{"id":"d2","contents":"two"}\n{"id":"d1","contents":"one again"}\n',
        'collection/docs1.jsonl': '{"id":"d1","contents":"one"}\n',
      }),
    );
    expect(inspection.problems).toEqual([]);
    expect(inspection.plan).toEqual({ corpus: 'collection/docs1.jsonl', corpusParts: ['collection/docs2.jsonl', 'collection/docs10.jsonl'], qrels: [] });
    expect(outcome.status).toBe('done');
    expect(await storedDocs(db)).toEqual([
      { id: 'd1', title: '', text: 'one' },
      { id: 'd2', title: '', text: 'two' },
      { id: 'd3', title: '', text: 'three' },
    ]);
    const report = (outcome as Extract<ImportOutcome, { status: 'done' }>).collection.report as ValidationReport;
    expect(report.corpus.file).toBe('collection/(3 files)');
    expect(report.corpus.duplicates).toEqual([{ file: 'collection/docs2.jsonl', id: 'd1', line: 2, firstLine: 1, firstFile: 'collection/docs1.jsonl' }]);
  });

  test('a bad line in a part names that part and its line', async () => {
    const { outcome } = await importAll(inputsOf({ 'c/p1.jsonl': '{"id":"a","contents":"x"}\n', 'c/p2.jsonl': '{"id":"b","contents":"y"}\n{"id":"c"}\n' }));
    expect(outcome.status).toBe('failed');
    const { error } = outcome as Extract<ImportOutcome, { status: 'failed' }>;
    expect([error.file, error.line, error.reason]).toEqual(['c/p2.jsonl', 2, '"contents" is missing']);
  });

  test('corpus.jsonl beside corpus.jsonl.gz stays a conflict, and so do corpora in two folders', async () => {
    const doc = '{"_id":"a","title":"","text":"x"}\n';
    expect((await inspect(inputsOf({ 's/corpus.jsonl': doc, 's/corpus.json': doc }))).inspection.problems[0]).toMatch(/^2 files look like a corpus/);
    expect((await inspect(inputsOf({ 'one/corpus.jsonl': doc, 'two/corpus.jsonl': doc }))).inspection.problems[0]).toMatch(/^2 files look like a corpus/);
  });
});

describe('folders and zips of text documents', () => {
  const files = {
    'notes/bread.txt': 'Sourdough bread rises slowly.\n',
    'notes/tea.md': '# Green tea\n\nGreen tea is steamed, not fermented.\n',
    'notes/deep/rice.md': 'Rice is boiled or steamed.\n',
    'notes/.DS_Store': 'x',
    'notes/queries.jsonl': '{"_id":"q1","text":"steamed tea"}\n',
  };

  test('a folder: one document per file, with queries beside them', async () => {
    const { inspection, outcome, db } = await importAll(inputsOf(files));
    expect(inspection.plan).toEqual({ corpus: 'notes/bread.txt', corpusParts: ['notes/deep/rice.md', 'notes/tea.md'], queries: 'notes/queries.jsonl', qrels: [] });
    expect(inspection.fields).toBeUndefined();
    expect(inspection.suggestedName).toBe('notes');
    expect(outcome.status).toBe('done');
    expect(await storedDocs(db)).toEqual([
      { id: 'bread', title: '', text: 'Sourdough bread rises slowly.' },
      { id: 'rice', title: '', text: 'Rice is boiled or steamed.' },
      { id: 'tea', title: 'Green tea', text: 'Green tea is steamed, not fermented.' },
    ]);
  });

  test('a zip of them', async () => {
    const { outcome, db } = await importAll(zipped('notes.zip', { 'a.txt': 'first', 'b.md': '# B\nsecond' }));
    expect(outcome.status).toBe('done');
    expect(await storedDocs(db)).toEqual([
      { id: 'a', title: '', text: 'first' },
      { id: 'b', title: 'B', text: 'second' },
    ]);
  });

  test('a README beside a BEIR corpus is not a document', async () => {
    const { inspection } = await inspect(inputsOf({ 's/corpus.jsonl': '{"_id":"a","title":"","text":"x"}\n', 's/README.md': '# About' }));
    expect(inspection.plan?.corpus).toBe('s/corpus.jsonl');
    expect(inspection.files.find((file) => file.path === 's/README.md')).toMatchObject({ ignored: true, note: 'a Markdown file beside the corpus: not imported' });
  });

  test('an unreadable file names itself and its line; with skip, the others are imported and it is listed', async () => {
    const bad = { 'n/ok.txt': 'fine', 'n/latin1.txt': new Uint8Array([...strToU8('line one\ncaf'), 0xe9, 0x0a]) };
    const strict = await importAll(inputsOf(bad));
    expect(strict.outcome.status).toBe('failed');
    const { error } = strict.outcome as Extract<ImportOutcome, { status: 'failed' }>;
    expect([error.file, error.line, error.kind]).toEqual(['n/latin1.txt', 2, 'invalid-utf8']);
    const skipped = await importAll(inputsOf(bad), { onError: 'skip' });
    expect(skipped.outcome.status).toBe('done');
    expect((await storedDocs(skipped.db)).map((doc) => doc.id)).toEqual(['ok']);
    const report = (skipped.outcome as Extract<ImportOutcome, { status: 'done' }>).collection.report as ValidationReport;
    expect(report.corpus.skipped).toEqual([expect.objectContaining({ file: 'n/latin1.txt', line: 2 })]);
  });

  test('two files with one name in different folders: the first is kept, the second is a duplicate', async () => {
    const { outcome, db } = await importAll(inputsOf({ 'n/a/x.txt': 'first', 'n/b/x.md': 'second' }));
    expect(outcome.status).toBe('done');
    expect(await storedDocs(db)).toEqual([{ id: 'x', title: '', text: 'first' }]);
    const report = (outcome as Extract<ImportOutcome, { status: 'done' }>).collection.report as ValidationReport;
    expect(report.corpus.duplicates).toEqual([{ file: 'n/b/x.md', id: 'x', line: 1, firstLine: 1, firstFile: 'n/a/x.txt' }]);
  });
});

describe('CSV and JSON lines with other field names', () => {
  const csv = 'doc_id,headline,body\nd1,Bread,"Sourdough bread, slowly risen."\nd2,Tea,Green tea is steamed.\n';

  test('CSV doc_id, body: guessed, and a corrected title column is used', async () => {
    const { inspection } = await inspect(inputsOf({ 'mine.csv': csv }));
    expect(inspection.fields?.mapping).toEqual({ id: 'doc_id', text: 'body', title: null });
    expect(inspection.fields?.fields).toEqual(['doc_id', 'headline', 'body']);
    const { outcome, db } = await importAll(inputsOf({ 'mine.csv': csv }), { fields: { id: 'doc_id', text: 'body', title: 'headline' } });
    expect(outcome.status).toBe('done');
    expect(await storedDocs(db)).toEqual([
      { id: 'd1', title: 'Bread', text: 'Sourdough bread, slowly risen.' },
      { id: 'd2', title: 'Tea', text: 'Green tea is steamed.' },
    ]);
  });

  test('tab-separated documents and queries (.tsv with a header) are read as tables', async () => {
    const files = {
      'set/corpus.tsv': '_id\ttitle\ttext\nd1\tBread\tSourdough bread, "slowly" risen.\nd2\tTea\tGreen tea is steamed.\n',
      'set/queries.tsv': 'id\tquery\nq1\tbread\n',
      'set/qrels/test.tsv': 'query-id\tcorpus-id\tscore\nq1\td1\t1\n',
    };
    const { inspection, outcome, db } = await importAll(inputsOf(files));
    expect(inspection.plan).toEqual({ corpus: 'set/corpus.tsv', queries: 'set/queries.tsv', qrels: [{ split: 'test', path: 'set/qrels/test.tsv' }] });
    expect(outcome.status).toBe('done');
    expect(await storedDocs(db)).toEqual([
      { id: 'd1', title: 'Bread', text: 'Sourdough bread, "slowly" risen.' },
      { id: 'd2', title: 'Tea', text: 'Green tea is steamed.' },
    ]);
    const loaded = await loadCollection(db, 'local/x');
    expect([...loaded.queries.values()]).toEqual([{ id: 'q1', text: 'bread' }]);
  });

  test('JSON lines read with a chosen mapping; a line without the chosen field names it', async () => {
    const jsonl = '{"key":"k1","passage":"alpha","name":"A"}\n{"key":"k2","passage":"beta","name":"B"}\n{"key":"k3","name":"C"}\n';
    const { inspection } = await inspect(inputsOf({ 'stuff.jsonl': jsonl }));
    expect(inspection.fields?.mapping).toEqual({ id: 'key', text: 'passage', title: null });
    const { outcome } = await importAll(inputsOf({ 'stuff.jsonl': jsonl }), { fields: { id: 'key', text: 'passage', title: 'name' } });
    const { error } = outcome as Extract<ImportOutcome, { status: 'failed' }>;
    expect(error.message).toBe('stuff.jsonl:3: "passage" is missing');
  });

  test('an incomplete mapping is refused before reading, saying what to choose', async () => {
    const { entries, inspection } = await inspect(inputsOf({ 'c.jsonl': '{"key":"same","passage":"p","title":"t"}\n{"key":"same","passage":"q","title":"u"}\n' }));
    expect(inspection.fields?.mapping.id).toBe('');
    expect(() => localImportPlan(entries, inspection, { id: 'x', name: 'x', source: { kind: 'local', detail: '' } })).toThrow('c.jsonl: choose the field that holds the document id');
  });
});
