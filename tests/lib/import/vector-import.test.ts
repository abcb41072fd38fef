import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ParseError } from '../../../src/lib/data/errors.ts';
import { annRecallAtK } from '../../../src/lib/dense/ann-recall.ts';
import { importedVectorsEmbedder, importedVectorsName, MissingQueryVectorError, vectorsNotStored } from '../../../src/lib/dense/imported-vectors.ts';
import { readVectorFile } from '../../../src/lib/import/vector-file.ts';
import { importVectorFiles, storeImportedVectors } from '../../../src/lib/import/vector-import.ts';
import { listImportedVectors } from '../../../src/lib/storage/embedding-sets.ts';
import { DEFAULT_HNSW } from '../../../src/lib/retrievers/config.ts';
import { DenseCorpusService } from '../../../src/lib/services/dense-corpus-service.ts';
import type { PlaygroundDatabase } from '../../../src/lib/storage/db.ts';
import type { Doc, Query } from '../../../src/lib/types.ts';
import { storeCollection, testDb } from '../storage/stored-collection.ts';
import { bruteForceCosine, memoryFile, npyVectors, parquetVectors, pyseriniJsonl, randomVectors } from './vector-fixtures.ts';

// Imported vectors stored as a collection's embedding sets (src/lib/import/vector-import.ts) and searched by
// the dense column's own service (DenseCorpusService, as the page's dense worker runs it): the ranking equals
// a brute-force cosine top-k computed here from the raw file values; HNSW's recall is checked against exact
// search as the other HNSW tests do; files that do not fit the collection store nothing.

const C = 'vec';
const DIM = 16;
const DOCS: Doc[] = Array.from({ length: 600 }, (_, i) => ({ id: `doc${i}`, title: '', text: `document ${i}` }));
const QUERIES: Query[] = Array.from({ length: 12 }, (_, i) => ({ id: `q${i}`, text: `question ${i}` }));
const DOC_VECTORS = randomVectors(DOCS.length, DIM, 11);
const QUERY_VECTORS = randomVectors(QUERIES.length, DIM, 12);
const docIds = DOCS.map((doc) => doc.id);
const queryIds = QUERIES.map((query) => query.id);

let db: PlaygroundDatabase;

beforeEach(async () => {
  db = testDb('vector-import');
  await db.open();
  await storeCollection(db, C, { docs: DOCS, queries: QUERIES });
});

afterEach(async () => {
  await db.delete();
});

const setsStored = () => db.embeddingSets.where('collectionId').equals(C).count();
const chunksStored = () => db.embeddingChunks.count();

async function importJsonl(corpus: string, queries: string | undefined) {
  const corpusRows = await readVectorFile({ file: memoryFile('embeddings.jsonl', corpus) });
  const queryRows = queries === undefined ? undefined : await readVectorFile({ file: memoryFile('queries.jsonl', queries) });
  return storeImportedVectors(db, C, { corpus: corpusRows, ...(queryRows === undefined ? {} : { queries: queryRows }) });
}

async function openService(model: string, search: 'exact' | 'hnsw') {
  const service = new DenseCorpusService({ db, embedder: importedVectorsEmbedder(model), locks: null });
  const info = await service.open({ collectionId: C, search, hnsw: DEFAULT_HNSW });
  return { service, info };
}

describe('vectors from file', () => {
  it('a run from imported Pyserini vectors equals brute-force cosine top-k (exact search)', async () => {
    // The file lists documents in another order than the collection: rows are matched by id.
    const order = [...docIds.keys()].reverse();
    const stored = await importJsonl(
      pyseriniJsonl(order.map((i) => docIds[i]!), order.map((i) => DOC_VECTORS[i]!)),
      pyseriniJsonl(queryIds, QUERY_VECTORS),
    );
    expect(stored).toMatchObject({ docs: DOCS.length, queries: QUERIES.length, dim: DIM });
    expect(importedVectorsName(stored.model)).toBe('embeddings.jsonl');
    const { service, info } = await openService(stored.model, 'exact');
    expect(info).toMatchObject({ fromCache: true, docs: DOCS.length, dim: DIM });
    const runs = await service.search(C, QUERIES.map((q) => q.text), 10, { search: 'exact', hnsw: DEFAULT_HNSW });
    QUERIES.forEach((_, q) => {
      const expected = bruteForceCosine(QUERY_VECTORS[q]!, docIds, DOC_VECTORS, 10);
      expect(runs[q]!.map((hit) => hit.docId)).toEqual(expected.map((hit) => hit.docId));
      runs[q]!.forEach((hit, i) => expect(hit.score).toBeCloseTo(expected[i]!.score, 5));
    });
    // LEDR's scoring of given candidates is the same cosine.
    const [scores] = await service.score(C, [QUERIES[0]!.text], [[{ docId: 'doc5' }, { docId: 'doc7' }]]);
    const expected = bruteForceCosine(QUERY_VECTORS[0]!, ['doc5', 'doc7'], [DOC_VECTORS[5]!, DOC_VECTORS[7]!], 2);
    const byId = new Map(expected.map((hit) => [hit.docId, hit.score]));
    expect(scores![0]).toBeCloseTo(byId.get('doc5')!, 5);
    expect(scores![1]).toBeCloseTo(byId.get('doc7')!, 5);
    service.dispose();
  });

  it('Parquet and .npy files give the same ranking as the JSON lines, and HNSW finds ≥ 0.99 of exact top 10', async () => {
    const corpus = await readVectorFile({ file: memoryFile('corpus.parquet', parquetVectors(docIds, DOC_VECTORS, 128)) });
    const queries = await readVectorFile({ file: memoryFile('queries.npy', npyVectors(QUERY_VECTORS)), ids: memoryFile('queries.ids.txt', queryIds.join('\n')) });
    const stored = await storeImportedVectors(db, C, { corpus, queries });
    const { service } = await openService(stored.model, 'exact');
    const texts = QUERIES.map((q) => q.text);
    const exact = await service.searchPacked(C, texts, 10, { search: 'exact', hnsw: DEFAULT_HNSW });
    const hits = await service.search(C, texts, 10, { search: 'exact', hnsw: DEFAULT_HNSW });
    QUERIES.forEach((_, q) => expect(hits[q]!.map((hit) => hit.docId)).toEqual(bruteForceCosine(QUERY_VECTORS[q]!, docIds, DOC_VECTORS, 10).map((hit) => hit.docId)));
    await service.open({ collectionId: C, search: 'hnsw', hnsw: DEFAULT_HNSW });
    const ann = await service.searchPacked(C, texts, 10, { search: 'hnsw', hnsw: DEFAULT_HNSW });
    const rowsOf = (packed: typeof exact) =>
      texts.map((_, q) => Array.from(packed.rows.subarray(packed.offsets[q]!, packed.offsets[q + 1]!), (row, i) => ({ row, score: packed.scores[packed.offsets[q]! + i]! })));
    expect(annRecallAtK(rowsOf(ann), rowsOf(exact), 10)).toBeGreaterThanOrEqual(0.99);
    service.dispose();
  });

  it('a typed query (no imported vector) is a clear error, not an empty list', async () => {
    const stored = await importJsonl(pyseriniJsonl(docIds, DOC_VECTORS), pyseriniJsonl(queryIds, QUERY_VECTORS));
    const { service } = await openService(stored.model, 'exact');
    const typed = service.search(C, ['a query typed in the box'], 10, { search: 'exact', hnsw: DEFAULT_HNSW });
    await expect(typed).rejects.toBeInstanceOf(MissingQueryVectorError);
    await expect(typed).rejects.toThrow('no vector for the query "a query typed in the box": vectors from embeddings.jsonl rank only the queries whose vectors were imported');
    service.dispose();
  });

  it('importVectorFiles reads and stores both files, reporting rows; cancelled, it stores nothing', async () => {
    const files = { corpus: memoryFile('embeddings.jsonl', pyseriniJsonl(docIds, DOC_VECTORS)), queries: memoryFile('q.jsonl', pyseriniJsonl(queryIds, QUERY_VECTORS)) };
    const controller = new AbortController();
    controller.abort(new DOMException('cancelled', 'AbortError'));
    await expect(importVectorFiles(db, C, files, { signal: controller.signal })).rejects.toThrow('cancelled');
    expect(await setsStored()).toBe(0);
    const progress: Array<{ file: string; rows: number; share: number }> = [];
    const stored = await importVectorFiles(db, C, files, { onProgress: (p) => progress.push(p) });
    expect(stored).toMatchObject({ docs: DOCS.length, queries: QUERIES.length, dim: DIM });
    expect(progress.at(-1)).toEqual({ file: 'q.jsonl', rows: QUERIES.length, share: 1 });
    // The corpus file's share of the whole is its share of the two files' bytes.
    const corpusShare = files.corpus.size! / (files.corpus.size! + files.queries.size!);
    expect(progress).toContainEqual({ file: 'embeddings.jsonl', rows: DOCS.length, share: corpusShare });
    // The share never goes back.
    progress.forEach((p, i) => expect(p.share).toBeGreaterThanOrEqual(progress[i - 1]?.share ?? 0));
    expect(await setsStored()).toBe(2);
  });

  it('another collection without these vectors is a clear error, and nothing is embedded or stored for it', async () => {
    const stored = await importJsonl(pyseriniJsonl(docIds, DOC_VECTORS), pyseriniJsonl(queryIds, QUERY_VECTORS));
    await storeCollection(db, 'other', { docs: DOCS.slice(0, 5) });
    const service = new DenseCorpusService({ db, embedder: importedVectorsEmbedder(stored.model), locks: null, storedOnly: (collection) => vectorsNotStored(stored.model, collection) });
    await expect(service.open({ collectionId: 'other', search: 'exact', hnsw: DEFAULT_HNSW })).rejects.toThrow(
      'the vectors of embeddings.jsonl are not stored for "Collection other": import them in the dense column\'s settings (model → Vectors from files…)',
    );
    expect(await db.embeddingSets.where('collectionId').equals('other').count()).toBe(0);
  });

  it('lists the imported vectors of a collection', async () => {
    const stored = await importJsonl(pyseriniJsonl(docIds, DOC_VECTORS), undefined);
    expect(await listImportedVectors(db, C)).toEqual([expect.objectContaining({ model: stored.model, docs: DOCS.length, dim: DIM })]);
  });

  describe('files that do not fit the collection store nothing', () => {
    async function expectNothingStored(attempt: Promise<unknown>, message: string) {
      const error = await attempt.then(
        () => undefined,
        (caught: unknown) => caught,
      );
      expect(error).toBeInstanceOf(ParseError);
      expect((error as Error).message).toBe(message);
      expect(await setsStored()).toBe(0);
      expect(await chunksStored()).toBe(0);
    }

    it('query vectors of another dimension than the corpus vectors', async () => {
      await expectNothingStored(
        importJsonl(pyseriniJsonl(docIds, DOC_VECTORS), pyseriniJsonl(queryIds, randomVectors(QUERIES.length, DIM + 1, 3))),
        'queries.jsonl:1: query vectors of 17 dimensions, the corpus vectors have 16',
      );
    });

    it('documents without a vector (how many, the first few)', async () => {
      await expectNothingStored(
        importJsonl(pyseriniJsonl(docIds.slice(0, 590), DOC_VECTORS.slice(0, 590)), undefined),
        'embeddings.jsonl: 10 of the 600 documents of "Collection vec" have no vector: "doc590", "doc591", "doc592", …',
      );
    });

    it('ids that are not documents or queries of the collection', async () => {
      await expectNothingStored(
        importJsonl(pyseriniJsonl([...docIds, 'x1', 'x2'], [...DOC_VECTORS, DOC_VECTORS[0]!, DOC_VECTORS[1]!]), undefined),
        'embeddings.jsonl: 2 ids are not documents of "Collection vec": "x1", "x2"',
      );
      await expectNothingStored(
        importJsonl(pyseriniJsonl(docIds, DOC_VECTORS), pyseriniJsonl(['q1', 'nope'], QUERY_VECTORS.slice(0, 2))),
        'queries.jsonl: 1 ids are not queries of "Collection vec": "nope"',
      );
    });

    it('NaN in a vector (the file is refused before anything is matched)', async () => {
      const withNan = pyseriniJsonl(docIds, DOC_VECTORS).replace(/"vector":\[([^,]+),/, '"vector":[NaN,');
      await expectNothingStored(importJsonl(withNan, undefined), 'embeddings.jsonl:1: the vector holds NaN or Infinity');
    });

    it('a bad second import leaves the first one as it was', async () => {
      const stored = await importJsonl(pyseriniJsonl(docIds, DOC_VECTORS), pyseriniJsonl(queryIds, QUERY_VECTORS));
      const before = { sets: await setsStored(), chunks: await chunksStored() };
      await expect(importJsonl(pyseriniJsonl(docIds.slice(1), DOC_VECTORS.slice(1)), undefined)).rejects.toBeInstanceOf(ParseError);
      expect({ sets: await setsStored(), chunks: await chunksStored() }).toEqual(before);
      const { service } = await openService(stored.model, 'exact');
      expect(await service.search(C, [QUERIES[0]!.text], 3, { search: 'exact', hnsw: DEFAULT_HNSW })).toHaveLength(1);
      service.dispose();
    });
  });
});
