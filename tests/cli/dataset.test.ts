import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../temp-dir.ts';
import { describe, expect, it } from 'vitest';
import { CliError } from '../../src/cli/cli-error.ts';
import { loadDataset } from '../../src/cli/dataset.ts';
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

describe('loadDataset on BEIR folders', () => {
  it('loads shared SciFact with the README counts (5,183 docs, 1,109 queries, test 339/300, train 919/809)', async () => {
    const { docs, queries, qrels } = await loadDataset(scifact);
    expect(docs).toHaveLength(5183);
    expect(queries.size).toBe(1109);
    const sizes = [...qrels].map(([split, q]) => [split, [...q.values()].reduce((n, d) => n + d.size, 0), q.size]);
    expect(sizes).toEqual([
      ['test', 339, 300],
      ['train', 919, 809],
    ]);
  });

  it('loads only the asked splits and then reports the other split’s queries as unjudged', async () => {
    const { qrels, report } = await loadDataset(scifact, { splits: ['test'] });
    expect([...qrels.keys()]).toEqual(['test']);
    expect(report.queries.unjudged).toHaveLength(809);
  });

  it('uses corpus.jsonl.gz when there is no corpus.jsonl', async () => {
    const dir = layout('gz-only', { 'corpus.jsonl.gz': 'corpus.jsonl.gz', 'queries.jsonl': 'queries.jsonl', 'qrels/test.tsv': 'qrels/test.tsv' });
    const dataset = await loadDataset(dir);
    expect(dataset.files.corpus).toBe(join(dir, 'corpus.jsonl.gz'));
    expect(dataset.report.corpus.file).toBe(join(dir, 'corpus.jsonl.gz'));
    expect(dataset.docs).toHaveLength(5183);
  });

  it('prefers the plain corpus when both exist (the gzipped twin is not offered to the classification)', async () => {
    const dataset = await loadDataset(scifact, { splits: [] });
    expect(dataset.files.corpus).toBe(join(scifact, 'corpus.jsonl'));
    expect(dataset.qrels.size).toBe(0);
    expect([...dataset.files.qrels.keys()]).toEqual(['test', 'train']);
  });

  it('resolves a bare name under SHARED_DIR/beir', async () => {
    const dataset = await loadDataset('scifact', { splits: ['test'] });
    expect(dataset.path).toBe(scifact);
    expect(dataset.name).toBe('scifact');
  });

  it('names what is missing', async () => {
    const noCorpus = layout('no-corpus', { 'queries.jsonl': 'queries.jsonl', 'qrels/test.tsv': 'qrels/test.tsv' });
    expect(await cliError(() => loadDataset(noCorpus))).toMatch(new RegExp(`^${noCorpus}: no corpus found: .*\\(files: no-corpus/qrels/test.tsv: named test.tsv; no-corpus/queries.jsonl: named queries.jsonl\\)$`));
    const noQrels = layout('no-qrels', { 'corpus.jsonl': 'corpus.jsonl', 'queries.jsonl': 'queries.jsonl' });
    expect(await cliError(() => loadDataset(noQrels, { splits: ['test'] }))).toBe(`${noQrels} has no judgments (qrels), so no split "test" to evaluate; search works without them`);
    expect((await loadDataset(noQrels)).qrels.size).toBe(0);
    expect(await cliError(() => loadDataset(scifact, { splits: ['dev'] }))).toBe(
      `${join(scifact, 'qrels', 'dev.tsv')} not found (splits in ${join(scifact, 'qrels')}: test, train)`,
    );
    expect(await cliError(() => loadDataset(join(scratch, 'nowhere')))).toBe(`dataset folder or file ${join(scratch, 'nowhere')} not found`);
  });

  it('loads a dataset without queries (the queries file is optional; eval says so)', async () => {
    const noQueries = layout('no-queries', { 'corpus.jsonl': 'corpus.jsonl', 'qrels/test.tsv': 'qrels/test.tsv' });
    const dataset = await loadDataset(noQueries);
    expect(dataset.files.queries).toBeUndefined();
    expect(dataset.queries.size).toBe(0);
    expect(dataset.qrels.get('test')?.size).toBe(300);
  });

  it('lets a ParseError through with the file path and line', async () => {
    const dir = layout('bad-queries', { 'corpus.jsonl': 'corpus.jsonl', 'qrels/test.tsv': 'qrels/test.tsv' });
    writeFileSync(join(dir, 'queries.jsonl'), '{"_id": "1", "text": "ok"}\n{"_id": 2, "text": "bad"}\n');
    const error = await loadDataset(dir).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ParseError);
    expect((error as ParseError).message).toBe(`${join(dir, 'queries.jsonl')}:2: "_id" must be a string, found the number 2 (write it in quotes)`);
  });
});
