/**
 * Every class of bad input through the whole local import (files or a zip → classify → parse → store →
 * validation report), once stopping at the first bad line and once skipping bad lines: what the person sees
 * (file, line, problem), what is stored (nothing on failure), and what the report lists. The parsers' own
 * tests (tests/lib/data) cover each rule in depth; this file checks that each problem reaches the import's
 * outcome intact. A table of the outcomes is printed at the end.
 */
import 'fake-indexeddb/auto';
import { gzipSync, strToU8, zipSync } from 'fflate';
import { afterAll, afterEach, describe, expect, test } from 'vitest';
import type { ErrorPolicy } from '../../../src/lib/data/record-stream.ts';
import { countIssues, type ValidationReport } from '../../../src/lib/data/validate.ts';
import { canRetrySkipping } from '../../../src/lib/import/import-failure.ts';
import { runImport, type ImportOutcome } from '../../../src/lib/import/importer.ts';
import { expandInputs, inspectEntries, localImportPlan, type LocalInput } from '../../../src/lib/import/local.ts';
import { PlaygroundDatabase } from '../../../src/lib/storage/db.ts';

let dbCount = 0;
const opened: PlaygroundDatabase[] = [];
afterEach(() => {
  for (const db of opened.splice(0)) db.close();
});

const table: string[] = [];
afterAll(() => {
  console.log(['| input | stop at first bad line | skip bad lines |', '|---|---|---|', ...table].join('\n'));
});

type Files = Record<string, string | Uint8Array>;

const doc = (id: unknown, text = `text of ${String(id)}`, title = 'T') => JSON.stringify({ _id: id, title, text });
const GOOD_DOCS = ['d1', 'd2', 'd3', 'd4'].map((id) => doc(id));
const QUERIES = '{"_id":"q1","text":"first"}\n{"_id":"q2","text":"second"}\n';
const QRELS = 'query-id\tcorpus-id\tscore\nq1\td1\t1\nq2\td2\t2\n';

/** A BEIR folder with good files, some of them replaced. */
function beir(replace: Partial<Record<'corpus.jsonl' | 'queries.jsonl' | 'qrels/test.tsv', string | Uint8Array>> = {}, extra: Files = {}): Files {
  return { 'corpus.jsonl': GOOD_DOCS.join('\n') + '\n', 'queries.jsonl': QUERIES, 'qrels/test.tsv': QRELS, ...replace, ...extra };
}

function inputsOf(files: Files, folder = 'set'): LocalInput[] {
  return Object.entries(files).map(([path, content]) => ({ path: `${folder}/${path}`, blob: new Blob([typeof content === 'string' ? content : new Uint8Array(content)]) }));
}

function zipped(files: Files, name = 'set.zip'): LocalInput[] {
  const entries = Object.fromEntries(Object.entries(files).map(([path, content]) => [path, typeof content === 'string' ? strToU8(content) : content]));
  return [{ path: name, blob: new Blob([new Uint8Array(zipSync(entries))]) }];
}

interface Run {
  /** Refused before anything was read (classification problems). */
  refused?: string;
  outcome?: ImportOutcome;
  stored: number;
}

async function importInputs(inputs: LocalInput[], onError: ErrorPolicy): Promise<Run> {
  const db = new PlaygroundDatabase(`bad-files-${dbCount++}`);
  opened.push(db);
  let plan;
  try {
    const entries = await expandInputs(inputs);
    const inspection = await inspectEntries(entries);
    if (inspection.plan === undefined) return { refused: inspection.problems.join(' '), stored: 0 };
    plan = localImportPlan(entries, inspection, { id: 'local/x', name: 'X', source: { kind: 'local', detail: 'test' } });
  } catch (error) {
    return { refused: error instanceof Error ? error.message : String(error), stored: 0 };
  }
  const outcome = await runImport(db, plan, { locks: null, onError });
  return { outcome, stored: (await db.documentChunks.count()) + (await db.queries.count()) + (await db.qrels.count()) + (await db.collections.count()) };
}

function summary(run: Run): string {
  if (run.refused !== undefined) return `refused: ${run.refused}`;
  const outcome = run.outcome!;
  if (outcome.status === 'failed') {
    const e = outcome.error;
    return `failed: \`${e.file}\` line ${e.line ?? '–'}, ${e.kind}: ${e.reason ?? e.message}${canRetrySkipping(e) ? ' (offers "skip bad lines")' : ''}`;
  }
  if (outcome.status === 'cancelled') return 'cancelled';
  const c = outcome.collection;
  const report = c.report as ValidationReport;
  const notes: string[] = [];
  const skipped = [...report.corpus.skipped, ...report.queries.skipped, ...report.splits.flatMap((s) => s.skipped)];
  if (skipped.length > 0) notes.push(`skipped ${skipped.map((s) => `${s.file}:${s.line}`).join(', ')}`);
  if (report.corpus.duplicates.length > 0) notes.push(`duplicate ids ${report.corpus.duplicates.map((d) => `${d.id}@${d.line}`).join(', ')}`);
  if (report.corpus.emptyDocs.length > 0) notes.push(`empty docs ${report.corpus.emptyDocs.join(', ')}`);
  for (const split of report.splits) {
    if (split.unknownDocs.length > 0) notes.push(`unknown docs ${split.unknownDocs.map((p) => p.docId).join(', ')}`);
    if (split.unknownQueries.length > 0) notes.push(`unknown queries ${split.unknownQueries.join(', ')}`);
    if (split.header === null) notes.push('no qrels header');
  }
  return `stored ${c.docCount} docs, ${c.queryCount} queries, ${report.splits.map((s) => s.pairs).join('/') || 0} judgments; ${countIssues(report)} issues${notes.length > 0 ? ` (${notes.join('; ')})` : ''}`;
}

interface Case {
  name: string;
  inputs: () => LocalInput[];
  /** Stopping at the first bad line. */
  strict: Expected;
  /** Skipping bad lines; default: the same as strict. */
  skip?: Expected;
}

type Expected =
  | { refused: RegExp }
  | { failed: { file: string; line: number; kind: string; reason: RegExp | string; retry: boolean } }
  | { done: { docs: number; queries: number; judgments: number; check?: (report: ValidationReport) => void } };

const latin1 = new Uint8Array([...strToU8(`${doc('d1')}\n{"_id":"d2","title":"Caf`), 0xe9, ...strToU8(`","text":"x"}\n${doc('d3')}\n`)]);
const utf16 = (text: string) => new Uint8Array([0xff, 0xfe, ...[...text].flatMap((c) => [c.charCodeAt(0) & 0xff, c.charCodeAt(0) >> 8])]);
const gz = (text: string) => new Uint8Array(gzipSync(strToU8(text)));
const truncatedGz = () => {
  const whole = gz(Array.from({ length: 200 }, (_, i) => doc(`d${i}`, 'x '.repeat(40))).join('\n'));
  return whole.slice(0, Math.floor(whole.length / 2));
};
const flippedGz = () => {
  const whole = gz(GOOD_DOCS.join('\n'));
  whole[whole.length - 6] = whole[whole.length - 6]! ^ 0xff; // inside the CRC-32 trailer
  return whole;
};

const cases: Case[] = [
  {
    name: 'malformed JSON line (corpus line 3)',
    inputs: () => inputsOf(beir({ 'corpus.jsonl': [doc('d1'), doc('d2'), '{"_id":"d3","text": broken}', doc('d4')].join('\n') })),
    strict: { failed: { file: 'set/corpus.jsonl', line: 3, kind: 'invalid-json', reason: /invalid JSON \(.* at column 21\)/, retry: true } },
    skip: { done: { docs: 3, queries: 2, judgments: 2, check: (r) => expect(r.corpus.skipped).toEqual([expect.objectContaining({ line: 3, kind: 'invalid-json' })]) } },
  },
  {
    name: 'missing `_id`',
    inputs: () => inputsOf(beir({ 'corpus.jsonl': [doc('d1'), '{"title":"t","text":"no id"}', doc('d2')].join('\n') })),
    strict: { failed: { file: 'set/corpus.jsonl', line: 2, kind: 'missing-field', reason: '"_id" is missing', retry: true } },
    skip: { done: { docs: 2, queries: 2, judgments: 2 } },
  },
  {
    name: 'numeric `_id`',
    inputs: () => inputsOf(beir({ 'corpus.jsonl': [doc('d1'), doc(12345678901234567890), doc('d2')].join('\n') })),
    strict: { failed: { file: 'set/corpus.jsonl', line: 2, kind: 'invalid-field', reason: /"_id" must be a string, found the number .* \(write it in quotes\)/, retry: true } },
    skip: { done: { docs: 2, queries: 2, judgments: 2 } },
  },
  {
    name: 'null / array `_id` in queries',
    inputs: () => inputsOf(beir({ 'queries.jsonl': '{"_id":"q1","text":"a"}\n{"_id":null,"text":"b"}\n{"_id":["q3"],"text":"c"}\n' })),
    strict: { failed: { file: 'set/queries.jsonl', line: 2, kind: 'invalid-field', reason: '"_id" must be a string, found null', retry: true } },
    skip: { done: { docs: 4, queries: 1, judgments: 2, check: (r) => expect(r.queries.skipped.map((s) => s.line)).toEqual([2, 3]) } },
  },
  {
    name: 'duplicate ids (first kept)',
    inputs: () => inputsOf(beir({ 'corpus.jsonl': [doc('d1'), doc('d2'), doc('d1', 'again'), doc('d3')].join('\n') })),
    strict: { done: { docs: 3, queries: 2, judgments: 2, check: (r) => expect(r.corpus.duplicates).toEqual([expect.objectContaining({ id: 'd1', line: 3, firstLine: 1 })]) } },
  },
  {
    name: 'empty title and text',
    inputs: () => inputsOf(beir({ 'corpus.jsonl': [doc('d1'), doc('d2', '  ', ''), doc('d3', '', '')].join('\n') })),
    strict: { done: { docs: 3, queries: 2, judgments: 2, check: (r) => expect(r.corpus.emptyDocs).toEqual(['d2', 'd3']) } },
  },
  {
    name: 'invalid UTF-8 (a Latin-1 é)',
    inputs: () => inputsOf(beir({ 'corpus.jsonl': latin1 })),
    strict: { failed: { file: 'set/corpus.jsonl', line: 2, kind: 'invalid-utf8', reason: 'the line is not valid UTF-8 (byte 0xE9 at byte 25); is the file Latin-1 or Windows-1252?', retry: true } },
    skip: { done: { docs: 2, queries: 2, judgments: 2 } },
  },
  {
    name: 'UTF-16 file',
    inputs: () => inputsOf(beir({ 'corpus.jsonl': utf16(GOOD_DOCS.join('\n')) })),
    strict: { failed: { file: 'set/corpus.jsonl', line: 1, kind: 'invalid-utf8', reason: /the file is UTF-16 text/, retry: true } },
    // Every line is bad once the BOM is gone (NUL bytes between the characters): nothing to keep.
    skip: { failed: { file: 'set/corpus.jsonl', line: 0, kind: 'empty-file', reason: 'the file holds no documents (4 bad lines skipped)', retry: false } },
  },
  {
    name: 'BOM, CRLF line ends and blank lines',
    inputs: () => inputsOf(beir({ 'corpus.jsonl': `\uFEFF${GOOD_DOCS.join('\r\n\r\n')}\r\n\r\n`, 'qrels/test.tsv': QRELS.replace(/\n/g, '\r\n') })),
    strict: { done: { docs: 4, queries: 2, judgments: 2, check: (r) => expect(countIssues(r)).toBe(0) } },
  },
  {
    name: 'qrels without a header',
    inputs: () => inputsOf(beir({ 'qrels/test.tsv': 'q1\td1\t1\nq2\td2\t2\n' })),
    strict: { done: { docs: 4, queries: 2, judgments: 2, check: (r) => expect(r.splits[0]!.header).toBeNull() } },
  },
  {
    name: 'qrels with another header wording',
    inputs: () => inputsOf(beir({ 'qrels/test.tsv': 'qid\tdocid\trel\nq1\td1\t1\nq2\td2\t2\n' })),
    strict: { done: { docs: 4, queries: 2, judgments: 2, check: (r) => expect(r.splits[0]!.header).toBe('qid\tdocid\trel') } },
  },
  {
    name: 'non-integer grade',
    inputs: () => inputsOf(beir({ 'qrels/test.tsv': `${QRELS}q1\td3\t0.5\n` })),
    strict: { failed: { file: 'set/qrels/test.tsv', line: 4, kind: 'invalid-number', reason: 'score "0.5" is not an integer grade', retry: true } },
    skip: { done: { docs: 4, queries: 2, judgments: 2 } },
  },
  {
    name: 'qrels separated by spaces',
    inputs: () => inputsOf(beir({ 'qrels/test.tsv': 'q1 d1 1\nq2 d2 2\n' })),
    strict: { failed: { file: 'set/qrels/test.tsv', line: 1, kind: 'invalid-columns', reason: /found 1 \(the columns seem to be separated by spaces, not tabs\)/, retry: true } },
    skip: { failed: { file: 'set/qrels/test.tsv', line: 0, kind: 'empty-file', reason: 'the file holds no judgments (2 bad lines skipped)', retry: false } },
  },
  {
    name: 'TREC-style 4-column qrels',
    inputs: () => inputsOf(beir({ 'qrels/test.tsv': 'q1\t0\td1\t1\nq2\t0\td2\t1\n' })),
    strict: { failed: { file: 'set/qrels/test.tsv', line: 1, kind: 'invalid-columns', reason: /found 4 \(a TREC qrels line/, retry: true } },
    skip: { failed: { file: 'set/qrels/test.tsv', line: 0, kind: 'empty-file', reason: 'the file holds no judgments (2 bad lines skipped)', retry: false } },
  },
  {
    name: 'qrels naming unknown documents and queries',
    inputs: () => inputsOf(beir({ 'qrels/test.tsv': `${QRELS}q1\tnope\t1\nq9\td1\t1\n` })),
    strict: {
      done: {
        docs: 4,
        queries: 2,
        judgments: 4,
        check: (r) => {
          expect(r.splits[0]!.unknownDocs).toEqual([{ queryId: 'q1', docId: 'nope', grade: 1 }]);
          expect(r.splits[0]!.unknownQueries).toEqual(['q9']);
        },
      },
    },
  },
  {
    name: 'negative and zero grades only for a query',
    inputs: () => inputsOf(beir({ 'qrels/test.tsv': 'q1\td1\t1\nq2\td2\t0\nq2\td3\t-1\n' })),
    strict: { done: { docs: 4, queries: 2, judgments: 3, check: (r) => expect(r.splits[0]!.withoutRelevant).toEqual(['q2']) } },
  },
  {
    name: 'truncated .gz corpus',
    inputs: () => inputsOf({ 'corpus.jsonl.gz': truncatedGz(), 'queries.jsonl': QUERIES, 'qrels/test.tsv': QRELS }),
    strict: { failed: { file: 'set/corpus.jsonl.gz', line: 0, kind: 'truncated-gzip', reason: /the gzip data ends early/, retry: false } },
  },
  {
    name: 'corrupted .gz (checksum)',
    inputs: () => inputsOf({ 'corpus.jsonl.gz': flippedGz(), 'queries.jsonl': QUERIES, 'qrels/test.tsv': QRELS }),
    strict: { failed: { file: 'set/corpus.jsonl.gz', line: 0, kind: 'invalid-gzip', reason: /checksum mismatch/, retry: false } },
  },
  {
    name: 'empty corpus file (0 bytes)',
    inputs: () => inputsOf(beir({ 'corpus.jsonl': '' })),
    strict: { failed: { file: 'set/corpus.jsonl', line: 0, kind: 'empty-file', reason: 'the file holds no documents', retry: false } },
  },
  {
    name: 'a JSON array instead of JSON lines',
    inputs: () => inputsOf(beir({ 'corpus.jsonl': `[\n${GOOD_DOCS.join(',\n')}\n]\n` })),
    strict: { failed: { file: 'set/corpus.jsonl', line: 1, kind: 'invalid-json', reason: /invalid JSON/, retry: true } },
    // Lines 2–4 end in a comma and the brackets are no objects: only the last document (line 5) is whole.
    skip: { done: { docs: 1, queries: 2, judgments: 2, check: (r) => expect(r.corpus.skipped.map((s) => s.line)).toEqual([1, 2, 3, 4, 6]) } },
  },
  {
    name: 'CSV corpus with a row of the wrong width',
    inputs: () => inputsOf({ 'corpus.csv': '_id,title,text\nd1,A,"first, with a comma"\nd2,B\nd3,C,third\n', 'queries.jsonl': QUERIES }),
    strict: { failed: { file: 'set/corpus.csv', line: 3, kind: 'invalid-columns', reason: 'expected 3 comma-separated fields (_id, title, text), found 2', retry: true } },
    skip: { done: { docs: 2, queries: 2, judgments: 0, check: (r) => expect(r.corpus.skipped).toEqual([expect.objectContaining({ file: 'set/corpus.csv', line: 3 })]) } },
  },
  {
    name: 'zip: a BEIR folder nested two levels deep',
    inputs: () => zipped(Object.fromEntries(Object.entries(beir()).map(([path, content]) => [`downloads/beir/myset/${path}`, content]))),
    strict: { done: { docs: 4, queries: 2, judgments: 2 } },
  },
  {
    name: 'zip: files named by nothing (recognised by content)',
    inputs: () => zipped({ 'a.jsonl': GOOD_DOCS.join('\n'), 'b.jsonl': QUERIES, 'c.tsv': QRELS }),
    strict: { done: { docs: 4, queries: 2, judgments: 2 } },
  },
  {
    name: 'zip: two collections in one archive',
    inputs: () => zipped({ ...Object.fromEntries(Object.entries(beir()).map(([p, c]) => [`one/${p}`, c])), ...Object.fromEntries(Object.entries(beir()).map(([p, c]) => [`two/${p}`, c])) }),
    strict: { refused: /2 files look like a corpus: .*one\/corpus\.jsonl, .*two\/corpus\.jsonl\. Import one collection at a time/ },
  },
  {
    name: 'zip: judgments only',
    inputs: () => zipped({ 'qrels/test.tsv': QRELS }),
    strict: { refused: /no corpus found/ },
  },
  {
    name: 'zip: a damaged entry (checksum)',
    inputs: () => {
      // Stored (not deflated), so the flipped byte changes one letter: the text still parses, the checksum does not match.
      const corpus = strToU8(Array.from({ length: 50 }, (_, i) => doc(`d${i}`, 'words '.repeat(30))).join('\n'));
      const bytes = zipSync({ 'set/corpus.jsonl': [corpus, { level: 0 }], 'set/queries.jsonl': strToU8(QUERIES) });
      const at = 30 + 'set/corpus.jsonl'.length + corpus.indexOf(0x77, 1000); // a "w" of "words"
      bytes[at] = bytes[at]! ^ 0x01;
      return [{ path: 'damaged.zip', blob: new Blob([new Uint8Array(bytes)]) }];
    },
    strict: { failed: { file: 'damaged.zip/set/corpus.jsonl', line: 0, kind: 'io', reason: 'the zip entry is damaged (size or checksum mismatch)', retry: false } },
  },
  {
    name: 'zip: truncated archive',
    inputs: () => {
      const [input] = zipped(beir());
      return [{ path: 'cut.zip', blob: input!.blob.slice(0, Math.floor(input!.blob.size * 0.6)) }];
    },
    // Found while opening the archive, before anything is imported (the Datasets view shows the message).
    strict: { refused: /^cut\.zip: not a zip file \(no end-of-central-directory record\)$/ },
  },
];

async function check(run: Run, expected: Expected): Promise<void> {
  if ('refused' in expected) {
    expect(run.refused).toMatch(expected.refused);
    return;
  }
  expect(run.refused).toBeUndefined();
  const outcome = run.outcome!;
  if ('failed' in expected) {
    expect(outcome.status).toBe('failed');
    if (outcome.status !== 'failed') return;
    const { file, line, kind, reason, retry } = expected.failed;
    expect(outcome.error).toMatchObject({ file, line, kind });
    if (typeof reason === 'string') expect(outcome.error.reason).toBe(reason);
    else expect(outcome.error.reason).toMatch(reason);
    expect(canRetrySkipping(outcome.error)).toBe(retry);
    // A failed import leaves nothing behind.
    expect(run.stored).toBe(0);
    return;
  }
  expect(outcome.status).toBe('done');
  if (outcome.status !== 'done') return;
  const report = outcome.collection.report as ValidationReport;
  expect(outcome.collection.docCount).toBe(expected.done.docs);
  expect(outcome.collection.queryCount).toBe(expected.done.queries);
  expect(report.splits.reduce((sum, split) => sum + split.pairs, 0)).toBe(expected.done.judgments);
  expected.done.check?.(report);
}

describe('bad files through the whole import', () => {
  test.each(cases)('$name', async ({ name, inputs, strict, skip }) => {
    const first = await importInputs(inputs(), 'throw');
    await check(first, strict);
    const second = await importInputs(inputs(), 'skip');
    await check(second, skip ?? strict);
    table.push(`| ${name} | ${summary(first)} | ${summary(second)} |`);
  });
});
