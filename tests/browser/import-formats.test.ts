/**
 * Own files in other shapes than BEIR's, imported through the Datasets view of the built app in Debian's
 * chromium, each ending in Explore with a typed query that ranks the imported documents (none of these
 * collections has queries or judgments): a Pyserini .jsonl keyed id/contents, a folder of .txt/.md files,
 * and a CSV with doc_id,body whose Fields box is corrected (a title column chosen) before importing.
 * The expected top document is the one whose text alone holds the query's rare words.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { tempDir } from '../temp-dir.ts';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import { launchOnStarter, settled } from './app-page.ts';
import { screenshot, type BrowserSession } from './harness.ts';

let session: BrowserSession;
let appUrl: string;
let dir: string;

beforeAll(async () => {
  appUrl = inject('appUrl');
  dir = tempDir('rp-formats-');
  session = await launchOnStarter(appUrl);
});

afterAll(async () => {
  await session?.close();
});


async function openDatasets(page: Page) {
  await page.getByRole('button', { name: 'Datasets' }).click();
  await page.getByRole('heading', { name: 'In this browser' }).waitFor();
}

const preview = (page: Page): Locator => page.getByRole('region', { name: 'Recognised files' });

/** Imports what the preview shows, waits for the report, and returns the new collection's row count. */
async function importShown(page: Page, name: string): Promise<void> {
  await preview(page).getByLabel('Name').fill(name);
  await preview(page).getByRole('button', { name: 'Import', exact: true }).click();
  await expect.poll(() => page.getByLabel('Collection', { exact: true }).locator('option:checked').textContent(), { timeout: 60_000 }).toBe(name);
}

/** Types `query` in Explore and returns the document ids the first column ranks, best first. */
async function rankTyped(page: Page, query: string): Promise<string[]> {
  await page.getByRole('button', { name: 'Explore' }).click();
  await page.getByRole('button', { name: 'New query' }).click();
  await page.getByLabel('Query text').fill(query);
  await settled(page);
  return page.locator('article.column').first().locator('button.hit .docid').allTextContents();
}

test('a Pyserini .jsonl keyed id/contents imports (it was refused with "_id" is missing) and ranks typed queries', async () => {
  const { page, errors } = session;
  const file = join(dir, 'pyserini-sample.jsonl');
  writeFileSync(
    file,
    [
      { id: 'p1', contents: 'Sourdough bread rises slowly because wild yeast ferments the dough.' },
      { id: 'p2', contents: 'Green tea leaves are steamed right after picking.' },
      { id: 'p3', contents: 'A glacier carves valleys as it moves downhill.' },
    ]
      .map((record) => JSON.stringify(record))
      .join('\n') + '\n',
  );
  await openDatasets(page);
  await page.getByTestId('pick-files').setInputFiles([file]);
  await preview(page).waitFor();
  const fields = page.getByTestId('field-mapping');
  await fields.waitFor();
  expect(await fields.getByLabel('Document id field').inputValue()).toBe('id');
  expect(await fields.getByLabel('Text field').inputValue()).toBe('contents');
  expect(await fields.getByLabel('Title field').inputValue()).toBe('');
  expect(await preview(page).textContent()).toContain('no queries file');
  await importShown(page, 'Pyserini sample');
  const report = page.getByTestId('import-report');
  await expect.poll(() => report.textContent(), { timeout: 30_000 }).toContain('3 documents, 0 queries');
  const ranked = await rankTyped(page, 'glacier valleys');
  expect(ranked[0]).toBe('p3');
  await screenshot(page, 'import-formats-pyserini-explore');
  expect(errors).toEqual([]);
});

test('a folder of .txt and .md files: one document each, a Markdown heading as its title', async () => {
  const { page, errors } = session;
  const folder = join(dir, 'kitchen-notes');
  mkdirSync(join(folder, 'drinks'), { recursive: true });
  writeFileSync(join(folder, 'bread.txt'), 'Sourdough bread needs a starter of flour and water.\n');
  writeFileSync(join(folder, 'rice.md'), '# Rice\n\nRice is boiled or steamed until tender.\n');
  writeFileSync(join(folder, 'drinks', 'matcha.md'), '# Matcha\n\nMatcha is powdered green tea whisked with hot water.\n');
  await openDatasets(page);
  await page.getByTestId('pick-folder').setInputFiles(folder);
  await preview(page).waitFor();
  const text = (await preview(page).textContent()) ?? '';
  expect(text).toContain('a Markdown file: one document');
  expect(text).toContain('a text file: one document');
  expect(await page.getByTestId('field-mapping').count()).toBe(0);
  expect(await preview(page).getByLabel('Name').inputValue()).toBe('kitchen-notes');
  await importShown(page, 'Kitchen notes');
  await expect.poll(() => page.getByTestId('import-report').textContent(), { timeout: 30_000 }).toContain('3 documents, 0 queries');
  const ranked = await rankTyped(page, 'powdered tea whisked');
  expect(ranked[0]).toBe('matcha');
  // The heading became the title, shown in place of the id.
  expect(await page.locator('article.column').first().locator('button.hit .title').first().textContent()).toBe('Matcha');
  await screenshot(page, 'import-formats-text-explore');
  expect(errors).toEqual([]);
});

test('a CSV with doc_id,body,headline: the Fields box guesses id and text, the title is chosen, then it imports', async () => {
  const { page, errors } = session;
  const file = join(dir, 'articles.csv');
  writeFileSync(
    file,
    [
      'doc_id,body,headline',
      'a1,"Volcanoes erupt when magma, gas and ash escape the crust.",Volcanoes',
      'a2,Coral reefs grow slowly in warm shallow seas.,Reefs',
      'a3,"Tides follow the moon; the sun adds a smaller pull.",Tides',
    ].join('\n') + '\n',
  );
  await openDatasets(page);
  await page.getByTestId('pick-files').setInputFiles([file]);
  await preview(page).waitFor();
  const fields = page.getByTestId('field-mapping');
  await fields.waitFor();
  expect(await fields.getByLabel('Document id field').inputValue()).toBe('doc_id');
  expect(await fields.getByLabel('Text field').inputValue()).toBe('body');
  expect(await fields.getByLabel('Title field').inputValue()).toBe('');
  // A wrong choice is refused with a reason and blocks the import; then the right title is chosen.
  await fields.getByLabel('Text field').selectOption('doc_id');
  await expect.poll(() => fields.getByRole('alert').textContent()).toBe('the id and the text cannot be the same field');
  expect(await preview(page).getByRole('button', { name: 'Import', exact: true }).isDisabled()).toBe(true);
  await fields.getByLabel('Text field').selectOption('body');
  await fields.getByLabel('Title field').selectOption('headline');
  await expect.poll(() => fields.locator('table.samples tbody tr').first().locator('td').allTextContents()).toEqual(['a1', 'Volcanoes', 'Volcanoes erupt when magma, gas and ash escape the crust.']);
  expect(await fields.textContent()).toContain('your choice');
  await screenshot(page, 'import-formats-fields-box');
  await importShown(page, 'Articles');
  await expect.poll(() => page.getByTestId('import-report').textContent(), { timeout: 30_000 }).toContain('3 documents, 0 queries');
  const ranked = await rankTyped(page, 'moon tides');
  expect(ranked[0]).toBe('a3');
  expect(await page.locator('article.column').first().locator('button.hit .title').first().textContent()).toBe('Tides');
  await screenshot(page, 'import-formats-csv-explore');
  expect(errors).toEqual([]);
});
