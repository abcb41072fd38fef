/**
 * RM3 and Bo1 through the worker's service (Bm25Service.searchPrf: WASM kernel for both passes, term
 * vectors from the index's reference form) give the same expanded queries, feedback documents and rankings
 * as the TypeScript reference index, on 60 SciFact test queries; and the expansion changes the ranking.
 */
import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { englishAnalyzer } from '../../../src/lib/analysis/english-analyzer.ts';
import { buildBm25Index, type Bm25Index } from '../../../src/lib/bm25/bm25-index.ts';
import { bagOfTerms } from '../../../src/lib/bm25/bm25-query.ts';
import { searchBm25 } from '../../../src/lib/bm25/bm25-search.ts';
import { Bm25Service } from '../../../src/lib/services/bm25-service.ts';
import { searchBo1 } from '../../../src/lib/prf/bo1.ts';
import { bm25FeedbackIndex } from '../../../src/lib/prf/feedback-index.ts';
import { searchRm3 } from '../../../src/lib/prf/rm3.ts';
import { PlaygroundDatabase } from '../../../src/lib/storage/db.ts';
import { putDocuments } from '../../../src/lib/storage/documents.ts';
import type { Query } from '../../../src/lib/types.ts';
import { analyzedSciFact, kernelModule } from '../bm25-wasm/fixtures.ts';

const COLLECTION = 'beir/scifact';
let db: PlaygroundDatabase;
let service: Bm25Service;
let reference: Bm25Index;
let queries: Query[];

beforeAll(async () => {
  const { collection, docs } = await analyzedSciFact();
  db = new PlaygroundDatabase('prf-service-test');
  await db.open();
  await db.collections.put({
    id: COLLECTION,
    name: 'SciFact',
    status: 'ready',
    source: { kind: 'local', detail: 'test' },
    docCount: collection.docs.length,
    queryCount: collection.queries.size,
    splits: ['test'],
    createdAt: 1,
    bytes: 0,
  });
  await putDocuments(db, COLLECTION, collection.docs);
  reference = buildBm25Index(docs);
  const qrels = collection.qrels.get('test')!;
  queries = [...collection.queries.values()].filter((query) => qrels.has(query.id)).slice(0, 60);
  service = new Bm25Service({ db, loadKernel: kernelModule, locks: null });
  await service.openIndex({ collectionId: COLLECTION });
}, 120_000);

afterAll(async () => {
  await db?.delete();
});

describe('pseudo-relevance feedback in the BM25 service', () => {
  const analyzer = englishAnalyzer();

  it.each(['rm3', 'bo1'] as const)('%s: WASM service equals the TypeScript reference', (method) => {
    let changed = 0;
    for (const query of queries) {
      const feedbackIndex = bm25FeedbackIndex(reference, { queryId: query.id });
      const bag = bagOfTerms(analyzer.analyze(query.text));
      const expected = method === 'rm3' ? searchRm3(feedbackIndex, bag, { k: 100 }) : searchBo1(feedbackIndex, bag, { k: 100 });
      const actual = service.searchPrf(COLLECTION, query, { method }, { k: 100 });
      expect(actual).toEqual(expected);
      expect(actual.expanded.length).toBeGreaterThan(bag.length);
      const plain = searchBm25(reference, { id: query.id, terms: analyzer.analyze(query.text) }, { k: 100 });
      if (plain.map((h) => h.docId).join() !== actual.hits.map((h) => h.docId).join()) changed++;
    }
    expect(changed).toBeGreaterThan(queries.length / 2);
  });

  it('passes parameters through and takes weighted queries', () => {
    const result = service.searchPrf(COLLECTION, { text: '', weighted: [{ term: 'microrna', weight: 2 }] }, { method: 'rm3', fbTerms: 3, fbDocs: 2, originalQueryWeight: 0.8 }, { k: 5 });
    expect(result.feedbackDocIds).toHaveLength(2);
    // The query term, and at most 3 model terms.
    expect(result.expanded.length).toBeLessThanOrEqual(4);
    expect(result.expanded.find((t) => t.term === 'microrna')!.weight).toBeGreaterThanOrEqual(0.8);
    expect(result.hits).toHaveLength(5);
  });
});
