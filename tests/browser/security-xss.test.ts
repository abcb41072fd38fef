/**
 * No corpus, query, run or file-name text is ever rendered as HTML. A collection whose file names, ids,
 * titles, texts, queries and judgments carry injection payloads (<img onerror>, <script>, javascript:
 * links, <svg onload>, <iframe srcdoc>, plain markup, Svelte's {@html …} syntax, HTML entities) is
 * imported from local files and shown everywhere the app shows data: the Datasets view (file preview,
 * collection list, validation report, an import error), Explore (hits with highlighted snippets, hit
 * detail, query picker, an imported run's column, a run file's error message). Each view is checked three
 * ways: no payload ran (they call window.__xssHit), no element was made from data, and the text is shown
 * literally. The Content-Security-Policy would block inline handlers anyway, so the element check is the
 * one that proves the rendering; CSP violations must be none either way.
 */
import { writeFileSync } from 'node:fs';
import { tempDir } from '../temp-dir.ts';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import { launch, screenshot, type BrowserSession } from './harness.ts';
import { payloads, watchSecurity, type SecurityWatch } from './security-watch.ts';

let session: BrowserSession;
let watch: SecurityWatch;
let appUrl: string;
let dir: string;
let collectionId: string;

const doc = payloads('doc');
const title = payloads('title');
const query = payloads('query');
/** File names cannot hold '/', so only payloads without one. */
const CORPUS_FILE = `corpus <img src=x onerror="__xssHit('corpus-file')"> <svg onload="__xssHit('corpus-file-svg')">.jsonl`;
const QUERIES_FILE = `queries <img src=x onerror="__xssHit('queries-file')">.jsonl`;
const QRELS_FILE = `qrels.test.tsv`;
const D1 = `d1<img src=x onerror="__xssHit('docid')">`;
const D3 = `javascript:__xssHit('docid-js')`;
/** No spaces: a TREC run line splits on whitespace. */
const Q1 = `q1<xss>id</xss>`;
const D1_TITLE = `Bread flour ${title.script} ${title.markup}`;
const D1_TEXT = `Bread flour has more protein. ${doc.img} ${doc.link} ${doc.svg} ${doc.iframe} ${doc.markup} ${doc.svelte} ${doc.entity} Gluten forms when flour meets water.`;
const Q1_TEXT = `bread flour protein ${query.img} ${query.script}`;

function writeCollection(): string[] {
  const jsonl = (rows: object[]) => rows.map((row) => JSON.stringify(row)).join('\n') + '\n';
  const corpus = jsonl([
    { _id: D1, title: D1_TITLE, text: D1_TEXT },
    { _id: 'd2', title: `${title.img} Sourdough bread`, text: `A sourdough starter ${doc.script} needs flour and water.` },
    { _id: D3, title: 'Stale bread', text: `Bread goes stale. ${doc.entity}` },
  ]).replace('\n', `\n{"_id": "bad<script>__xssHit('bad-line')</script>", broken\n`);
  const queries = jsonl([
    { _id: Q1, text: Q1_TEXT },
    { _id: 'q2', text: `sourdough starter ${query.link}` },
  ]);
  const qrels = ['query-id\tcorpus-id\tscore', `${Q1}\t${D1}\t2`, `${Q1}\td2\t1`, `q2\td2\t1`, `${Q1}\tmissing<img src=x onerror="__xssHit('qrels-missing')">\t1`].join('\n') + '\n';
  const files: Array<[string, string]> = [
    [CORPUS_FILE, corpus],
    [QUERIES_FILE, queries],
    [QRELS_FILE, qrels],
  ];
  return files.map(([name, text]) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  });
}

/** Nothing ran, nothing was made from data, no policy violation. */
async function clean(page: Page, where: string): Promise<void> {
  expect(await watch.hits(page), `payloads that ran (${where})`).toEqual([]);
  expect(await watch.injected(page), `elements made from data (${where})`).toEqual([]);
  expect(watch.violations, `CSP violations (${where})`).toEqual([]);
}

async function openDatasets(page: Page) {
  await page.getByRole('button', { name: 'Datasets' }).click();
  await page.getByRole('heading', { name: 'In this browser' }).waitFor();
}

beforeAll(async () => {
  appUrl = inject('appUrl');
  dir = tempDir('rp-xss-');
  session = await launch();
  watch = await watchSecurity(session);
});

afterAll(async () => {
  await session?.close();
});

test('Datasets: file names in the preview, the collection list and the validation report are text', async () => {
  const { page } = session;
  await page.goto(appUrl);
  await expect.poll(() => page.getByLabel('Collection', { exact: true }).inputValue(), { timeout: 30_000 }).toBe('starter');
  await openDatasets(page);
  await page.getByTestId('pick-files').setInputFiles(writeCollection());
  const preview = page.getByRole('region', { name: 'Recognised files' });
  await preview.waitFor();
  const previewText = (await preview.textContent()) ?? '';
  expect(previewText).toContain(CORPUS_FILE);
  expect(previewText).toContain(QUERIES_FILE);
  await clean(page, 'file preview');
  await screenshot(page, 'security-xss-preview');

  await preview.getByLabel(/Skip bad lines/).check();
  await preview.getByRole('button', { name: 'Import' }).click();
  const row = page.locator('tr[data-collection^="local/"]');
  await row.waitFor({ timeout: 60_000 });
  collectionId = (await row.getAttribute('data-collection'))!;
  // The suggested name is the corpus file's stem, lower-cased.
  const name = (await row.locator('td, th').first().textContent()) ?? '';
  expect(name).toContain(`corpus <img src=x onerror="__xsshit('corpus-file')"> <svg onload="__xsshit('corpus-file-svg')">`);
  expect(await row.locator('td').nth(1).textContent()).toBe('3');
  // The picker in the header shows the name as an option's text.
  expect(await page.getByLabel('Collection', { exact: true }).locator('option:checked').textContent()).toContain(`onerror="__xsshit('corpus-file')"`);

  await row.getByRole('button', { name: /^Validation report of / }).click();
  const report = (await page.locator('pre.report').textContent()) ?? '';
  // The skipped line and the judgment of an unknown document are listed, as text.
  expect(report).toContain(`${CORPUS_FILE}:2: invalid JSON`);
  // (quoted the way the report quotes ids: inner quotes escaped)
  expect(report).toContain(`missing<img src=x onerror=\\"__xssHit('qrels-missing')\\">`);
  await clean(page, 'collection list and report');
  await screenshot(page, 'security-xss-datasets');
});

test('Datasets: an import error names the file as text', async () => {
  const { page } = session;
  const bad = join(dir, `corpus <img src=x onerror="__xssHit('bad-file')">.jsonl`);
  writeFileSync(bad, `{"_id":"a","title":"A","text":"first"}\n{"_id":"<script>__xssHit('bad-file-line')</script>", broken\n`);
  const queries = join(dir, 'queries.jsonl');
  writeFileSync(queries, '{"_id":"q1","text":"first"}\n');
  await page.getByTestId('pick-files').setInputFiles([bad, queries]);
  const preview = page.getByRole('region', { name: 'Recognised files' });
  await preview.getByLabel(/Skip bad lines/).uncheck();
  await preview.getByRole('button', { name: 'Import' }).click();
  const error = page.getByTestId('import-error');
  await error.waitFor({ timeout: 30_000 });
  const text = (await error.textContent()) ?? '';
  expect(text).toContain(`corpus <img src=x onerror="__xssHit('bad-file')">.jsonl`);
  expect(text).toMatch(/Line\s*2/);
  await clean(page, 'import error');
  await screenshot(page, 'security-xss-import-error');
});

test('Explore: hits, highlighted snippets, hit detail, query picker and a run column show data as text', async () => {
  const { page } = session;
  // One BM25 column (the column syntax of src/app/url-state.ts is written as it is, not percent-encoded).
  await page.goto(`${appUrl}/?view=explore&collection=${encodeURIComponent(collectionId)}&split=test&col=bm25;k1=0.9;b=0.4;an=english`);
  await expect.poll(() => page.locator('article.column h2').allTextContents()).toEqual(['BM25 (k1 0.9, b 0.4)']);
  const column = page.locator('article.column').first();
  await expect.poll(() => column.getAttribute('data-status'), { timeout: 120_000 }).toBe('ready');
  expect(await page.getByLabel('Query text').inputValue()).toBe(Q1_TEXT);
  const first = column.locator('button.hit').first();
  expect(await first.locator('.docid').textContent()).toBe(D1);
  // A hit's text arrives after its ranking (the title shows "…" until then).
  await expect.poll(async () => (await first.locator('.title').textContent()) ?? '').toBe(D1_TITLE);
  // The query's terms are marked inside the payload-laden text (its own payload shares "script" and
  // "__xssHit" with the query's), with <mark> elements only.
  expect(await first.locator('.title mark').allTextContents()).toEqual(['Bread', 'flour', 'script', '__xssHit', 'script', 'script']);
  const snippet = (await first.locator('.snippet').textContent()) ?? '';
  expect(snippet).toContain(doc.img);
  expect(await column.locator('.snippet').allTextContents()).toContainEqual(expect.stringContaining('&lt;b&gt;entity&lt;/b&gt;'));
  expect(await column.locator('.docid').allTextContents()).toContain(D3);
  await clean(page, 'hits');
  await screenshot(page, 'security-xss-explore');

  await first.click();
  const dialog = page.getByRole('dialog');
  await dialog.waitFor();
  await expect.poll(async () => (await dialog.textContent()) ?? '').toContain(D1_TEXT);
  const detail = (await dialog.textContent()) ?? '';
  expect(detail).toContain(D1);
  expect(detail).toContain(D1_TITLE);
  await clean(page, 'hit detail');
  await screenshot(page, 'security-xss-detail');
  await page.keyboard.press('Escape');

  await page.locator('body').click({ position: { x: 5, y: 300 } });
  await page.keyboard.press('/');
  const search = page.getByLabel('Search the queries by id or text');
  await search.waitFor();
  const listed = (await page.getByRole('listbox').textContent()) ?? '';
  expect(listed).toContain(Q1);
  expect(listed).toContain(`sourdough starter ${query.link}`);
  await clean(page, 'query picker');
  await screenshot(page, 'security-xss-picker');
  await page.keyboard.press('Escape');

  const runName = `run <img src=x onerror="__xssHit('run-file')">`;
  const trec = `${Q1} Q0 d2 1 5.0 tag<script>__xssHit('run-tag')</script>\n${Q1} Q0 ${D3} 2 4.0 tag<script>__xssHit('run-tag')</script>\n`;
  await page.locator('input[type=file]').setInputFiles({ name: `${runName}.trec`, mimeType: 'text/plain', buffer: Buffer.from(trec) });
  await expect.poll(() => page.locator('article.column h2').allTextContents(), { timeout: 30_000 }).toContain(`Run: ${runName}`);
  const runColumn = page.locator('article.column', { has: page.locator('h2', { hasText: 'Run: ' }) });
  await expect.poll(() => runColumn.getAttribute('data-status'), { timeout: 30_000 }).toBe('ready');
  expect(await runColumn.locator('.docid').allTextContents()).toEqual(['d2', D3]);
  await clean(page, 'run column');

  const badRun = `bad <img src=x onerror="__xssHit('bad-run')">.run`;
  await page.locator('input[type=file]').setInputFiles({ name: badRun, mimeType: 'text/plain', buffer: Buffer.from(`only three <script>__xssHit('bad-run-line')</script>\n`) });
  const alert = page.locator('.notices [role=alert]').last();
  await alert.waitFor({ timeout: 30_000 });
  const message = (await alert.textContent()) ?? '';
  expect(message).toContain(`<img src=x onerror="__xssHit('bad-run')">`);
  await clean(page, 'run error message');
  await screenshot(page, 'security-xss-run');
  expect(watch.requests.filter((url) => /\/x(\?|$)/.test(url))).toEqual([]);
  expect(session.errors).toEqual([]);
});

test('the checks can fail: markup put in the page on purpose is found, and the policy blocks and reports its handler', async () => {
  const { page } = session;
  await page.evaluate((html) => {
    const probe = document.createElement('div');
    probe.id = 'probe';
    probe.innerHTML = html;
    document.body.append(probe);
  }, payloads('probe').img);
  await expect.poll(() => watch.injected(page)).toEqual([`<img src="x" onerror="__xssHit('probe-img')">`]);
  // The inline handler did not run: script-src has no 'unsafe-inline'; chromium reports the violation.
  await expect.poll(async () => (await watch.hits(page), watch.violations.length)).toBeGreaterThan(0);
  expect(await watch.hits(page)).toEqual([]);
  expect(watch.violations.join('\n')).toMatch(/script-src/);
  await page.evaluate(() => document.getElementById('probe')?.remove());
  watch.violations.length = 0;
  session.errors.length = 0;
});
