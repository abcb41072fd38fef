import 'fake-indexeddb/auto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { catalogEntry, type CatalogEntry } from '../../../src/lib/catalog/index.ts';
import { readQrels } from '../../../src/lib/data/qrels.ts';
import { hubFileSizes, hubImportPlan } from '../../../src/lib/import/hub.ts';
import { runImport, type ImportProgress } from '../../../src/lib/import/importer.ts';
import { loadAllQrels, loadDocuments, loadQueries } from '../../../src/lib/storage/collections.ts';
import { PlaygroundDatabase } from '../../../src/lib/storage/db.ts';
import { nanoSciFactFixture, startHubServer, type HubServer } from '../../browser/hub-server.ts';
import { shared } from '../../shared-dir.ts';

/**
 * Downloads through the hub code path (fetch, HEAD sizes, gzip, parquet) from the local hub server, which
 * serves the shared SciFact files under the Hugging Face URL layout. Expected figures are SciFact's
 * published counts (shared/README.md: 5,183 docs, 1,109 queries, test 339 pairs / 300 queries, train 919
 * pairs / 809 queries) and the files themselves.
 */

let hub: HubServer;
async function* chunks(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  yield bytes;
}

let dbCount = 0;
const freshDb = () => new PlaygroundDatabase(`hub-test-${dbCount++}`);

beforeAll(async () => {
  hub = await startHubServer();
});

afterAll(async () => {
  await hub.close();
});

describe('SciFact from the hub layout', () => {
  test('downloads, parses and stores SciFact: 5,183 docs, 1,109 queries, test 300 / train 809 queries', async () => {
    const db = freshDb();
    const entry = catalogEntry('beir/scifact')!;
    const sizes = await hubFileSizes(entry, { hubUrl: hub.url });
    expect(sizes.get('BeIR/scifact/corpus.jsonl.gz')).toBe(readFileSync(shared('beir', 'scifact', 'corpus.jsonl.gz')).length);
    const progress: ImportProgress[] = [];
    const outcome = await runImport(db, hubImportPlan(entry, { hubUrl: hub.url }), { sizes, onProgress: (p) => progress.push(p), progressIntervalMs: 0 });
    expect(outcome.status).toBe('done');
    if (outcome.status !== 'done') return;
    const { collection } = outcome;
    expect(collection).toMatchObject({ id: 'beir/scifact', status: 'ready', docCount: 5183, queryCount: 1109, splits: ['test', 'train'] });
    expect(collection.source.kind).toBe('hub');

    const docs = await loadDocuments(db, 'beir/scifact');
    const firstLine = JSON.parse(readFileSync(shared('beir', 'scifact', 'corpus.jsonl'), 'utf8').split('\n')[0]!) as { _id: string; title: string };
    expect(docs).toHaveLength(5183);
    expect(docs[0]).toMatchObject({ id: firstLine._id, title: firstLine.title });

    const queries = await loadQueries(db, 'beir/scifact');
    expect(queries.size).toBe(1109);
    const qrels = await loadAllQrels(db, 'beir/scifact');
    expect(qrels.get('test')!.size).toBe(300);
    expect(qrels.get('train')!.size).toBe(809);
    const testFromFile = await readQrels(chunks(readFileSync(shared('beir', 'scifact', 'qrels', 'test.tsv'))));
    expect(qrels.get('test')).toEqual(testFromFile);

    // Progress: bytes grow to the total of the HEAD sizes, documents to 5,183.
    const last = progress.at(-1)!;
    expect(last.totalBytes).toBe([...sizes.values()].reduce((a, b) => a + b, 0));
    expect(last.bytes).toBe(last.totalBytes);
    expect(last.documents).toBe(5183);
    expect(progress.some((p) => p.phase === 'documents' && p.documents > 0 && p.documents < 5183)).toBe(true);
    expect(hub.requests).toContain('GET /datasets/BeIR/scifact/resolve/main/corpus.jsonl.gz');
    db.close();
  });

  test('a missing file fails with the file name, the URL and the HTTP status, and stores nothing', async () => {
    const db = freshDb();
    const scifact = catalogEntry('beir/scifact')!;
    const broken: CatalogEntry = {
      ...scifact,
      id: 'beir/missing',
      files: { ...scifact.files, qrels: [{ repo: 'BeIR/scifact-qrels', path: 'dev.tsv', format: 'tsv', split: 'dev' }] },
    };
    const outcome = await runImport(db, hubImportPlan(broken, { hubUrl: hub.url }));
    expect(outcome.status).toBe('failed');
    if (outcome.status !== 'failed') return;
    expect(outcome.error.file).toBe('BeIR/scifact-qrels/dev.tsv');
    expect(outcome.error.message).toContain('HTTP 404');
    expect(outcome.error.message).toContain(`${hub.url}/datasets/BeIR/scifact-qrels/resolve/main/dev.tsv`);
    expect(await db.collections.count()).toBe(0);
    expect(await db.documentChunks.count()).toBe(0);
    db.close();
  });

  test('an unreachable hub fails with a message that names the address', async () => {
    const db = freshDb();
    const outcome = await runImport(db, hubImportPlan(catalogEntry('beir/scifact')!, { hubUrl: 'http://127.0.0.1:9' }));
    expect(outcome.status).toBe('failed');
    if (outcome.status === 'failed') expect(outcome.error.message).toMatch(/could not download http:\/\/127\.0\.0\.1:9\/datasets\/BeIR\/scifact/);
    db.close();
  });

  test('cancelling mid-download rolls back', async () => {
    const db = freshDb();
    const controller = new AbortController();
    const outcome = await runImport(db, hubImportPlan(catalogEntry('beir/scifact')!, { hubUrl: hub.url }), {
      signal: controller.signal,
      progressIntervalMs: 0,
      onProgress: (p) => {
        if (p.documents >= 1000) controller.abort(new DOMException('stop', 'AbortError'));
      },
    });
    expect(outcome.status).toBe('cancelled');
    expect(await db.documentChunks.count()).toBe(0);
    expect(await db.collections.count()).toBe(0);
    db.close();
  });
});

describe('NanoBEIR parquet from the hub layout', () => {
  test('reads the three parquet files: no titles, binary judgments stored as split test', async () => {
    const db = freshDb();
    const fixture = nanoSciFactFixture();
    const outcome = await runImport(db, hubImportPlan(catalogEntry('nanobeir/scifact')!, { hubUrl: hub.url }));
    expect(outcome.status).toBe('done');
    if (outcome.status !== 'done') return;
    expect(outcome.collection).toMatchObject({ docCount: fixture.counts.docs, queryCount: fixture.counts.queries, splits: ['test'] });
    const qrels = (await loadAllQrels(db, 'nanobeir/scifact')).get('test')!;
    expect(qrels.size).toBe(fixture.counts.queries);
    const grades = [...qrels.values()].flatMap((docs) => [...docs.values()]);
    expect(grades).toHaveLength(fixture.counts.pairs);
    expect(new Set(grades)).toEqual(new Set([1]));
    const docs = await loadDocuments(db, 'nanobeir/scifact');
    expect(docs[0]!.title).toBe('');
    db.close();
  });
});
