import 'fake-indexeddb/auto';
import { afterEach, expect, test } from 'vitest';
import { runImport } from '../../../src/lib/import/importer.ts';
import { expandInputs, inspectEntries, localImportPlan } from '../../../src/lib/import/local.ts';
import { collectionBeirZip } from '../../../src/lib/storage/collection-export.ts';
import { loadCollection } from '../../../src/lib/storage/collections.ts';
import type { PlaygroundDatabase } from '../../../src/lib/storage/db.ts';
import { setJudgment } from '../../../src/lib/storage/judgments.ts';
import { addQuery, updateQuery } from '../../../src/lib/storage/query-edits.ts';
import { storeCollection, testDb } from './stored-collection.ts';

const opened: PlaygroundDatabase[] = [];
afterEach(() => {
  for (const d of opened.splice(0)) d.close();
});

test('a corpus with queries and judgments made in the app, exported as a BEIR zip, imports back as it was', async () => {
  const db = testDb('export');
  opened.push(db);
  await storeCollection(db, 'own');
  await addQuery(db, 'own', { text: 'wild yeast bread' });
  await addQuery(db, 'own', { text: 'glacier valleys' });
  await updateQuery(db, 'own', 'q2', { metadata: { narrative: 'How glaciers shape land.' } });
  await setJudgment(db, 'own', 'my-judgments', 'q2', 'd3', 3);
  await setJudgment(db, 'own', 'my-judgments', 'q1', 'd1', 2);
  await setJudgment(db, 'own', 'my-judgments', 'q1', 'd2', 0);
  const zip = await collectionBeirZip(db, 'own');
  expect(zip).toMatchObject({ fileName: 'Collection-own.zip', documents: 4, queries: 2, splits: ['my-judgments'] });

  const entries = await expandInputs([{ path: zip.fileName, blob: new Blob(zip.chunks.map((chunk) => new Uint8Array(chunk))) }]);
  expect(entries.map((entry) => entry.path)).toEqual([
    'Collection-own.zip/Collection-own/corpus.jsonl',
    'Collection-own.zip/Collection-own/queries.jsonl',
    'Collection-own.zip/Collection-own/qrels/my-judgments.tsv',
  ]);
  const inspection = await inspectEntries(entries);
  expect(inspection.problems).toEqual([]);
  const meta = { id: 'back', name: 'Back', source: { kind: 'local' as const, detail: 'test' } };
  const outcome = await runImport(db, localImportPlan(entries, inspection, meta), { locks: null });
  expect(outcome.status).toBe('done');

  const original = await loadCollection(db, 'own');
  const back = await loadCollection(db, 'back');
  expect(back.docs).toEqual(original.docs);
  expect([...back.queries.values()]).toEqual([...original.queries.values()]);
  expect([...back.queries.values()][1]!.metadata).toEqual({ narrative: 'How glaciers shape land.' });
  const flat = (qrels: Map<string, Map<string, number>> | undefined) => [...(qrels ?? [])].map(([q, docs]) => [q, [...docs]]);
  expect(flat(back.qrels.get('my-judgments'))).toEqual(flat(original.qrels.get('my-judgments')));
  expect(flat(back.qrels.get('my-judgments'))).toEqual([
    ['q2', [['d3', 3]]],
    ['q1', [['d1', 2], ['d2', 0]]],
  ]);
  expect(back.collection.splits).toEqual(['my-judgments']);
});
