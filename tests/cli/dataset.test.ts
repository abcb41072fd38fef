import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../temp-dir.ts';
import { describe, expect, it } from 'vitest';
import { CliError } from '../../src/cli/cli-error.ts';
import { findBeirFiles, loadBeirDir } from '../../src/cli/dataset.ts';
import { ParseError } from '../../src/lib/data/errors.ts';
import { shared } from '../shared-dir.ts';

const scifact = shared('beir', 'scifact');
const scratch = tempDir('beir-dir-');

/** A dataset folder of symlinks to the shared files (nothing copied), with `files` relative to scifact. */
function layout(name: string, files: Record<string, string>): string {
  const dir = join(scratch, name);
  mkdirSync(join(dir, 'qrels'), { recursive: true });
  for (const [to, from] of Object.entries(files)) symlinkSync(join(scifact, from), join(dir, to));
  return dir;
}

async function cliError(work: () => Promise<unknown>): Promise<string> {
  const error = await work().then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(CliError);
  return (error as CliError).message;
}

describe('loadBeirDir', () => {
  it('loads shared SciFact with the README counts (5,183 docs, 1,109 queries, test 339/300, train 919/809)', async () => {
    const { docs, queries, qrels } = await loadBeirDir(scifact);
    expect(docs).toHaveLength(5183);
    expect(queries.size).toBe(1109);
    const sizes = [...qrels].map(([split, q]) => [split, [...q.values()].reduce((n, d) => n + d.size, 0), q.size]);
    expect(sizes).toEqual([
      ['test', 339, 300],
      ['train', 919, 809],
    ]);
  });

  it('loads only the asked splits and then reports the other split’s queries as unjudged', async () => {
    const { qrels, report } = await loadBeirDir(scifact, { splits: ['test'] });
    expect([...qrels.keys()]).toEqual(['test']);
    expect(report.queries.unjudged).toHaveLength(809);
  });

  it('uses corpus.jsonl.gz when there is no corpus.jsonl', async () => {
    const dir = layout('gz-only', { 'corpus.jsonl.gz': 'corpus.jsonl.gz', 'queries.jsonl': 'queries.jsonl', 'qrels/test.tsv': 'qrels/test.tsv' });
    const files = await findBeirFiles(dir);
    expect(files.corpus).toBe(join(dir, 'corpus.jsonl.gz'));
    expect((await loadBeirDir(dir)).docs).toHaveLength(5183);
  });

  it('prefers the plain corpus when both exist', async () => {
    expect((await findBeirFiles(scifact)).corpus).toBe(join(scifact, 'corpus.jsonl'));
  });

  it('names the missing file', async () => {
    const noCorpus = layout('no-corpus', { 'queries.jsonl': 'queries.jsonl', 'qrels/test.tsv': 'qrels/test.tsv' });
    expect(await cliError(() => loadBeirDir(noCorpus))).toBe(`corpus.jsonl or corpus.jsonl.gz not found in ${noCorpus}`);
    const noQueries = layout('no-queries', { 'corpus.jsonl': 'corpus.jsonl', 'qrels/test.tsv': 'qrels/test.tsv' });
    expect(await cliError(() => loadBeirDir(noQueries))).toBe(`queries.jsonl or queries.jsonl.gz not found in ${noQueries}`);
    const noQrels = layout('no-qrels', { 'corpus.jsonl': 'corpus.jsonl', 'queries.jsonl': 'queries.jsonl' });
    expect(await cliError(() => loadBeirDir(noQrels))).toBe(`no <split>.tsv file in ${join(noQrels, 'qrels')}`);
    expect(await cliError(() => loadBeirDir(scifact, { splits: ['dev'] }))).toBe(
      `${join(scifact, 'qrels', 'dev.tsv')} not found (splits in ${join(scifact, 'qrels')}: test, train)`,
    );
    expect(await cliError(() => loadBeirDir(join(scratch, 'nowhere')))).toBe(`dataset folder ${join(scratch, 'nowhere')} not found`);
  });

  it('lets a ParseError through with the file path and line', async () => {
    const dir = layout('bad-queries', { 'corpus.jsonl': 'corpus.jsonl', 'qrels/test.tsv': 'qrels/test.tsv' });
    writeFileSync(join(dir, 'queries.jsonl'), '{"_id": "1", "text": "ok"}\n{"_id": 2, "text": "bad"}\n');
    const error = await loadBeirDir(dir).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ParseError);
    expect((error as ParseError).message).toBe(`${join(dir, 'queries.jsonl')}:2: "_id" must be a string, found the number 2 (write it in quotes)`);
  });
});
