import 'fake-indexeddb/auto';
import { afterEach, expect, test } from 'vitest';
import { deleteCollection } from '../../../src/lib/storage/collections.ts';
import type { PlaygroundDatabase } from '../../../src/lib/storage/db.ts';
import { readSavedRanking, SAVED_RANKINGS_KEPT, saveRankings } from '../../../src/lib/storage/saved-rankings.ts';
import { storeCollection, testDb } from './stored-collection.ts';

const opened: PlaygroundDatabase[] = [];
function db(): PlaygroundDatabase {
  const created = testDb('saved-rankings');
  opened.push(created);
  return created;
}
afterEach(() => {
  for (const d of opened.splice(0)) d.close();
});

const ranking = (docId: string) => ({ ranking: { kind: 'bm25', hits: [{ docId, score: 1.5 }] } });

test('a saved ranking reads back as it was saved; a key never saved reads undefined', async () => {
  const d = db();
  await saveRankings(d, [{ key: 'a', collectionId: 'own', value: ranking('d1') }]);
  expect(await readSavedRanking(d, 'a')).toEqual(ranking('d1'));
  expect(await readSavedRanking(d, 'b')).toBeUndefined();
  await saveRankings(d, [{ key: 'a', collectionId: 'own', value: ranking('d2') }]);
  expect(await readSavedRanking(d, 'a')).toEqual(ranking('d2'));
});

test(`only the ${SAVED_RANKINGS_KEPT} most recently saved are kept`, async () => {
  const d = db();
  for (let i = 0; i < SAVED_RANKINGS_KEPT + 3; i++) await saveRankings(d, [{ key: `k${i}`, collectionId: 'own', value: ranking(`d${i}`) }], 1000 + i);
  expect(await d.savedRankings.count()).toBe(SAVED_RANKINGS_KEPT);
  expect(await readSavedRanking(d, 'k2')).toBeUndefined();
  expect(await readSavedRanking(d, 'k3')).toEqual(ranking('d3'));
  expect(await readSavedRanking(d, `k${SAVED_RANKINGS_KEPT + 2}`)).toEqual(ranking(`d${SAVED_RANKINGS_KEPT + 2}`));
});

test('deleting a collection deletes its saved rankings, not another collection’s', async () => {
  const d = db();
  await storeCollection(d, 'own');
  await storeCollection(d, 'other');
  await saveRankings(d, [
    { key: 'mine', collectionId: 'own', value: ranking('d1') },
    { key: 'theirs', collectionId: 'other', value: ranking('d2') },
  ]);
  await deleteCollection(d, 'own');
  expect(await readSavedRanking(d, 'mine')).toBeUndefined();
  expect(await readSavedRanking(d, 'theirs')).toEqual(ranking('d2'));
});
