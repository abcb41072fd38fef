import 'fake-indexeddb/auto';
import { afterEach, expect, test } from 'vitest';
import { getCollection, loadAllQrels, loadQueries } from '../../../src/lib/storage/collections.ts';
import type { PlaygroundDatabase } from '../../../src/lib/storage/db.ts';
import { setJudgment } from '../../../src/lib/storage/judgments.ts';
import { addQuery, deleteQuery, nextQueryId, queryIdProblem, updateQuery } from '../../../src/lib/storage/query-edits.ts';
import { storeCollection, testDb } from './stored-collection.ts';

const opened: PlaygroundDatabase[] = [];
function db(): PlaygroundDatabase {
  const created = testDb('query-edits');
  opened.push(created);
  return created;
}
afterEach(() => {
  for (const d of opened.splice(0)) d.close();
});

test('a collection imported without queries gets queries: ids q1, q2 in order, counted on its row', async () => {
  const d = db();
  await storeCollection(d, 'own');
  expect((await getCollection(d, 'own'))!.queryCount).toBe(0);
  expect(await addQuery(d, 'own', { text: '  wild yeast bread ' })).toEqual({ id: 'q1', text: 'wild yeast bread' });
  expect(await addQuery(d, 'own', { text: 'glacier valleys' })).toEqual({ id: 'q2', text: 'glacier valleys' });
  expect(await addQuery(d, 'own', { id: 'moon-1', text: 'tides and the moon' })).toEqual({ id: 'moon-1', text: 'tides and the moon' });
  expect([...(await loadQueries(d, 'own')).keys()]).toEqual(['q1', 'q2', 'moon-1']);
  expect((await getCollection(d, 'own'))!.queryCount).toBe(3);
});

test('ids that a qrels file could not hold, taken ids and empty text are refused', async () => {
  const d = db();
  await storeCollection(d, 'own', { queries: [{ id: 'q1', text: 'first' }] });
  await expect(addQuery(d, 'own', { id: 'q1', text: 'again' })).rejects.toThrow('already has a query "q1"');
  await expect(addQuery(d, 'own', { id: 'two words', text: 'x' })).rejects.toThrow(/without spaces/);
  await expect(addQuery(d, 'own', { id: '#c', text: 'x' })).rejects.toThrow(/"#"/);
  await expect(addQuery(d, 'own', { text: '   ' })).rejects.toThrow('a query needs some text');
  expect(queryIdProblem('q\t1')).toBeDefined();
  expect(queryIdProblem('PLAIN-42')).toBeUndefined();
  // The next free id skips taken ones.
  expect(nextQueryId(new Set(['q2', 'q3']))).toBe('q4');
  expect(nextQueryId(new Set(['q1', 'q3']))).toBe('q4');
  expect(nextQueryId(new Set(['a', 'b']))).toBe('q3');
  expect((await addQuery(d, 'own', { text: 'second' })).id).toBe('q2');
});

test('editing changes text and the information need (metadata), keeps id and place', async () => {
  const d = db();
  await storeCollection(d, 'own', { queries: [{ id: 'a', text: 'one' }, { id: 'b', text: 'two', metadata: { kind: 'lexical' } }] });
  expect(await updateQuery(d, 'own', 'a', { text: 'one, rephrased' })).toEqual({ id: 'a', text: 'one, rephrased' });
  expect(await updateQuery(d, 'own', 'b', { metadata: { narrative: 'Documents on counting.' } })).toEqual({
    id: 'b',
    text: 'two',
    metadata: { kind: 'lexical', narrative: 'Documents on counting.' },
  });
  expect(await updateQuery(d, 'own', 'b', { metadata: { kind: undefined, narrative: undefined } })).toEqual({ id: 'b', text: 'two' });
  expect([...(await loadQueries(d, 'own')).values()]).toEqual([
    { id: 'a', text: 'one, rephrased' },
    { id: 'b', text: 'two' },
  ]);
  await expect(updateQuery(d, 'own', 'zz', { text: 'x' })).rejects.toThrow('not stored any more');
});

test('deleting a query deletes its judgments in every split and their history', async () => {
  const d = db();
  await storeCollection(d, 'own', { queries: [{ id: 'q1', text: 'yeast' }, { id: 'q2', text: 'moon' }] });
  await setJudgment(d, 'own', 'mine', 'q1', 'd1', 2);
  await setJudgment(d, 'own', 'mine', 'q2', 'd4', 3);
  await setJudgment(d, 'own', 'other', 'q1', 'd2', 0);
  expect(await deleteQuery(d, 'own', 'q1')).toBe(2);
  const qrels = await loadAllQrels(d, 'own');
  expect([...qrels.get('mine')!]).toEqual([['q2', new Map([['d4', 3]])]]);
  expect(qrels.get('other')!.size).toBe(0);
  expect(await d.judgmentEdits.where('collectionId').equals('own').toArray()).toMatchObject([{ queryId: 'q2' }]);
  expect((await getCollection(d, 'own'))!.queryCount).toBe(1);
  await expect(deleteQuery(d, 'own', 'q1')).rejects.toThrow('not stored any more');
});
