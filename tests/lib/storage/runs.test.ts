import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ParseError } from '../../../src/lib/data/errors.ts';
import { packRun, storedRun } from '../../../src/lib/data/packed-run.ts';
import { PlaygroundDatabase, type RunRow } from '../../../src/lib/storage/db.ts';
import { findRunRow, importTrecRun, IMPORTED_SPLIT, loadStoredRun, runNameOf, runOfRow, trecTextOfRow } from '../../../src/lib/storage/runs.ts';
import type { Run } from '../../../src/lib/types.ts';

let db: PlaygroundDatabase;
let counter = 0;

beforeEach(async () => {
  db = new PlaygroundDatabase(`runs-test-${++counter}`);
  await db.open();
});

afterEach(async () => {
  await db.delete();
});

const trec = ['q1 Q0 d2 1 3.5 mine', 'q1 Q0 d1 2 1.25 mine', 'q9 Q0 d3 1 2 mine', ''].join('\n');

describe('imported TREC runs (runs table)', () => {
  it('stores a parsed file and reads its run back for its collection only', async () => {
    const summary = await importTrecRun(db, 'c', { name: 'runs/bm25-tuned.trec', text: trec }, new Set(['q1']));
    expect(summary).toMatchObject({ name: 'bm25-tuned', queries: 2, hits: 3, unknownQueries: ['q9'], runId: 'mine' });
    expect(summary.runKey.startsWith(`c|${IMPORTED_SPLIT}|bm25-tuned|`)).toBe(true);
    const run = await loadStoredRun(db, 'c', summary.runKey);
    expect(run?.get('q1')?.map((hit) => [hit.docId, hit.score])).toEqual([['d2', 3.5], ['d1', 1.25]]);
    expect(await loadStoredRun(db, 'other', summary.runKey)).toBeUndefined();
    expect(await loadStoredRun(db, 'c', 'c|imported|missing|0')).toBeUndefined();
    expect((await findRunRow(db, summary.runKey))?.trec).toBe(trec);
  });

  it('refuses a malformed line with the file and line, and stores nothing', async () => {
    const bad = 'q1 Q0 d2 1 3.5 mine\nq1 Q0 d1\n';
    const error = await importTrecRun(db, 'c', { name: 'bad.txt', text: bad }, new Set()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ParseError);
    expect(error).toMatchObject({ file: 'bad.txt', line: 2 });
    expect(await db.runs.count()).toBe(0);
  });

  it('names a run after its file: no folders, no run extension, at most 60 characters', () => {
    expect(runNameOf('C:\\runs\\dense.run.gz')).toBe('dense');
    expect(runNameOf('a/b/.txt')).toBe('run');
    expect(runNameOf(`${'x'.repeat(80)}.tsv`)).toHaveLength(60);
    expect(runNameOf('notes.md')).toBe('notes.md');
  });
});

describe('the ranking of a row, packed or TREC text', () => {
  const run: Run = new Map([['q1', [{ docId: 'd2', score: 3.5 }, { docId: 'd1', score: 1.25 }]]]);
  const base: RunRow = { key: 'c|test|k', collectionId: 'c', split: 'test', retriever: {}, createdAt: 1, timings: {} };

  it('reads every form as the same run (packed with its hits in a Blob, packed as arrays, TREC text), and makes TREC text only for a packed row', async () => {
    const stored = { ...base, packed: storedRun(packRun(run)) };
    const arrays = { ...base, packed: packRun(run) };
    const text = { ...base, trec: 'q1 Q0 d2 1 3.5 t\nq1 Q0 d1 2 1.25 t\n' };
    expect(await runOfRow(stored, 'stored')).toEqual(run);
    expect(await runOfRow(arrays, 'packed')).toEqual(run);
    expect(await runOfRow(text, 'text')).toEqual(run);
    expect(await trecTextOfRow(text, 'other')).toBe(text.trec);
    expect(await trecTextOfRow(stored, 't')).toBe(text.trec);
    expect(await trecTextOfRow(arrays, 't')).toBe(text.trec);
  });

  it('keeps a Blob-packed row through IndexedDB', async () => {
    await db.runs.put({ ...base, packed: storedRun(packRun(run)) });
    expect(await runOfRow((await findRunRow(db, base.key))!, 'stored')).toEqual(run);
  });

  it('says so when a row holds no ranking', async () => {
    await expect(runOfRow(base, 'empty.run')).rejects.toThrow('empty.run holds no ranking');
    await expect(trecTextOfRow(base, 't')).rejects.toThrow('c|test|k holds no ranking');
  });
});
