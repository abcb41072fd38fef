/**
 * The BM25 worker's logic with the loadable WordPiece analyzer ("BM25 (Ours)"): the vocabulary is read through
 * `loadAnalyzerFile` (the worker fetches it from the app), the index is built, stored and loaded back under
 * its own key, and rankings equal the TypeScript reference BM25 over the same WordPiece terms; RM3 / Bo1 over
 * the open index (`searchPrfMany`) equal src/lib/prf on the reference index. On the starter collection.
 */
import 'fake-indexeddb/auto';
import { putDocuments } from '../../../src/lib/storage/documents.ts';
import { readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadableAnalyzers } from '../../../src/lib/analysis/analyzers.ts';
import { Bm25Service } from '../../../src/lib/services/bm25-service.ts';
import { indexCorpus } from '../../../src/lib/bm25/bm25-corpus.ts';
import type { Bm25Index } from '../../../src/lib/bm25/bm25-index.ts';
import { bagOfTerms } from '../../../src/lib/bm25/bm25-query.ts';
import { searchBm25 } from '../../../src/lib/bm25/bm25-search.ts';
import { loadDataset } from '../../../src/cli/dataset.ts';
import { searchBo1 } from '../../../src/lib/prf/bo1.ts';
import { bm25FeedbackIndex } from '../../../src/lib/prf/feedback-index.ts';
import { searchRm3 } from '../../../src/lib/prf/rm3.ts';
import { PlaygroundDatabase } from '../../../src/lib/storage/db.ts';
import type { Query } from '../../../src/lib/types.ts';
import { kernelModule } from '../bm25-wasm/fixtures.ts';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const COLLECTION = 'starter';
let db: PlaygroundDatabase;
let vocab: string;
let reference: Bm25Index;
let queries: Query[];
const filesRead: string[] = [];

function service(): Bm25Service {
  return new Bm25Service({
    db,
    loadKernel: kernelModule,
    locks: null,
    loadAnalyzerFile: async (file) => {
      filesRead.push(file);
      return readFile(join(repoRoot, 'public', file), 'utf8');
    },
  });
}

beforeAll(async () => {
  const starter = await loadDataset(join(repoRoot, 'src/lib/starter/data'), { splits: ['test'] });
  db = new PlaygroundDatabase('bm25-service-wordpiece-test');
  await db.open();
  await db.collections.put({
    id: COLLECTION,
    name: 'Starter',
    status: 'ready',
    source: { kind: 'local', detail: 'test' },
    docCount: starter.docs.length,
    queryCount: starter.queries.size,
    splits: ['test'],
    createdAt: 1,
    bytes: 0,
  });
  await putDocuments(db, COLLECTION, starter.docs);
  vocab = await readFile(join(repoRoot, 'public', loadableAnalyzers.wordpiece.file), 'utf8');
  reference = indexCorpus(starter.docs, loadableAnalyzers.wordpiece.create(vocab));
  queries = [...starter.queries.values()];
});

afterAll(async () => {
  await db?.delete();
});

describe('Bm25Service with the WordPiece analyzer', () => {
  it('builds, stores and reloads a WordPiece index whose rankings equal the reference BM25', async () => {
    const built = await service().openIndex({ collectionId: COLLECTION, analyzer: 'wordpiece' });
    expect(built.source).toBe('built');
    expect(built.settings.analyzer).toBe('wordpiece');
    expect(built.numTerms).toBe(reference.terms.length);
    expect(reference.terms.some((term) => term.startsWith('##'))).toBe(true);
    const reopened = service();
    const stored = await reopened.openIndex({ collectionId: COLLECTION, analyzer: 'wordpiece' });
    expect(stored.source).toBe('stored');
    const analyzer = loadableAnalyzers.wordpiece.create(vocab);
    for (const query of queries) {
      const expected = searchBm25(reference, { id: query.id, terms: analyzer.analyze(query.text) }, { k: 100, params: { k1: 0.9, b: 0.4 } });
      expect(reopened.search(COLLECTION, query, { k: 100 })).toEqual(expected);
    }
    expect(filesRead).toEqual([loadableAnalyzers.wordpiece.file, loadableAnalyzers.wordpiece.file]);
    // The English index of the same collection is another index.
    const english = await reopened.openIndex({ collectionId: COLLECTION, analyzer: 'english' });
    expect(english.source).toBe('built');
  });

  it('RM3 and Bo1 of many queries equal src/lib/prf on the reference index', async () => {
    const open = service();
    await open.openIndex({ collectionId: COLLECTION, analyzer: 'wordpiece' });
    const analyzer = loadableAnalyzers.wordpiece.create(vocab);
    const some = queries.slice(0, 6);
    const rm3 = open.searchPrfMany(COLLECTION, some, { method: 'rm3', fbTerms: 10, fbDocs: 10, originalQueryWeight: 0.5 }, { k: 50 });
    const bo1 = open.searchPrfMany(COLLECTION, some, { method: 'bo1', fbTerms: 10, fbDocs: 3 }, { k: 50 });
    some.forEach((query, i) => {
      const index = bm25FeedbackIndex(reference, { params: { k1: 0.9, b: 0.4 }, queryId: query.id });
      const bag = bagOfTerms(analyzer.analyze(query.text));
      expect(rm3[i]).toEqual(searchRm3(index, bag, { k: 50 }));
      expect(bo1[i]).toEqual(searchBo1(index, bag, { fbTerms: 10, fbDocs: 3, k: 50 }));
      expect(rm3[i]!.expanded.length).toBeGreaterThan(0);
    });
  });

  it('without a way to read files, says which file the analyzer needs', async () => {
    const bare = new Bm25Service({ db, loadKernel: kernelModule, locks: null });
    await expect(bare.openIndex({ collectionId: COLLECTION, analyzer: 'wordpiece' })).rejects.toThrow(
      `the wordpiece analyzer needs its file ${loadableAnalyzers.wordpiece.file}, and this BM25 service cannot read files`,
    );
  });
});
