import { writeFileSync } from 'node:fs';
import { tempDir } from '../temp-dir.ts';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import { collectionGraphPrefix } from '../../src/lib/storage/hnsw-files.ts';
import { columnsReady, countOf, recordedJobs, recordJobs, rows } from './app-page.ts';
import { launch, screenshot, waitInPage, type BrowserSession } from './harness.ts';
import { startHubServer, type HubServer } from './hub-server.ts';

/**
 * Storage robustness in Debian's chromium, against the built app and the local hub mirror (hub-server.ts):
 * persistent storage asked for and usage shown; a file with bad lines fails with file, line and problem and
 * is imported again skipping them; a reload mid-import leaves nothing behind; a reload mid-embedding resumes
 * at the last stored checkpoint (same set, `done` never going back); two tabs on one collection build the
 * BM25 index and embed the corpus once (the second waits on the Web Lock, then loads); deleting a collection
 * removes its embeddings and its HNSW graph files; and a tab whose database another tab upgrades lets go of
 * it and says to reload. One profile, tests in order. SciFact counts: shared/README.md.
 */

const SCIFACT_DOCS = 5183;
const TINY = 'local/tiny-bert';

let session: BrowserSession;
let hub: HubServer;
let appUrl: string;

beforeAll(async () => {
  appUrl = inject('appUrl');
  hub = await startHubServer();
  session = await launch();
  await recordJobs(session.page);
});

afterAll(async () => {
  await session?.close();
  await hub?.close();
});

/** Keys of one store (for hnswlib's file store, whose values are file contents). */
async function keys(page: Page, database: string, store: string): Promise<string[]> {
  return page.evaluate(
    async ([name, storeName]) => {
      if (!(await indexedDB.databases()).some((d) => d.name === name)) return [];
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const request = indexedDB.open(name!);
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
      try {
        if (!db.objectStoreNames.contains(storeName!)) return [];
        return await new Promise<string[]>((resolve, reject) => {
          const request = db.transaction(storeName!, 'readonly').objectStore(storeName!).getAllKeys();
          request.onsuccess = () => resolve(request.result.map(String));
          request.onerror = () => reject(request.error);
        });
      } finally {
        db.close();
      }
    },
    [database, store] as const,
  );
}

interface SetRow {
  key: string;
  collectionId: string;
  modelId: string;
  done: number;
  docCount: number;
  createdAt: number;
  dimensions: number;
}

const scifactSets = async (page: Page) => (await rows<SetRow>(page, 'embeddingSets')).filter((row) => row.collectionId === 'beir/scifact');

async function openDatasets(page: Page) {
  await page.getByRole('button', { name: 'Datasets' }).click();
  await page.getByRole('heading', { name: 'In this browser' }).waitFor();
}

const row = (page: Page, id: string) => page.locator(`tr[data-collection="${id}"]`);

/** The Explore view of SciFact with these columns, written as the app writes them (`;` and `=` unescaped). */
function exploreUrl(columns: string[]): string {
  return `${appUrl}/?view=explore&collection=beir/scifact&${columns.map((column) => `col=${column}`).join('&')}`;
}

const denseColumn = (search: 'exact' | 'hnsw' = 'exact') => `dense;m=${TINY};dt=fp32;s=${search};dev=wasm`;

test('persistent storage is asked for once, and the storage panel shows the site’s usage', async () => {
  const { page, errors } = session;
  await page.goto(appUrl);
  await expect.poll(() => page.getByLabel('Collection', { exact: true }).inputValue(), { timeout: 30_000 }).toBe('starter');
  await openDatasets(page);
  const panel = page.getByTestId('storage-panel');
  await expect.poll(() => panel.textContent()).toMatch(/This site uses .+ of the .+ the browser allows it/);
  // navigator.storage.persist() was called on the first visit (the answer is the browser's).
  expect(await page.evaluate(() => localStorage.getItem('retrieval-playground.persistRequested'))).toMatch(/^\d+$/);
  expect(await panel.textContent()).toMatch(/Persistent storage: (granted|not granted)/);
  await screenshot(page, 'robust-storage-panel');
  expect(errors).toEqual([]);
});

test('a corpus with bad lines: the error names file, line and problem, and "skip bad lines" imports the rest with the lines listed', async () => {
  const { page } = session;
  const dir = tempDir('rp-badlines-');
  const lines = [
    '{"_id":"a","title":"A","text":"first"}',
    '{"_id":"b","title":"B","text":"second"}',
    '{"_id":"c","title":"C","text": broken}',
    '{"_id":"d","title":"D","text":"fourth"}',
    '{"title":"E","text":"no id"}',
    '{"_id":"f","title":"F","text":"sixth"}',
  ];
  writeFileSync(join(dir, 'corpus.jsonl'), lines.join('\n'));
  writeFileSync(join(dir, 'queries.jsonl'), '{"_id":"q1","text":"first"}\n');
  await page.getByTestId('pick-files').setInputFiles([join(dir, 'corpus.jsonl'), join(dir, 'queries.jsonl')]);
  const preview = page.getByRole('region', { name: 'Recognised files' });
  await preview.waitFor();
  await preview.getByRole('button', { name: 'Import', exact: true }).click();
  const error = page.getByTestId('import-error');
  await error.waitFor({ timeout: 30_000 });
  const text = (await error.textContent()) ?? '';
  expect(text).toContain('corpus.jsonl');
  expect(text).toMatch(/Line\s*3/);
  expect(text).toContain('invalid JSON');
  const retry = error.getByRole('button', { name: 'Import again, skipping bad lines' });
  await retry.waitFor();
  await screenshot(page, 'robust-storage-bad-line');
  const before = await page.locator('tr[data-collection]').count();
  await retry.click();
  const report = page.getByTestId('import-report');
  await expect.poll(() => report.textContent(), { timeout: 30_000 }).toContain('4 documents');
  const reportText = (await report.textContent()) ?? '';
  expect(reportText).toContain('2 bad lines skipped');
  expect(reportText).toMatch(/corpus\.jsonl:3: invalid JSON/);
  expect(reportText).toContain('corpus.jsonl:5: "_id" is missing');
  expect(await page.locator('tr[data-collection]').count()).toBe(before + 1);
  // The preview of the files is cleared once they are imported.
  await expect.poll(() => preview.count()).toBe(0);
  await screenshot(page, 'robust-storage-skipped-report');
});

test('a reload in the middle of an import leaves no half collection; the import then succeeds', async () => {
  const { page } = session;
  await page.goto(`${appUrl}/?hub=${encodeURIComponent(hub.url)}`);
  await openDatasets(page);
  await row(page, 'starter').waitFor();
  const listed = await page.locator('tr[data-collection]').count();
  await page.locator('tr[data-entry="beir/scifact"] button').click();
  // Reload once documents are being stored.
  await expect.poll(() => countOf(page, 'documentChunks', 'beir/scifact'), { timeout: 60_000, interval: 50 }).toBeGreaterThan(0);
  const storedBefore = await countOf(page, 'documentChunks', 'beir/scifact');
  console.log(`import interrupted with ${storedBefore} chunks of documents (of ${SCIFACT_DOCS} documents) stored`);
  await page.reload();
  await openDatasets(page).catch(async (error: unknown) => {
    await screenshot(page, 'robust-storage-after-import-reload-failed');
    console.log(session.errors);
    throw error;
  });
  await expect.poll(async () => (await rows(page, 'collections')).filter((r) => r['status'] === 'importing').length, { timeout: 20_000 }).toBe(0);
  expect(await countOf(page, 'documentChunks', 'beir/scifact')).toBe(0);
  await row(page, 'starter').waitFor();
  expect(await page.locator('tr[data-collection]').count()).toBe(listed);
  // The person is told what happened to it, and that the others are intact.
  const told = page.getByRole('region', { name: 'Messages' }).getByText('Removed the unfinished import of "SciFact"');
  await told.waitFor({ timeout: 20_000 });
  expect(await told.textContent()).toContain('nothing of it was kept, and the other collections are untouched. Import it again');

  await page.locator('tr[data-entry="beir/scifact"] button').click();
  const scifact = row(page, 'beir/scifact');
  await scifact.waitFor({ timeout: 120_000 });
  expect(await scifact.locator('td').nth(1).textContent()).toBe('5,183');
});

test('a reload in the middle of embedding resumes at the last stored checkpoint', async () => {
  const { page, errors } = session;
  await page.goto(exploreUrl([denseColumn()]));
  await expect.poll(async () => (await scifactSets(page))[0]?.done ?? 0, { timeout: 120_000, interval: 100 }).toBeGreaterThanOrEqual(1024);
  await screenshot(page, 'robust-storage-embedding-before-reload');
  const [before] = await scifactSets(page);
  expect(before!.done).toBeLessThan(SCIFACT_DOCS);
  console.log(`embedding interrupted at ${before!.done} of ${SCIFACT_DOCS}`);
  await page.reload();

  // The same set goes on (same creation time), and its progress never goes back.
  const seen: number[] = [];
  await expect
    .poll(
      async () => {
        const [set] = await scifactSets(page);
        expect(set?.createdAt).toBe(before!.createdAt);
        seen.push(set!.done);
        return set!.done;
      },
      { timeout: 180_000, interval: 100 },
    )
    .toBe(SCIFACT_DOCS);
  expect(Math.min(...seen)).toBeGreaterThanOrEqual(before!.done);
  await columnsReady(page, 1);
  expect(await page.locator('article.column h2').allTextContents()).toEqual(['Dense: tiny-bert']);
  // Chunks tile the corpus: written once each, in order.
  const chunks = (await rows<{ setKey: string; start: number; count: number }>(page, 'embeddingChunks')).filter((chunk) => chunk.setKey === before!.key);
  chunks.sort((a, b) => a.start - b.start);
  let next = 0;
  for (const chunk of chunks) {
    expect(chunk.start).toBe(next);
    next += chunk.count;
  }
  expect(next).toBe(SCIFACT_DOCS);
  const jobs = await recordedJobs(page);
  expect(jobs.filter((title) => title.startsWith('Embedding SciFact'))).toHaveLength(1);
  await screenshot(page, 'robust-storage-embedding-resumed');

  // Once complete, a reload embeds nothing.
  await page.reload();
  await columnsReady(page, 1);
  expect((await recordedJobs(page)).filter((title) => title.startsWith('Embedding'))).toEqual([]);
  expect(errors).toEqual([]);
});

test('two tabs on one collection: the BM25 index is built once and the corpus embedded once; the second tab waits, then loads', async () => {
  const { page, context } = session;
  // Forget the vectors of the previous test, so that both tabs need them.
  await page.evaluate(async () => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open('retrieval-playground');
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    const tx = db.transaction(['embeddingSets', 'embeddingChunks'], 'readwrite');
    tx.objectStore('embeddingSets').clear();
    tx.objectStore('embeddingChunks').clear();
    await new Promise((resolve) => (tx.oncomplete = resolve));
    db.close();
  });
  const other = await context.newPage();
  await recordJobs(other);
  const otherErrors: string[] = [];
  other.on('pageerror', (error) => otherErrors.push(error.message));
  // A query no test has ranked: no saved ranking answers for it (the previous page saves its own rankings
  // as it is left, src/app/engine/saved-rankings.ts), so both tabs need the vectors.
  const url = `${exploreUrl(['bm25;k1=0.9;b=0.4;an=standard', denseColumn()])}&q=${encodeURIComponent('two tabs on one collection')}`;
  await Promise.all([page.goto(url), other.goto(url)]);
  // While one tab embeds, the other's request for the same set's lock is pending.
  await expect
    .poll(
      () =>
        page.evaluate(async () => {
          const state = await navigator.locks.query();
          return (state.pending ?? []).some((lock) => lock.name?.startsWith('retrieval-playground/embedding/beir/scifact|corpus|local/tiny-bert'));
        }),
      { timeout: 120_000, interval: 100 },
    )
    .toBe(true);
  await screenshot(other, 'robust-storage-second-tab-waiting');
  await Promise.all([columnsReady(page, 2), columnsReady(other, 2)]);
  const jobsA = await recordedJobs(page);
  const jobsB = await recordedJobs(other);
  console.log('tab A jobs:', jobsA, '\ntab B jobs:', jobsB);
  const builds = [...jobsA, ...jobsB].filter((title) => title.startsWith('Building BM25 index (standard)'));
  expect(builds).toHaveLength(1);
  const [set] = await scifactSets(page);
  expect(set).toMatchObject({ done: SCIFACT_DOCS, docCount: SCIFACT_DOCS });
  // Written once: every chunk start appears once.
  const starts = (await rows<{ setKey: string; start: number }>(page, 'embeddingChunks')).filter((c) => c.setKey === set!.key).map((c) => c.start);
  expect(new Set(starts).size).toBe(starts.length);
  // Both tabs rank the same.
  const firstHits = async (p: Page) => p.locator('article.column').nth(1).locator('ol.hits li').first().textContent();
  expect(await firstHits(other)).toBe(await firstHits(page));
  await screenshot(other, 'robust-storage-second-tab-loaded');
  expect(otherErrors).toEqual([]);
  await other.close();
});

test('the storage panel counts embeddings; deleting a collection removes its embeddings, indexes and HNSW graph files', async () => {
  const { page, errors } = session;
  await page.goto(exploreUrl([denseColumn('hnsw')]));
  await columnsReady(page, 1);
  const prefix = `/hnswlib-index/${collectionGraphPrefix('beir/scifact')}`;
  await expect.poll(async () => (await keys(page, '/hnswlib-index', 'FILE_DATA')).filter((key) => key.startsWith(prefix)).length, { timeout: 30_000 }).toBe(1);
  expect((await rows(page, 'indexes')).filter((r) => r['collectionId'] === 'beir/scifact').map((r) => r['kind']).sort()).toEqual(['bm25', 'hnsw']);
  const [set] = await scifactSets(page);
  await openDatasets(page);
  const panel = page.getByTestId('storage-panel');
  const scifactRow = panel.locator('tbody tr', { hasText: 'SciFact' });
  // 5,183 vectors × 32 dimensions × 4 bytes.
  expect(set!.dimensions * set!.done * 4).toBe(663_424);
  await expect.poll(() => scifactRow.locator('td').nth(2).textContent()).toMatch(/^\s*6\d\d(\.\d)? kB\s*$/);
  await screenshot(page, 'robust-storage-usage-with-embeddings');

  await row(page, 'beir/scifact').getByRole('button', { name: 'Delete SciFact' }).click();
  await row(page, 'beir/scifact').getByRole('button', { name: 'Delete', exact: true }).click();
  await row(page, 'beir/scifact').waitFor({ state: 'detached' });
  expect(await scifactSets(page)).toEqual([]);
  expect((await rows(page, 'embeddingChunks')).length).toBe(0);
  expect((await rows(page, 'indexes')).filter((r) => r['collectionId'] === 'beir/scifact')).toEqual([]);
  expect((await keys(page, '/hnswlib-index', 'FILE_DATA')).filter((key) => key.startsWith(prefix))).toEqual([]);
  await screenshot(page, 'robust-storage-after-delete');
  // hnswlib-wasm fetches its inlined wasm from a data: URL, which the app's content security policy
  // (connect-src, owned by the security work) reports before hnswlib falls back to decoding it itself.
  expect(errors.filter((error) => !error.includes('Content-Security-Policy (connect-src) blocked data'))).toEqual([]);
});

test('another tab upgrading the database: this tab lets go at once (no blocked upgrade) and says to reload', async () => {
  const { page, context } = session;
  await page.goto(appUrl);
  await expect.poll(() => page.getByLabel('Collection', { exact: true }).inputValue(), { timeout: 30_000 }).not.toBe('');
  const other = await context.newPage();
  await other.goto(`${appUrl}/diagnostics.html`);
  // The upgrade's outcome, once it has one: an upgrade blocked by this tab never gets one, and the wait fails.
  await other.evaluate(() => {
    const upgrade = window as unknown as { rpUpgrade?: string };
    const request = indexedDB.open('retrieval-playground', 1000);
    request.onblocked = () => undefined; // fired while the old connections close; only a lasting block fails
    request.onsuccess = () => {
      request.result.close();
      upgrade.rpUpgrade = `opened version ${request.result.version}`;
    };
    request.onerror = () => (upgrade.rpUpgrade = `error ${request.error?.message}`);
  });
  await waitInPage(other, () => (window as unknown as { rpUpgrade?: string }).rpUpgrade !== undefined, undefined, { timeout: 60_000 });
  const outcome = await other.evaluate(() => (window as unknown as { rpUpgrade?: string }).rpUpgrade);
  expect(outcome).toBe('opened version 1000');
  const alert = page.getByRole('alert').filter({ hasText: 'updated in another tab' });
  await alert.waitFor({ timeout: 10_000 });
  expect(await alert.textContent()).toContain('Reload this tab');
  await screenshot(page, 'robust-storage-outdated-tab');
  await other.close();
});
