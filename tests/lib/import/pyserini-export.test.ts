import 'fake-indexeddb/auto';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { collectionPyseriniJsonl, pyseriniDocLine, topicLine } from '../../../src/lib/import/pyserini-export.ts';
import type { PlaygroundDatabase } from '../../../src/lib/storage/db.ts';
import { DOCS, storeCollection, testDb } from '../storage/stored-collection.ts';

// A stored collection as Pyserini's JsonCollection: one {"id", "contents"} per document, contents being
// title + " " + text as Pyserini's BEIR "flat" corpora join them (an empty title keeps its space).

let db: PlaygroundDatabase;

beforeEach(async () => {
  db = testDb('pyserini-export');
  await db.open();
  await storeCollection(db, 'c1');
});

afterEach(async () => {
  await db.delete();
});

it('writes one {"id", "contents"} line per stored document, in the collection order', async () => {
  const done: number[] = [];
  const file = await collectionPyseriniJsonl(db, 'c1', { onDocuments: (n) => done.push(n) });
  expect(file.fileName).toBe('Collection-c1.pyserini.jsonl');
  expect(file.documents).toBe(DOCS.length);
  expect(done.at(-1)).toBe(DOCS.length);
  const text = new TextDecoder().decode(Buffer.concat(file.chunks));
  const lines = text.trimEnd().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
  expect(lines).toEqual([
    { id: 'd1', contents: 'Sourdough Wild yeast ferments the dough slowly.' },
    { id: 'd2', contents: ' Green tea is steamed after picking.' },
    { id: 'd3', contents: 'Glaciers A glacier carves valleys as it moves.' },
    { id: 'd4', contents: 'Tides Tides follow the moon.' },
  ]);
});

it('escapes what JSON must, and keeps contents and topics on one line (Pyserini splits fields at line breaks)', () => {
  expect(pyseriniDocLine({ id: 'a"b', title: 'T', text: 'line\none\r\ntwo' })).toBe('{"id":"a\\"b","contents":"T line one two"}\n');
  expect(topicLine({ id: 'q1', text: 'two\tparts\nhere' })).toBe('q1\ttwo parts here\n');
});
