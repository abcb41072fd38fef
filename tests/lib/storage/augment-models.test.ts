import 'fake-indexeddb/auto';
import { afterEach, expect, test } from 'vitest';
import { deleteAugmentModel, listAugmentModels, putAugmentModel, readAugmentModel, renameAugmentModel } from '../../../src/lib/storage/augment-models.ts';
import type { PlaygroundDatabase } from '../../../src/lib/storage/db.ts';
import { testDb } from './stored-collection.ts';

const opened: PlaygroundDatabase[] = [];
function db(): PlaygroundDatabase {
  const created = testDb('augment-models');
  opened.push(created);
  return created;
}
afterEach(() => {
  for (const d of opened.splice(0)) d.close();
});

const model = (key: string, text: string) => ({ key, name: `${key}.json`, text, collection: 'scifact', split: 'train', analyzer: 'english', encoder: 'local/glove-100d-sif' });

test('a stored model reads back with its file; the list holds summaries, newest first', async () => {
  const d = db();
  await putAugmentModel(d, model('a', '{"a":1}'), 1000);
  await putAugmentModel(d, model('b', '{"b":2}'), 2000);
  expect(await readAugmentModel(d, 'a')).toEqual({ ...model('a', '{"a":1}'), storedAt: 1000 });
  expect((await listAugmentModels(d)).map((row) => row.key)).toEqual(['b', 'a']);
  expect(Object.keys((await listAugmentModels(d))[0]!)).not.toContain('text');
  expect(await readAugmentModel(d, 'c')).toBeUndefined();
});

test('storing the same key twice keeps one copy; rename and delete touch only their model', async () => {
  const d = db();
  await putAugmentModel(d, model('a', '{"a":1}'), 1000);
  await putAugmentModel(d, model('a', '{"a":1}'), 3000);
  await putAugmentModel(d, model('b', '{"b":2}'), 2000);
  expect(await d.augmentModels.count()).toBe(2);
  await renameAugmentModel(d, 'a', 'mine');
  expect((await readAugmentModel(d, 'a'))?.name).toBe('mine');
  await deleteAugmentModel(d, 'a');
  expect(await readAugmentModel(d, 'a')).toBeUndefined();
  expect(await d.augmentModelFiles.get('a')).toBeUndefined();
  expect((await readAugmentModel(d, 'b'))?.text).toBe('{"b":2}');
});
