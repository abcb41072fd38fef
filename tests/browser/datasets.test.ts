import { writeFileSync } from 'node:fs';
import { tempDir } from '../temp-dir.ts';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import { launch, screenshot, type BrowserSession } from './harness.ts';
import { startHubServer, type HubServer } from './hub-server.ts';

/**
 * The Datasets view in Debian's chromium, against the built app and a local stand-in for the hub
 * (hub-server.ts, serving the shared SciFact under the hub's URL layout). One browser profile is used
 * throughout, and reopened once, so the tests run in order: starter → download → reload → broken file →
 * delete. Expected counts: SciFact as published (shared/README.md), the starter's metadata.
 */

let session: BrowserSession;
let hub: HubServer;
let appUrl: string;

beforeAll(async () => {
  appUrl = inject('appUrl');
  hub = await startHubServer();
  session = await launch();
});

afterAll(async () => {
  await session?.close();
  await hub?.close();
});

async function openDatasets(page: Page) {
  await page.getByRole('button', { name: 'Datasets' }).click();
  await page.getByRole('heading', { name: 'In this browser' }).waitFor();
}

const row = (page: Page, id: string) => page.locator(`tr[data-collection="${id}"]`);

test('the app opens on the starter collection, imported on first visit', async () => {
  const { page, errors } = session;
  await page.goto(appUrl);
  const picker = page.getByLabel('Collection', { exact: true });
  await expect.poll(() => picker.inputValue(), { timeout: 30_000 }).toBe('starter');
  await expect.poll(() => picker.locator('option:checked').textContent()).toBe('Starter: ideas in six fields');
  await openDatasets(page);
  const starter = row(page, 'starter');
  await expect.poll(() => starter.locator('td').nth(1).textContent()).toBe('107');
  expect(await starter.locator('td').nth(2).textContent()).toBe('22');
  expect(await starter.textContent()).toContain('open');
  await screenshot(page, 'datasets-starter');
  expect(errors).toEqual([]);
});

test('SciFact downloads through ?hub= with a progress bar: 5,183 docs, 1,109 queries, 300 test queries', async () => {
  const { page, errors } = session;
  await page.goto(`${appUrl}/?hub=${encodeURIComponent(hub.url)}`);
  await openDatasets(page);
  await expect.poll(() => page.locator('#hub-url').inputValue()).toBe(hub.url);
  const started = Date.now();
  await page.locator('tr[data-entry="beir/scifact"] button').click();
  const bar = page.getByRole('progressbar', { name: 'Download SciFact' });
  await bar.waitFor({ timeout: 10_000 });
  await screenshot(page, 'datasets-download-progress');
  const scifact = row(page, 'beir/scifact');
  await scifact.waitFor({ timeout: 120_000 });
  const seconds = (Date.now() - started) / 1000;
  console.log(`SciFact download + import in chromium: ${seconds.toFixed(2)} s (click to row shown)`);
  expect(await scifact.locator('td').nth(1).textContent()).toBe('5,183');
  expect(await scifact.locator('td').nth(2).textContent()).toBe('1,109');
  expect(await scifact.locator('td').nth(3).textContent()).toBe('test, train');
  const report = page.getByTestId('import-report');
  await expect.poll(() => report.textContent()).toContain('5,183 documents, 1,109 queries');
  expect(await report.textContent()).toContain('(split "test"): 339 judgments of 300 queries');
  expect(await page.getByLabel('Collection', { exact: true }).inputValue()).toBe('beir/scifact');
  expect(hub.requests).toContain('GET /datasets/BeIR/scifact/resolve/main/corpus.jsonl.gz');
  expect(hub.requests).toContain('GET /datasets/BeIR/scifact-qrels/resolve/main/train.tsv');
  await screenshot(page, 'datasets-scifact-loaded');
  expect(errors).toEqual([]);
});

test('collections are still there after a reload and after restarting the browser', async () => {
  await session.page.reload();
  await openDatasets(session.page);
  await row(session.page, 'beir/scifact').waitFor();
  expect(await session.page.getByLabel('Collection', { exact: true }).inputValue()).toBe('beir/scifact');

  const profileDir = session.profileDir;
  await session.close({ keepProfile: true });
  session = await launch({ profileDir });
  await session.page.goto(appUrl);
  await openDatasets(session.page);
  await row(session.page, 'beir/scifact').waitFor();
  await row(session.page, 'starter').waitFor();
  expect(await session.page.locator('tr[data-collection]').count()).toBe(2);
  expect(await session.page.getByLabel('Collection', { exact: true }).inputValue()).toBe('beir/scifact');
  // The stored validation report survives too.
  await session.page.getByRole('button', { name: 'Validation report of SciFact' }).click();
  await expect.poll(() => session.page.locator('pre.report').textContent()).toContain('(split "test"): 339 judgments of 300 queries');
  await screenshot(session.page, 'datasets-after-restart');
});

test('a corpus with a bad JSON line: the error names the file and line, other collections stay', async () => {
  const { page } = session;
  const dir = tempDir('rp-broken-');
  const corpus = join(dir, 'corpus.jsonl');
  writeFileSync(corpus, ['{"_id":"a","title":"A","text":"first"}', '{"_id":"b","title":"B","text":"second"}', '{"_id":"c","title":"C","text": broken}', '{"_id":"d","title":"D","text":"fourth"}'].join('\n'));
  const queries = join(dir, 'queries.jsonl');
  writeFileSync(queries, '{"_id":"q1","text":"first"}\n');
  await page.getByTestId('pick-files').setInputFiles([corpus, queries]);
  const preview = page.getByRole('region', { name: 'Recognised files' });
  await preview.waitFor();
  expect(await preview.textContent()).toContain('Corpus');
  await screenshot(page, 'datasets-local-preview');
  await preview.getByRole('button', { name: 'Import' }).click();
  const error = page.getByTestId('import-error');
  await error.waitFor({ timeout: 30_000 });
  const text = (await error.textContent()) ?? '';
  expect(text).toContain('corpus.jsonl');
  expect(text).toMatch(/Line\s*3/);
  expect(text).toContain('invalid JSON');
  expect(await page.locator('tr[data-collection]').count()).toBe(2);
  await screenshot(page, 'datasets-broken-file');
});

test('NanoBEIR parquet downloads through the same hub', async () => {
  const { page } = session;
  await page.goto(`${appUrl}/?hub=${encodeURIComponent(hub.url)}`);
  await openDatasets(page);
  await page.locator('tr[data-entry="nanobeir/scifact"] button').click();
  const nano = row(page, 'nanobeir/scifact');
  await nano.waitFor({ timeout: 60_000 });
  expect(await nano.locator('td').nth(2).textContent()).toBe('20');
  expect(await nano.locator('td').nth(3).textContent()).toBe('test');
});

test('delete asks for confirmation, removes the collection, and keeps the others', async () => {
  const { page, errors } = session;
  const scifact = row(page, 'beir/scifact');
  await scifact.getByRole('button', { name: 'Delete SciFact' }).click();
  await screenshot(page, 'datasets-delete-confirm');
  await scifact.getByRole('button', { name: 'Delete', exact: true }).click();
  await scifact.waitFor({ state: 'detached' });
  await row(page, 'starter').waitFor();
  const storage = page.getByTestId('storage-panel');
  await expect.poll(() => storage.locator('tbody th').allTextContents()).toEqual(['Starter: ideas in six fields', 'NanoBEIR SciFact']);
  await screenshot(page, 'datasets-after-delete');
  expect(errors).toEqual([]);
});
