import 'fake-indexeddb/auto';
import { afterEach, expect, test } from 'vitest';
import { DEFAULT_GRADES, gradeLabels } from '../../../src/lib/judging/grades.ts';
import { getCollection, loadQrels } from '../../../src/lib/storage/collections.ts';
import type { PlaygroundDatabase } from '../../../src/lib/storage/db.ts';
import {
  judgmentHistory,
  lastUndoable,
  replaceJudgmentSet,
  setGradeLabels,
  setJudgment,
  splitNameProblem,
  undoLastJudgment,
} from '../../../src/lib/storage/judgments.ts';
import { storeCollection, testDb } from './stored-collection.ts';

const opened: PlaygroundDatabase[] = [];
function open(name?: string): PlaygroundDatabase {
  const created = testDb('judgments', name);
  opened.push(created);
  return created;
}
afterEach(() => {
  for (const d of opened.splice(0)) d.close();
});

const QUERIES = [
  { id: 'q1', text: 'wild yeast' },
  { id: 'q2', text: 'moon tides' },
];

/** The split as ordered triples (file order), or undefined. */
async function triples(db: PlaygroundDatabase, split: string) {
  const qrels = await loadQrels(db, 'own', split);
  return qrels === undefined ? undefined : [...qrels].flatMap(([q, docs]) => [...docs].map(([d, g]) => `${q} ${d} ${g}`));
}

test('the first judgment creates the set (a split of the collection); grades change in place, new ones go last', async () => {
  const db = open();
  await storeCollection(db, 'own', { queries: QUERIES });
  expect(await setJudgment(db, 'own', 'my-judgments', 'q1', 'd1', 2)).toEqual({ queryId: 'q1', docId: 'd1', grade: 2 });
  expect((await getCollection(db, 'own'))!.splits).toEqual(['my-judgments']);
  await setJudgment(db, 'own', 'my-judgments', 'q1', 'd3', 0);
  await setJudgment(db, 'own', 'my-judgments', 'q2', 'd4', 3);
  await setJudgment(db, 'own', 'my-judgments', 'q1', 'd1', 1);
  expect(await triples(db, 'my-judgments')).toEqual(['q1 d1 1', 'q1 d3 0', 'q2 d4 3']);
  // The same grade again changes nothing and records nothing.
  expect(await setJudgment(db, 'own', 'my-judgments', 'q1', 'd1', 1)).toBeUndefined();
  expect(await db.judgmentEdits.count()).toBe(4);
  // Removing (null) takes it out.
  await setJudgment(db, 'own', 'my-judgments', 'q1', 'd3', null);
  expect(await triples(db, 'my-judgments')).toEqual(['q1 d1 1', 'q2 d4 3']);
});

test('undo goes back one edit at a time, per query or over the set, and survives reopening the database', async () => {
  const first = open();
  const name = first.name;
  await storeCollection(first, 'own', { queries: QUERIES });
  await setJudgment(first, 'own', 'set', 'q1', 'd1', 2);
  await setJudgment(first, 'own', 'set', 'q2', 'd4', 3);
  await setJudgment(first, 'own', 'set', 'q1', 'd1', 3);
  await setJudgment(first, 'own', 'set', 'q1', 'd2', 0);
  first.close();

  // A reload: a new connection to the same database.
  const db = open(name);
  expect(await lastUndoable(db, 'own', 'set', 'q1')).toMatchObject({ docId: 'd2', before: null, after: 0 });
  expect(await undoLastJudgment(db, 'own', 'set', 'q1')).toEqual({ queryId: 'q1', docId: 'd2', grade: null });
  expect(await undoLastJudgment(db, 'own', 'set', 'q1')).toEqual({ queryId: 'q1', docId: 'd1', grade: 2 });
  expect(await triples(db, 'set')).toEqual(['q1 d1 2', 'q2 d4 3']);
  // A new judgment after an undo is the next one undone.
  await setJudgment(db, 'own', 'set', 'q1', 'd3', 1);
  expect(await undoLastJudgment(db, 'own', 'set')).toEqual({ queryId: 'q1', docId: 'd3', grade: null });
  // Over the set: q2's judgment is the latest left.
  expect(await undoLastJudgment(db, 'own', 'set')).toEqual({ queryId: 'q2', docId: 'd4', grade: null });
  expect(await undoLastJudgment(db, 'own', 'set', 'q1')).toEqual({ queryId: 'q1', docId: 'd1', grade: null });
  expect(await undoLastJudgment(db, 'own', 'set', 'q1')).toBeUndefined();
  expect(await triples(db, 'set')).toEqual([]);

  // d1's history: judged 2, changed to 3, both undone, each undo recorded.
  const history = await judgmentHistory(db, 'own', 'set', 'q1', 'd1');
  expect(history.map((edit) => [edit.kind, edit.before, edit.after, edit.undone === true])).toEqual([
    ['judge', null, 2, true],
    ['judge', 2, 3, true],
    ['undo', 3, 2, false],
    ['undo', 2, null, false],
  ]);
  expect(history[2]!.undoes).toBe(history[1]!.seq);
});

test('unknown queries and documents, bad grades and bad set names are refused; nothing is written', async () => {
  const db = open();
  await storeCollection(db, 'own', { queries: QUERIES });
  await expect(setJudgment(db, 'own', 'set', 'q9', 'd1', 1)).rejects.toThrow('query "q9" is not in "Collection own"');
  await expect(setJudgment(db, 'own', 'set', 'q1', 'd9', 1)).rejects.toThrow('document "d9" is not in "Collection own"');
  await expect(setJudgment(db, 'own', 'set', 'q1', 'd1', 1.5)).rejects.toThrow('not an integer');
  await expect(setJudgment(db, 'own', 'my set', 'q1', 'd1', 1)).rejects.toThrow(/judgment set "my set"/);
  await expect(setJudgment(db, 'gone', 'set', 'q1', 'd1', 1)).rejects.toThrow('not stored');
  expect(await db.qrels.count()).toBe(0);
  expect(await db.judgmentEdits.count()).toBe(0);
  expect((await getCollection(db, 'own'))!.splits).toEqual([]);
  expect(splitNameProblem('test')).toBeUndefined();
  expect(splitNameProblem('my-judgments.v2')).toBeUndefined();
  expect(splitNameProblem('../x')).toBeDefined();
  expect(splitNameProblem('')).toBe('the name is empty');
});

test('an import replaces a split in file order and clears its history', async () => {
  const db = open();
  await storeCollection(db, 'own', { queries: QUERIES });
  await setJudgment(db, 'own', 'set', 'q1', 'd1', 2);
  const row = await replaceJudgmentSet(
    db,
    'own',
    'set',
    new Map([
      ['q2', new Map([['d4', 1], ['d1', 0]])],
      ['q1', new Map([['d2', 3]])],
    ]),
  );
  expect(row.splits).toEqual(['set']);
  expect(await triples(db, 'set')).toEqual(['q2 d4 1', 'q2 d1 0', 'q1 d2 3']);
  expect(await lastUndoable(db, 'own', 'set')).toBeUndefined();
});

test('grade labels: four grades, blanks back to the defaults, stored on the collection', async () => {
  const db = open();
  await storeCollection(db, 'own');
  expect(gradeLabels(undefined)).toEqual(DEFAULT_GRADES);
  const saved = await setGradeLabels(db, 'own', [
    { grade: 0, label: 'Off topic', guideline: 'About something else.' },
    { grade: 2, label: '   ', guideline: '' },
  ]);
  expect(saved.map((g) => g.label)).toEqual(['Off topic', 'Related', 'Relevant', 'Highly relevant']);
  expect(saved[2]!.guideline).toBe('');
  expect((await getCollection(db, 'own'))!.grades).toEqual(saved);
});
