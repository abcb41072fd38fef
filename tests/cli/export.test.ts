/**
 * `export` (src/cli/export.ts): a dataset as Pyserini reads it. The corpus it writes is a JsonCollection the
 * project's own import reads back (as `--dataset`), with the same documents and their text as BM25 indexes it.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadDataset } from '../../src/cli/dataset.ts';
import { cli } from './run-cli.ts';

let dir: string;
const at = (name: string) => join(dir, name);

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'cli-export-'));
  mkdirSync(at('data/qrels'), { recursive: true });
  writeFileSync(at('data/corpus.jsonl'), ['{"_id": "d1", "title": "Tides", "text": "follow the moon"}', '{"_id": "d2", "title": "", "text": "green tea"}'].join('\n'));
  writeFileSync(at('data/queries.jsonl'), '{"_id": "q1", "text": "what moves the tides"}\n');
  writeFileSync(at('data/qrels/test.tsv'), 'query-id\tcorpus-id\tscore\nq1\td1\t1\n');
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('writes the JsonCollection, the queries, the topics and TREC qrels', async () => {
  const result = await cli(['export', '--dataset', at('data'), '--out', at('out')]);
  expect(result.code).toBe(0);
  expect(readFileSync(at('out/corpus/docs.jsonl'), 'utf8')).toBe('{"id":"d1","contents":"Tides follow the moon"}\n{"id":"d2","contents":" green tea"}\n');
  expect(readFileSync(at('out/queries.jsonl'), 'utf8')).toBe('{"id":"q1","contents":"what moves the tides"}\n');
  expect(readFileSync(at('out/topics.tsv'), 'utf8')).toBe('q1\twhat moves the tides\n');
  expect(readFileSync(at('out/qrels.test.txt'), 'utf8')).toBe('q1 0 d1 1\n');
  const back = await loadDataset(at('out/corpus'));
  expect(back.docs.map((doc) => [doc.id, `${doc.title} ${doc.text}`.trim()])).toEqual([
    ['d1', 'Tides follow the moon'],
    ['d2', 'green tea'],
  ]);
});

it('needs --dataset and --out', async () => {
  const result = await cli(['export', '--dataset', at('data')]);
  expect(result.code).toBe(2);
  expect(existsSync(at('nowhere'))).toBe(false);
  expect(result.stderr).toBe('error: --dataset <path | name> and --out <folder> are required (try --help)\n');
});
