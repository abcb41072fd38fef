import 'fake-indexeddb/auto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { readQrels } from '../../../src/lib/data/qrels.ts';
import { textImportFile, type ImportPlan } from '../../../src/lib/import/import-file.ts';
import { runImport } from '../../../src/lib/import/importer.ts';
import { planRecords } from '../../../src/lib/import/records.ts';
import { starterImportPlan } from '../../../src/lib/import/starter-plan.ts';
import { STARTER_COLLECTION } from '../../../src/lib/starter/index.ts';
import {
  CollectionExistsError,
  collectionUsage,
  deleteCollection,
  getCollection,
  getDocuments,
  importCollection,
  listCollections,
  loadCollection,
  loadQueries,
  readDocumentBatches,
  hasUnfinishedImports,
  recoverInterruptedImports,
  setCollectionLanguage,
  utf8Length,
} from '../../../src/lib/storage/collections.ts';
import { CATALOG } from '../../../src/lib/catalog/index.ts';
import { hubImportPlan } from '../../../src/lib/import/hub.ts';
import { PlaygroundDatabase } from '../../../src/lib/storage/db.ts';
import type { ImportLocks } from '../../../src/lib/storage/import-locks.ts';
import { StorageFullError } from '../../../src/lib/storage/quota.ts';
import { repoRoot } from '../../shared-dir.ts';

const starterDir = join(repoRoot, 'src', 'lib', 'starter');
const starterTexts = {
  corpus: readFileSync(join(starterDir, STARTER_COLLECTION.files.corpus), 'utf8'),
  queries: readFileSync(join(starterDir, STARTER_COLLECTION.files.queries), 'utf8'),
  qrels: readFileSync(join(starterDir, STARTER_COLLECTION.files.qrels), 'utf8'),
};

async function* chunks(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  yield bytes;
}

let dbCount = 0;
const opened: PlaygroundDatabase[] = [];
function freshDb(): PlaygroundDatabase {
  const db = new PlaygroundDatabase(`collections-test-${dbCount++}`);
  opened.push(db);
  return db;
}
afterEach(() => {
  for (const db of opened.splice(0)) db.close();
  vi.restoreAllMocks();
});

/** A small collection from strings: `docs` corpus lines, queries and one test qrels file. */
function smallPlan(id: string, options: { corpus?: string; docs?: number; qrels?: string | null; queries?: string | null } = {}): ImportPlan {
  const docs = options.docs ?? 10;
  const corpus = options.corpus ?? Array.from({ length: docs }, (_, i) => JSON.stringify({ _id: `d${i}`, title: `Title ${i}`, text: `text of document ${i}` })).join('\n');
  const queries = options.queries === undefined ? '{"_id":"q1","text":"first"}\n{"_id":"q0","text":"second"}\n' : options.queries;
  const qrels = options.qrels === undefined ? 'query-id\tcorpus-id\tscore\nq1\td1\t1\nq0\td2\t2\n' : options.qrels;
  return {
    meta: { id, name: `Collection ${id}`, source: { kind: 'local', detail: 'test' } },
    corpus: textImportFile(corpus, { role: 'corpus', format: 'jsonl', name: `${id}/corpus.jsonl` }),
    ...(queries === null ? {} : { queries: textImportFile(queries, { role: 'queries', format: 'jsonl', name: `${id}/queries.jsonl` }) }),
    qrels: qrels === null ? [] : [textImportFile(qrels, { role: 'qrels', split: 'test', format: 'tsv', name: `${id}/qrels/test.tsv` })],
  };
}

async function rowsOf(db: PlaygroundDatabase, collectionId: string) {
  return {
    collections: await db.collections.where('id').equals(collectionId).count(),
    documents: (await db.documentChunks.where('collectionId').equals(collectionId).toArray()).reduce((sum, chunk) => sum + chunk.ids.length, 0),
    directories: await db.documentDirectories.where('collectionId').equals(collectionId).count(),
    queries: await db.queries.where('collectionId').equals(collectionId).count(),
    qrels: await db.qrels.where('collectionId').equals(collectionId).count(),
  };
}

const NOTHING = { collections: 0, documents: 0, directories: 0, queries: 0, qrels: 0 };

describe('atomic import', () => {
  test('the starter collection: counts from its metadata, corpus and queries order kept, qrels equal to the file', async () => {
    const db = freshDb();
    const outcome = await runImport(db, starterImportPlan(starterTexts), { locks: null });
    expect(outcome.status).toBe('done');
    const { collection, docs, queries, qrels } = await loadCollection(db, 'starter');
    expect(collection).toMatchObject({ status: 'ready', docCount: STARTER_COLLECTION.counts.documents, queryCount: STARTER_COLLECTION.counts.queries, splits: ['test'] });
    const fileIds = starterTexts.corpus.trim().split('\n').map((line) => (JSON.parse(line) as { _id: string })._id);
    expect(docs.map((doc) => doc.id)).toEqual(fileIds);
    const queryIds = starterTexts.queries.trim().split('\n').map((line) => (JSON.parse(line) as { _id: string })._id);
    expect([...queries.keys()]).toEqual(queryIds);
    expect(queries.get('q01')!.metadata).toMatchObject({ kind: 'lexical' });
    const expected = await readQrels(chunks(new TextEncoder().encode(starterTexts.qrels)));
    expect(qrels.get('test')).toEqual(expected);
    expect([...expected.values()].reduce((sum, docs) => sum + docs.size, 0)).toBe(STARTER_COLLECTION.counts.judgments);
    expect(collection.bytes).toBeGreaterThan(starterTexts.corpus.length * 0.9);
  });

  test("a corpus file's batches are counted at the UTF-8 size of their documents, as documents one by one are", async () => {
    const docs = [
      { id: 'd1', title: 'Café', text: 'naïve 日本 🚀' },
      { id: 'd2', title: '', text: 'plain ascii' },
      { id: 'é3', title: 'Ωmega', text: 'x'.repeat(3000) + 'ü' },
    ];
    const corpus = docs.map((doc) => JSON.stringify({ _id: doc.id, title: doc.title, text: doc.text })).join('\n');
    const fromFile = await importCollection(freshDb(), smallPlan('f').meta, planRecords(smallPlan('f', { corpus, queries: null, qrels: null })), { locks: null });
    async function* oneByOne() {
      yield* docs;
    }
    const fromDocs = await importCollection(freshDb(), smallPlan('d').meta, { documents: oneByOne(), qrels: [] }, { locks: null });
    // One by one, each string is measured (utf8Length, tested below); the file's batches add their lines' surplus.
    expect(fromFile.bytes).toBe(fromDocs.bytes);
    expect(fromFile.docCount).toBe(3);
  });

  test('readers never see a half-written collection: it is listed only once it is ready', async () => {
    const db = freshDb();
    const seen: Array<{ listed: number; status: string | undefined }> = [];
    // A corpus stream that looks at the database between its documents, while the import is under way.
    async function* documents() {
      for (let i = 0; i < 25; i++) {
        if (i % 5 === 0) seen.push({ listed: (await listCollections(db)).length, status: (await db.collections.get('a'))?.status });
        yield { id: `d${i}`, title: '', text: `document ${i}` };
      }
    }
    await importCollection(db, smallPlan('a').meta, { documents: documents(), qrels: [] }, { locks: null, batchSize: 10 });
    expect(seen).toHaveLength(5);
    expect(seen.every((s) => s.listed === 0 && s.status === 'importing')).toBe(true);
    expect((await listCollections(db)).map((c) => c.id)).toEqual(['a']);
  });

  test('documents are written in batches and keep corpus order (ord) across batches', async () => {
    const db = freshDb();
    const plan = smallPlan('b', { docs: 2500 });
    await importCollection(db, plan.meta, planRecords(plan), { locks: null, batchSize: 1000 });
    const batches: number[][] = [];
    for await (const rows of readDocumentBatches(db, 'b', { batchSize: 1000 })) batches.push(rows.map((row) => row.ord));
    expect(batches.map((b) => b.length)).toEqual([1000, 1000, 500]);
    expect(batches.flat()).toEqual(Array.from({ length: 2500 }, (_, i) => i));
    expect(await getDocuments(db, 'b', ['d7', 'missing', 'd2499'])).toEqual([
      { id: 'd7', title: 'Title 7', text: 'text of document 7' },
      undefined,
      { id: 'd2499', title: 'Title 2499', text: 'text of document 2499' },
    ]);
  });

  test('an own corpus without queries or judgments imports with no splits', async () => {
    const db = freshDb();
    const outcome = await runImport(db, smallPlan('own', { queries: null, qrels: null }), { locks: null });
    expect(outcome.status).toBe('done');
    if (outcome.status === 'done') expect(outcome.collection).toMatchObject({ docCount: 10, queryCount: 0, splits: [] });
    expect((await loadQueries(db, 'own')).size).toBe(0);
  });

  test('importing an id that is already stored is refused and leaves the stored one alone', async () => {
    const db = freshDb();
    await runImport(db, smallPlan('c'), { locks: null });
    await expect(importCollection(db, smallPlan('c').meta, planRecords(smallPlan('c', { docs: 3 })), { locks: null })).rejects.toBeInstanceOf(CollectionExistsError);
    expect(await rowsOf(db, 'c')).toEqual({ collections: 1, documents: 10, directories: 1, queries: 2, qrels: 1 });
  });
});

describe('rollback', () => {
  test('a bad JSON line: the error names the file and line, nothing of the import stays, other collections are intact', async () => {
    const db = freshDb();
    await runImport(db, smallPlan('keep'), { locks: null });
    const corpus = ['{"_id":"d0","title":"","text":"fine"}', '{"_id":"d1","title":"","text":"fine"}', '{"_id":"d2", "text": oops}'].join('\n');
    const outcome = await runImport(db, smallPlan('bad', { corpus }), { locks: null });
    expect(outcome.status).toBe('failed');
    if (outcome.status !== 'failed') return;
    expect(outcome.error).toMatchObject({ name: 'ParseError', file: 'bad/corpus.jsonl', line: 3, kind: 'invalid-json' });
    expect(outcome.error.message).toMatch(/^bad\/corpus\.jsonl:3: invalid JSON/);
    expect(await rowsOf(db, 'bad')).toEqual(NOTHING);
    expect(await rowsOf(db, 'keep')).toEqual({ collections: 1, documents: 10, directories: 1, queries: 2, qrels: 1 });
  });

  test('an error in the last file (qrels) also removes the documents and queries already written', async () => {
    const db = freshDb();
    const outcome = await runImport(db, smallPlan('q', { docs: 1500, qrels: 'q1\td1\t1\nq1 d2 1\n' }), { locks: null });
    expect(outcome.status).toBe('failed');
    if (outcome.status === 'failed') expect(outcome.error).toMatchObject({ file: 'q/qrels/test.tsv', line: 2, kind: 'invalid-columns' });
    expect(await rowsOf(db, 'q')).toEqual(NOTHING);
  });

  test('with onError "skip" bad lines are dropped and listed in the stored report', async () => {
    const db = freshDb();
    const corpus = '{"_id":"d1","title":"","text":"a"}\nnot json\n{"_id":"d2","title":"","text":"b"}\n';
    const outcome = await runImport(db, smallPlan('skip', { corpus }), { locks: null, onError: 'skip' });
    expect(outcome.status).toBe('done');
    if (outcome.status !== 'done') return;
    const report = outcome.collection.report as { corpus: { skipped: Array<{ file: string; line: number }> } };
    expect(report.corpus.skipped).toEqual([expect.objectContaining({ file: 'skip/corpus.jsonl', line: 2, kind: 'invalid-json' })]);
    expect(outcome.collection.docCount).toBe(2);
  });

  test('cancel mid-import rolls back', async () => {
    const db = freshDb();
    const controller = new AbortController();
    const plan = smallPlan('cancel', { docs: 3000 });
    const outcome = await runImport(db, plan, {
      locks: null,
      signal: controller.signal,
      progressIntervalMs: 0,
      onProgress: (p) => {
        if (p.documents >= 1000) controller.abort(new DOMException('stop', 'AbortError'));
      },
    });
    expect(outcome).toEqual({ status: 'cancelled' });
    expect(await rowsOf(db, 'cancel')).toEqual(NOTHING);
  });

  test('QuotaExceededError: rollback and a message naming the collection and what did not fit', async () => {
    const db = freshDb();
    await runImport(db, smallPlan('keep'), { locks: null });
    const original = db.documentChunks.bulkAdd.bind(db.documentChunks);
    let calls = 0;
    // The second batch hits the quota, as IndexedDB reports it (a DOMException named QuotaExceededError).
    vi.spyOn(db.documentChunks, 'bulkAdd').mockImplementation(((...args: Parameters<typeof original>) => {
      calls += 1;
      if (calls === 2) return Promise.reject(new DOMException('The quota has been exceeded.', 'QuotaExceededError'));
      return original(...args);
    }) as typeof db.documentChunks.bulkAdd);
    const plan = smallPlan('big', { docs: 2500 });
    const error = await importCollection(db, plan.meta, planRecords(plan), {
      locks: null,
      batchSize: 1000,
      estimate: async () => ({ usage: 95 * 1024 * 1024, quota: 100 * 1024 * 1024 }),
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StorageFullError);
    const full = error as StorageFullError;
    expect(full.writing).toBe('documents');
    expect(full.storedSoFar).toBe(1000);
    expect(full.message).toContain('Not enough storage for "Collection big"');
    expect(full.message).toContain('documents (1,000 stored before it stopped)');
    expect(full.message).toContain('95 MB of the 100 MB');
    expect(full.message).toContain('The browser said: "QuotaExceededError: The quota has been exceeded."');
    expect(await rowsOf(db, 'big')).toEqual(NOTHING);
    expect(await rowsOf(db, 'keep')).toEqual({ collections: 1, documents: 10, directories: 1, queries: 2, qrels: 1 });
  });

  test('a quota error wrapped by Dexie (BulkError failures, AbortError inner) is recognised too', async () => {
    const { isQuotaError } = await import('../../../src/lib/storage/quota.ts');
    const quota = new DOMException('full', 'QuotaExceededError');
    expect(isQuotaError({ name: 'BulkError', failures: [quota] })).toBe(true);
    expect(isQuotaError({ name: 'BulkError', failures: { 3: quota } })).toBe(true);
    expect(isQuotaError({ name: 'AbortError', inner: quota })).toBe(true);
    expect(isQuotaError(new DOMException('x', 'AbortError'))).toBe(false);
    expect(isQuotaError(new Error('QuotaExceededError'))).toBe(false);
    const { browserQuotaMessage } = await import('../../../src/lib/storage/quota.ts');
    expect(browserQuotaMessage({ name: 'QuotaExceededError', message: 'outer copy', inner: quota })).toBe('QuotaExceededError: full');
    expect(browserQuotaMessage({ name: 'BulkError', failures: { 3: quota } })).toBe('QuotaExceededError: full');
    expect(browserQuotaMessage(new DOMException('x', 'AbortError'))).toBeUndefined();
  });
});

describe('interrupted imports', () => {
  async function leaveHalfImport(db: PlaygroundDatabase, id: string) {
    await db.collections.add({ id, name: id, status: 'importing', source: { kind: 'local', detail: '' }, docCount: 0, queryCount: 0, splits: [], createdAt: 1, bytes: 0 });
    await db.documentChunks.add({ collectionId: id, start: 0, ids: ['d0', 'd1', 'd2'], titles: ['', '', ''], texts: ['x', 'x', 'x'] });
  }

  test('rows left "importing" by a closed tab are rolled back on start-up', async () => {
    const db = freshDb();
    await runImport(db, smallPlan('keep'), { locks: null });
    // Ready collections only: nothing to roll back, so the page starts no import worker for it.
    expect(await hasUnfinishedImports(db)).toBe(false);
    await leaveHalfImport(db, 'half');
    expect(await hasUnfinishedImports(db)).toBe(true);
    expect(await recoverInterruptedImports(db, { locks: null })).toEqual(['half']);
    expect(await hasUnfinishedImports(db)).toBe(false);
    expect(await rowsOf(db, 'half')).toEqual(NOTHING);
    expect(await rowsOf(db, 'keep')).toEqual({ collections: 1, documents: 10, directories: 1, queries: 2, qrels: 1 });
  });

  test('an import whose lock is held (running in another tab) is left alone', async () => {
    const db = freshDb();
    await leaveHalfImport(db, 'running');
    const heldLocks: ImportLocks = {
      request: async (_name, options, callback) => callback(options.ifAvailable ? null : {}),
    };
    expect(await recoverInterruptedImports(db, { locks: heldLocks })).toEqual([]);
    expect((await rowsOf(db, 'running')).documents).toBe(3);
  });

  test('a new import of the same id replaces an abandoned half import', async () => {
    const db = freshDb();
    await leaveHalfImport(db, 'again');
    const outcome = await runImport(db, smallPlan('again', { docs: 2 }), { locks: null });
    expect(outcome.status).toBe('done');
    expect(await rowsOf(db, 'again')).toEqual({ collections: 1, documents: 2, directories: 1, queries: 2, qrels: 1 });
  });
});

describe('delete and usage', () => {
  async function addDerived(db: PlaygroundDatabase, collectionId: string) {
    await db.indexes.put({ key: `${collectionId}|bm25|{}`, collectionId, kind: 'bm25', version: 1, settings: {}, data: new ArrayBuffer(1000), bytes: 1000, buildMs: 1, createdAt: 1 });
    await db.embeddingSets.put({ key: `${collectionId}|m|f32|{}`, collectionId, part: 'corpus', modelId: 'm', dtype: 'f32', settings: {}, fingerprint: 'x', dimensions: 4, encoding: 'f16', docCount: 10, done: 10, device: 'wasm', embedMs: 1, createdAt: 1, updatedAt: 1 });
    await db.embeddingChunks.bulkPut([0, 5].map((start) => ({ setKey: `${collectionId}|m|f32|{}`, start, count: 5, ids: ['a', 'b', 'c', 'd', 'e'], data: new ArrayBuffer(40) })));
    await db.runs.put({ key: `${collectionId}|test|bm25`, collectionId, split: 'test', retriever: {}, trec: 'q1 Q0 d1 1 1.5 bm25\n', createdAt: 1, timings: {} });
  }

  test('delete removes every table keyed by the collection, and nothing of another', async () => {
    const db = freshDb();
    await runImport(db, smallPlan('x'), { locks: null });
    await runImport(db, smallPlan('y'), { locks: null });
    await addDerived(db, 'x');
    await addDerived(db, 'y');
    await deleteCollection(db, 'x');
    expect(await rowsOf(db, 'x')).toEqual(NOTHING);
    expect(await db.indexes.where('collectionId').equals('x').count()).toBe(0);
    expect(await db.embeddingSets.where('collectionId').equals('x').count()).toBe(0);
    expect(await db.embeddingChunks.where('setKey').equals('x|m|f32|{}').count()).toBe(0);
    expect(await db.runs.where('collectionId').equals('x').count()).toBe(0);
    expect(await rowsOf(db, 'y')).toEqual({ collections: 1, documents: 10, directories: 1, queries: 2, qrels: 1 });
    expect(await db.embeddingChunks.where('setKey').equals('y|m|f32|{}').count()).toBe(2);
    expect((await listCollections(db)).map((c) => c.id)).toEqual(['y']);
  });

  test('usage adds the data, index, embedding and run bytes of one collection', async () => {
    const db = freshDb();
    const outcome = await runImport(db, smallPlan('u'), { locks: null });
    await addDerived(db, 'u');
    const usage = await collectionUsage(db, 'u');
    const data = outcome.status === 'done' ? outcome.collection.bytes : NaN;
    // 10 docs × 4 dimensions × 2 bytes (f16); the TREC line is 20 bytes.
    expect(usage).toEqual({ collectionId: 'u', data, indexes: 1000, embeddings: 80, partialEmbeddings: 0, runs: 20, total: data + 1000 + 80 + 20 });
  });
});

describe('collection language', () => {
  test('a catalog language is kept; otherwise detected from the documents; changeable afterwards', async () => {
    const db = freshDb();
    const polish = Array.from({ length: 5 }, (_, i) => JSON.stringify({ _id: `d${i}`, title: `Strona ${i}`, text: 'Wypisuje zawartość katalogu, który nie jest pusty, oraz jego podkatalogów.' })).join('\n');
    const detected = smallPlan('pl-local', { corpus: polish });
    await importCollection(db, detected.meta, planRecords(detected), { locks: null });
    expect((await getCollection(db, 'pl-local'))?.language).toBe('pl');

    const english = smallPlan('en-local', { corpus: JSON.stringify({ _id: 'd1', title: 'The list', text: 'The files of the directory are listed by name.' }) });
    await importCollection(db, english.meta, planRecords(english), { locks: null });
    expect((await getCollection(db, 'en-local'))?.language).toBe('en');

    // A catalog entry says its language: no detection overrides it.
    const labelled = smallPlan('labelled', { corpus: polish });
    await importCollection(db, { ...labelled.meta, language: 'en' }, planRecords(labelled), { locks: null });
    expect((await getCollection(db, 'labelled'))?.language).toBe('en');

    await setCollectionLanguage(db, 'labelled', 'pl');
    expect((await getCollection(db, 'labelled'))?.language).toBe('pl');
    await expect(setCollectionLanguage(db, 'missing', 'pl')).rejects.toThrow(/no stored collection/);
  });

  test('the hub plan of a BEIR-PL entry carries its language; the starter is English', () => {
    const entry = CATALOG.find((e) => e.id === 'beir-pl/scifact')!;
    expect(hubImportPlan(entry, { hubUrl: 'http://hub.test' }).meta.language).toBe('pl');
    expect(starterImportPlan(starterTexts).meta.language).toBe('en');
  });
});

describe('utf8Length', () => {
  test('equals the encoded length, short and long strings, lone surrogates as U+FFFD', () => {
    const samples = ['', 'ascii', '\x7f edge', '\x80 edge', 'café', '中文', '🧬 dna', 'lone \ud800 high', 'lone \udc00 low', 'x\ud800'];
    const long = 'é🧬a\ud800'.repeat(200_000);
    const longAscii = 'ascii '.repeat(200_000);
    for (const text of [...samples, long, longAscii, `${longAscii}é`]) expect(utf8Length(text), JSON.stringify(text.slice(0, 20))).toBe(new TextEncoder().encode(text).length);
  });
});
