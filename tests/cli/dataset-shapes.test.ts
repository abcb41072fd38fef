/**
 * `--dataset` takes every shape the page's import takes, read by the page's import code: for each shape a
 * small collection is written in a temporary folder, and `search` and `eval` (in-process through runCli)
 * must give the same documents and the same ranking as the same collection written as a BEIR folder —
 * the run file byte for byte, the search hits with their scores and titles. Shapes without queries or
 * judgments still search, and `eval` says what is missing.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { gzipSync, strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { loadDataset } from '../../src/cli/dataset.ts';
import { writeParquet } from '../lib/import/parquet-writer.ts';
import { tempDir } from '../temp-dir.ts';
import { cli, cliStdout } from './run-cli.ts';

interface Document {
  id: string;
  title: string;
  text: string;
}

/** Distinct BM25 scores for the queries below, so no ranking rests on a tie. */
const DOCS: readonly Document[] = [
  { id: 'd1', title: 'Coffee roasting', text: 'Roasting coffee beans changes their colour, aroma and taste.' },
  { id: 'd2', title: 'Tea', text: 'Green tea is steamed, black tea is oxidised; both come from one plant.' },
  { id: 'd3', title: 'Espresso', text: 'Espresso forces hot water through finely ground coffee, "crema" on top.' },
  { id: 'd4', title: 'Bread', text: 'Sourdough bread rises with wild yeast and lactic bacteria, slowly.' },
  { id: 'd5', title: 'Cheese', text: 'Aged cheese loses water; its taste grows sharper with the months.' },
  { id: 'd6', title: 'Coffee plants', text: 'Arabica and robusta plants give the coffee beans of the world.' },
];
const QUERIES = [
  { id: 'q1', text: 'coffee beans taste' },
  { id: 'q2', text: 'tea plant' },
  { id: 'q3', text: 'bread yeast' },
];
const QRELS: ReadonlyArray<[string, string, number]> = [
  ['q1', 'd1', 2],
  ['q1', 'd6', 1],
  ['q2', 'd2', 1],
  ['q3', 'd4', 1],
];

const scratch = tempDir('rp-shapes-');

const untitled = (docs: readonly Document[]) => docs.map((doc) => ({ ...doc, title: '' }));
const lines = (records: readonly object[]) => records.map((record) => JSON.stringify(record)).join('\n') + '\n';
const qrelsTsv = () => `query-id\tcorpus-id\tscore\n${QRELS.map((row) => row.join('\t')).join('\n')}\n`;
const queriesJsonl = () => lines(QUERIES.map(({ id, text }) => ({ _id: id, text })));
const gz = (text: string) => gzipSync(strToU8(text));

/** Writes `files` (path → content) under a new folder; returns the folder. */
function folder(name: string, files: Record<string, string | Uint8Array>): string {
  const dir = join(scratch, name);
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  return dir;
}

/** The collection as BEIR lays it out: what every other shape is compared with. */
function beirFiles(docs: readonly Document[]): Record<string, string> {
  return {
    'corpus.jsonl': lines(docs.map(({ id, title, text }) => ({ _id: id, title, text }))),
    'queries.jsonl': queriesJsonl(),
    'qrels/test.tsv': qrelsTsv(),
  };
}

const titledBeir = folder('beir-titled', beirFiles(DOCS));
const untitledBeir = folder('beir-untitled', beirFiles(untitled(DOCS)));

/** `eval`'s run file for a dataset (BM25, the default settings). */
async function evalRun(dataset: string): Promise<string> {
  const runOut = join(scratch, `run-${Math.random().toString(36).slice(2)}.txt`);
  await cliStdout(['eval', '--dataset', dataset, '--top-k', '10', '--run-out', runOut]);
  return readFileSync(runOut, 'utf8');
}

interface SearchHits {
  hits: Array<{ docId: string; score: number; title: string }>;
}

async function searchHits(dataset: string, query: string): Promise<SearchHits['hits']> {
  return (JSON.parse(await cliStdout(['search', '--dataset', dataset, '--query', query, '--json'])) as SearchHits).hits;
}

/** `dataset` and `reference` hold the same documents (in order), and rank them alike. */
async function expectSameAs(dataset: string, reference: string, options: { eval: boolean }): Promise<void> {
  const [loaded, expected] = await Promise.all([loadDataset(dataset), loadDataset(reference)]);
  expect(loaded.docs).toEqual(expected.docs);
  for (const { text } of QUERIES) expect(await searchHits(dataset, text)).toEqual(await searchHits(reference, text));
  if (!options.eval) return;
  expect(loaded.queries).toEqual(expected.queries);
  expect(loaded.qrels).toEqual(expected.qrels);
  const run = await evalRun(dataset);
  expect(run.split('\n').length).toBeGreaterThan(QUERIES.length);
  expect(run).toBe(await evalRun(reference));
}

describe('--dataset: every shape the page imports, read as the page reads it', () => {
  it('the reference BEIR folder gives a ranking (the comparisons below are not empty)', async () => {
    expect((await searchHits(titledBeir, 'coffee beans taste')).map((hit) => hit.docId).slice(0, 2)).toEqual(['d1', 'd6']);
  });

  it('a BEIR folder, gzipped', async () => {
    const files = Object.fromEntries(Object.entries(beirFiles(DOCS)).map(([path, text]) => [`${path}.gz`, gz(text)]));
    await expectSameAs(folder('beir-gz', files), titledBeir, { eval: true });
  });

  it('a BEIR zip (one collection folder inside)', async () => {
    const entries = Object.fromEntries(Object.entries(beirFiles(DOCS)).map(([path, text]) => [`mini/${path}`, strToU8(text)]));
    const zip = join(scratch, 'mini.zip');
    writeFileSync(zip, zipSync(entries));
    await expectSameAs(zip, titledBeir, { eval: true });
    expect(JSON.parse(await cliStdout(['eval', '--dataset', zip, '--json'])).dataset).toBe('mini.zip');
  });

  it('a Pyserini JSON collection ({"id", "contents"}) with queries and qrels: eval reads it (the issue’s case)', async () => {
    const dir = folder('pyserini-beir', {
      'corpus.jsonl': lines(DOCS.map(({ id, text }) => ({ id, contents: text }))),
      'queries.jsonl': queriesJsonl(),
      'qrels/test.tsv': qrelsTsv(),
    });
    await expectSameAs(dir, untitledBeir, { eval: true });
    const text = await cliStdout(['eval', '--dataset', dir]);
    expect(text).toMatch(/^# pyserini-beir test: 3 queries, 6 documents; bm25 /);
  });

  it('a Pyserini JSON collection as one .jsonl file (no queries): search reads it, eval says there are no judgments', async () => {
    const file = join(folder('pyserini-file', { 'docs.jsonl': lines(DOCS.map(({ id, text }) => ({ id, contents: text }))) }), 'docs.jsonl');
    await expectSameAs(file, untitledBeir, { eval: false });
    const { stderr, code } = await cli(['eval', '--dataset', file]);
    expect(code).toBe(2);
    expect(stderr).toBe(`error: ${file} has no judgments (qrels), so no split "test" to evaluate; search works without them\n`);
  });

  it('a Pyserini JSON collection, gzipped', async () => {
    const file = join(folder('pyserini-gz', { 'docs.jsonl.gz': gz(lines(DOCS.map(({ id, text }) => ({ id, contents: text })))) }), 'docs.jsonl.gz');
    await expectSameAs(file, untitledBeir, { eval: false });
  });

  it('a folder of Pyserini parts: one object per line, and a JSON array', async () => {
    const dir = folder('collection', {
      'docs00.json': lines(DOCS.slice(0, 3).map(({ id, text }) => ({ id, contents: text }))),
      'docs01.json': JSON.stringify(DOCS.slice(3).map(({ id, text }) => ({ id, contents: text })), null, 2),
    });
    await expectSameAs(dir, untitledBeir, { eval: false });
    expect((await loadDataset(dir)).files.corpusParts).toEqual([join(dir, 'docs01.json')]);
  });

  it('a folder of .txt and .md files, with queries and qrels beside them', async () => {
    const files: Record<string, string> = { 'queries.jsonl': queriesJsonl(), 'qrels/test.tsv': qrelsTsv() };
    // Odd documents as Markdown with their title as heading, even ones as plain text (no title).
    for (const [index, doc] of DOCS.entries()) {
      if (index % 2 === 0) files[`notes/${doc.id}.md`] = `# ${doc.title}\n\n${doc.text}\n`;
      else files[`notes/${doc.id}.txt`] = `${doc.text}\n`;
    }
    const expected = folder('beir-notes', beirFiles(DOCS.map((doc, index) => (index % 2 === 0 ? doc : { ...doc, title: '' }))));
    await expectSameAs(folder('notes-set', files), expected, { eval: true });
  });

  it('a hidden folder named on the command line is read (its files are not hidden)', async () => {
    await expectSameAs(folder('.cache-set', beirFiles(DOCS)), titledBeir, { eval: true });
  });

  it('a folder of text files only: search reads it', async () => {
    const dir = folder('texts', Object.fromEntries(DOCS.map((doc) => [`${doc.id}.txt`, doc.text])));
    await expectSameAs(dir, untitledBeir, { eval: false });
    const { stderr } = await cli(['eval', '--dataset', dir]);
    expect(stderr).toBe(`error: ${dir} has no judgments (qrels), so no split "test" to evaluate; search works without them\n`);
  });

  it('CSV (quoted fields, a gzipped corpus, judgments as CSV)', async () => {
    const quote = (value: string) => `"${value.replace(/"/g, '""')}"`;
    const corpus = `_id,title,text\n${DOCS.map((doc) => [doc.id, doc.title, quote(doc.text)].join(',')).join('\n')}\n`;
    const dir = folder('csv', {
      'corpus.csv.gz': gz(corpus),
      'queries.csv': `_id,text\n${QUERIES.map((query) => `${query.id},${query.text}`).join('\n')}\n`,
      'qrels/test.csv': `query-id,corpus-id,score\n${QRELS.map((row) => row.join(',')).join('\n')}\n`,
    });
    await expectSameAs(dir, titledBeir, { eval: true });
  });

  it('TSV with a header (documents and queries; BEIR qrels)', async () => {
    const dir = folder('tsv', {
      'corpus.tsv': `_id\ttitle\ttext\n${DOCS.map((doc) => [doc.id, doc.title, doc.text].join('\t')).join('\n')}\n`,
      'queries.tsv': `_id\ttext\n${QUERIES.map((query) => `${query.id}\t${query.text}`).join('\n')}\n`,
      'qrels/test.tsv': qrelsTsv(),
    });
    await expectSameAs(dir, titledBeir, { eval: true });
  });

  it('parquet (NanoBEIR-style corpus, queries and qrels)', async () => {
    const dir = folder('parquet', {
      'corpus/corpus.parquet': writeParquet([
        { name: '_id', type: 'string', values: DOCS.map((doc) => doc.id) },
        { name: 'title', type: 'string', values: DOCS.map((doc) => doc.title) },
        { name: 'text', type: 'string', values: DOCS.map((doc) => doc.text) },
      ]),
      'queries/queries.parquet': writeParquet([
        { name: '_id', type: 'string', values: QUERIES.map((query) => query.id) },
        { name: 'text', type: 'string', values: QUERIES.map((query) => query.text) },
      ]),
      'qrels/test.parquet': writeParquet([
        { name: 'query-id', type: 'string', values: QRELS.map((row) => row[0]) },
        { name: 'corpus-id', type: 'string', values: QRELS.map((row) => row[1]) },
        { name: 'score', type: 'int64', values: QRELS.map((row) => BigInt(row[2])) },
      ]),
    });
    await expectSameAs(dir, titledBeir, { eval: true });
  });
});

describe('--dataset: what cannot be read is said clearly', () => {
  it('a bad record names the file and the line', async () => {
    const file = join(folder('bad-pyserini', { 'docs.jsonl': `${JSON.stringify({ id: 'a', contents: 'fine' })}\n${JSON.stringify({ id: 7, contents: 'a number as id' })}\n` }), 'docs.jsonl');
    const { stderr, code } = await cli(['search', '--dataset', file, '--query', 'fine']);
    expect(code).toBe(1);
    expect(stderr).toBe(`error: ${file}:2: "id" must be a string, found the number 7 (write it in quotes)\n`);
  });

  it('a bad CSV row names the file and the line', async () => {
    const dir = folder('bad-csv', { 'corpus.csv': '_id,title,text\nd1,One,first\nd2,Two\n' });
    const { stderr } = await cli(['search', '--dataset', dir, '--query', 'first']);
    expect(stderr).toBe(`error: ${join(dir, 'corpus.csv')}:3: expected 3 comma-separated fields (_id, title, text), found 2\n`);
  });

  it('a corpus without queries: eval says the judgments have nothing to evaluate', async () => {
    const dir = folder('no-queries', { 'corpus.jsonl': beirFiles(DOCS)['corpus.jsonl']!, 'qrels/test.tsv': qrelsTsv() });
    const { stderr } = await cli(['eval', '--dataset', dir]);
    expect(stderr).toBe(`error: ${dir} has no queries file, so the judgments of split "test" (${join(dir, 'qrels', 'test.tsv')}) have nothing to evaluate\n`);
  });

  it('a split the dataset does not judge lists the splits it has', async () => {
    const dir = folder('csv-splits', { 'corpus.csv': '_id,text\nd1,one\n', 'queries.jsonl': queriesJsonl(), 'qrels.dev.csv': 'query-id,corpus-id,score\nq1,d1,1\n' });
    const { stderr } = await cli(['eval', '--dataset', dir, '--split', 'test']);
    expect(stderr).toBe(`error: ${dir} has no judgments for split "test" (splits: dev)\n`);
  });

  it('records whose id field cannot be guessed: which field to name (the page asks in its preview)', async () => {
    const file = join(folder('no-id', { 'c.jsonl': '{"key":"same","passage":"p","title":"t"}\n{"key":"same","passage":"q","title":"u"}\n' }), 'c.jsonl');
    const { stderr } = await cli(['search', '--dataset', file, '--query', 'p']);
    expect(stderr).toBe(`error: c.jsonl: choose the field that holds the document id (in ${file})\n`);
  });

  it('files that make no collection: the classification’s reason', async () => {
    const dir = folder('two-corpora', { 'a/corpus.jsonl': beirFiles(DOCS)['corpus.jsonl']!, 'b/corpus.jsonl': beirFiles(DOCS)['corpus.jsonl']! });
    const { stderr } = await cli(['search', '--dataset', dir, '--query', 'coffee']);
    expect(stderr).toMatch(/^error: .*two-corpora: 2 files look like a corpus: two-corpora\/a\/corpus\.jsonl, two-corpora\/b\/corpus\.jsonl\./);
  });
});
