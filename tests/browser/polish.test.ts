/**
 * A Polish collection end to end in Debian's chromium, on the built app: the manpages-pl reference
 * collection (shared/reference/polish/manpages-pl, BEIR layout) picked as a local folder, detected as Polish,
 * its default columns switched to the Polish analyzer (and, online, the multilingual model), and BM25 with the
 * Polish analyzer evaluated in the Evaluate dashboard over the 210 test queries.
 *
 * Expected figures: shared/reference/polish/README.md — Lucene 8.7 PolishAnalyzer + BM25 (k1 0.9, b 0.4),
 * trec_eval 9.0.8 -c: nDCG@10 0.2973, R@100 0.3828 (the same as `npm run cli -- eval --analyzer polish`).
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import { shared } from '../shared-dir.ts';
import { launch, screenshot, type BrowserSession } from './harness.ts';
import { metricsFresh } from './app-page.ts';

let session: BrowserSession;
let appUrl: string;

beforeAll(async () => {
  appUrl = inject('appUrl');
  session = await launch();
});

afterAll(async () => {
  await session?.close();
});


function urlColumns(page: Page): string[] {
  return new URL(page.url()).searchParams.getAll('col');
}

let collectionId = '';

test('manpages-pl imported as a local folder is detected as Polish; default columns follow its language', async () => {
  const { page, errors } = session;
  await page.goto(`${appUrl}/?view=datasets`);
  await page.getByRole('heading', { name: 'In this browser' }).waitFor({ timeout: 60_000 });
  // The starter (English) is open first, with the English defaults.
  await page.locator('tr[data-collection="starter"]').waitFor({ timeout: 60_000 });
  await expect.poll(() => urlColumns(page).join(' ')).toContain('an=english');

  await page.getByTestId('pick-folder').setInputFiles(shared('reference', 'polish', 'manpages-pl'));
  const preview = page.getByRole('region', { name: 'Recognised files' });
  await preview.waitFor({ timeout: 60_000 });
  await preview.getByRole('button', { name: 'Import' }).click();
  const imported = page.locator('tr[data-collection^="local/"]');
  await imported.waitFor({ timeout: 120_000 });
  collectionId = (await imported.getAttribute('data-collection')) ?? '';
  expect(await page.locator('#collection-picker').inputValue()).toBe(collectionId);
  expect(await imported.locator('td').nth(2).textContent()).toBe('210');

  const language = imported.getByRole('combobox', { name: /^Language of / });
  expect(await language.inputValue()).toBe('pl');
  // Opening it replaced the untouched English defaults: Polish analyzer everywhere, and the multilingual
  // model for dense (the browser says it is online).
  await expect.poll(() => urlColumns(page)).toEqual([
    'bm25;k1=0.9;b=0.4;an=polish',
    'dense;m=Xenova/multilingual-e5-small;dt=q8;s=exact',
    'ledr;K=1000;k1=0.9;b=0.4;an=polish;m=Xenova/multilingual-e5-small;dt=q8;s=exact',
  ]);

  // The language can be changed by hand; the columns follow while they are still the defaults.
  await language.selectOption('en');
  await expect.poll(() => urlColumns(page)[0]).toBe('bm25;k1=0.9;b=0.4;an=english');
  await language.selectOption('pl');
  await expect.poll(() => urlColumns(page)[0]).toBe('bm25;k1=0.9;b=0.4;an=polish');
  await screenshot(page, 'polish-datasets');
  expect(errors).toEqual([]);
});

test('a column set up for English says so on the Polish collection and takes its analyzer in one click', async () => {
  const { page, errors } = session;
  // As a link made on an English collection would open it: a BM25 column with its own k1 and b.
  await page.goto(`${appUrl}/?view=explore&collection=${encodeURIComponent(collectionId)}&split=test&col=bm25;k1=1.2;b=0.75;an=english`);
  const note = page.getByTestId('language-misfit');
  await note.waitFor({ timeout: 60_000 });
  expect((await note.textContent())?.replace(/\s+/g, ' ')).toContain('This collection is Polish, but this column uses the english analyzer.');
  await screenshot(page, 'polish-language-misfit');
  await note.getByRole('button', { name: 'Use the polish analyzer' }).click();
  // Only the analyzer changed; the column's own parameters stay.
  await expect.poll(() => urlColumns(page)).toEqual(['bm25;k1=1.2;b=0.75;an=polish']);
  await note.waitFor({ state: 'detached' });
  expect(errors).toEqual([]);
});

test('the Evaluate dashboard gives Lucene’s figures for BM25 with the Polish analyzer: nDCG@10 0.2973, R@100 0.3828', async () => {
  const { page, errors } = session;
  // One BM25 column (the dense defaults would download a model from the hub, unreachable here).
  const url = `${appUrl}/?view=evaluate&collection=${encodeURIComponent(collectionId)}&split=test&col=bm25;k1=0.9;b=0.4;an=polish`;
  await page.goto(url);
  await expect.poll(async () => (await page.getByTestId('evaluate-summary').textContent())?.replace(/\s+/g, ' '), { timeout: 60_000 }).toContain(
    '210 judged test queries · 1 column from Explore · 0 evaluated',
  );
  await page.getByRole('button', { name: 'Run evaluation (1 column)' }).click();
  await metricsFresh(page, 1, { timeout: 300_000 });
  const values = await page.locator('[data-testid="metrics-table"] tr[data-column="1"] td.value .figure').allTextContents();
  console.log(`[polish] metrics table:\n${await page.getByTestId('metrics-table').innerText()}`);
  expect(values.slice(0, 2)).toEqual(['0.2973', '0.3828']);
  expect(await page.locator('[data-testid="metrics-table"] tbody tr td:nth-of-type(1)').allTextContents()).toEqual(['210']);
  expect(await page.getByTestId('metrics-table').innerText()).toContain('BM25 (k1 0.9, b 0.4, polish)');
  await screenshot(page, 'polish-evaluate');
  expect(errors).toEqual([]);
});
