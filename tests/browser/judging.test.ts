/**
 * Judging one's own corpus, end to end in the built app (Debian's chromium): a folder of .txt files is
 * imported with no queries or judgments; two typed queries are saved as queries; the pool of each (the
 * union of the three columns' top 10, shuffled) is judged with the keyboard, one document at a time and
 * as a list; nDCG@10 and judged@10 then appear under the columns, with the values the trec_eval-equal code
 * gives for the judgments made; after a reload the judgments and the undo history are still there; the
 * judgment set exported as TREC qrels and BEIR TSV imports back into new sets that export the same bytes;
 * the collection exported as a BEIR zip has BEIR's layout; "Judge these" judges exactly a column's
 * unjudged documents.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tempDir } from '../temp-dir.ts';
import { join } from 'node:path';
import { strFromU8, unzipSync } from 'fflate';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import { queryMetrics } from '../../src/app/engine/query-metrics.ts';
import { launchOnStarter, metricsFresh, settled } from './app-page.ts';
import { screenshot, type BrowserSession } from './harness.ts';

let session: BrowserSession;
let appUrl: string;
let dir: string;

const DOCUMENTS: Record<string, string> = {
  sourdough: 'Sourdough bread rises because wild yeast and lactic bacteria ferment the dough over many hours.',
  starter: 'A sourdough starter is flour and water colonised by wild yeast; feed it daily to keep the yeast active.',
  baguette: 'A baguette is made with baker’s yeast, flour, water and salt, and baked in a very hot oven.',
  brewing: 'Brewers pitch yeast into wort; the yeast turns sugar into alcohol and carbon dioxide.',
  glacier: 'A glacier carves deep U-shaped valleys as the ice grinds downhill over thousands of years.',
  fjord: 'Fjords are glacial valleys flooded by the sea after the ice retreated.',
  moraine: 'Moraines are ridges of rock debris that a glacier pushed and left behind.',
  river: 'Rivers cut V-shaped valleys by erosion, unlike glaciers which carve U-shaped ones.',
  tides: 'Tides follow the moon; the sun adds a smaller pull twice a month.',
  tea: 'Green tea leaves are steamed or pan-fired soon after picking to stop oxidation.',
  coffee: 'Coffee beans are roasted until the sugars caramelise and the oils come to the surface.',
  volcano: 'Volcanoes erupt when magma, gas and ash escape through the crust.',
  coral: 'Coral reefs grow slowly in warm shallow seas and host a quarter of marine species.',
  desert: 'Deserts receive little rain; wind shapes their dunes and carves rock arches.',
};

const QUERIES = { yeast: 'wild yeast bread', glacier: 'glacier valleys' };

/** The grades a careful person would give: per query text, document → grade; every other document 0. */
const GRADES: Record<string, Record<string, number>> = {
  [QUERIES.yeast]: { sourdough: 3, starter: 2, baguette: 1, brewing: 1 },
  [QUERIES.glacier]: { glacier: 3, fjord: 2, moraine: 1, river: 1 },
};

function gradeFor(queryText: string, docId: string): number {
  return GRADES[queryText]?.[docId] ?? 0;
}

beforeAll(async () => {
  appUrl = inject('appUrl');
  dir = tempDir('rp-judging-');
  session = await launchOnStarter(appUrl);
});

afterAll(async () => {
  await session?.close();
});

const panel = (page: Page): Locator => page.getByTestId('judging');
const progressText = (page: Page) => page.getByTestId('judging-progress').textContent();
const column = (page: Page, n: number): Locator => page.locator('article.column').nth(n);

/** Pool size from "0 of N pooled documents judged", once the columns have ranked the query. */
async function poolSize(page: Page): Promise<number> {
  await expect.poll(() => progressText(page), { timeout: 240_000 }).toMatch(/^\d+ of [1-9]\d* pooled documents judged$/);
  return Number(/of (\d+)/.exec((await progressText(page)) ?? '')![1]);
}

/** The top 10 document ids of every column (hidden while judging, still in the page). */
async function columnTops(page: Page): Promise<string[][]> {
  const tops: string[][] = [];
  for (let n = 0; n < 3; n++) tops.push((await column(page, n).locator('button.hit .docid').allTextContents()).slice(0, 10));
  return tops;
}

async function download(page: Page, button: Locator): Promise<{ name: string; path: string; bytes: Buffer }> {
  const event = page.waitForEvent('download');
  await button.click();
  const file = await event;
  const path = join(mkdtempSync(join(dir, 'download-')), file.suggestedFilename());
  await file.saveAs(path);
  return { name: file.suggestedFilename(), path, bytes: readFileSync(path) };
}

test('import a corpus without queries, save two queries, judge both pools by keyboard; metrics appear', async () => {
  const { page, errors } = session;
  const folder = join(dir, 'field-notes');
  mkdirSync(folder);
  for (const [id, text] of Object.entries(DOCUMENTS)) writeFileSync(join(folder, `${id}.txt`), `${text}\n`);
  await page.getByRole('button', { name: 'Datasets' }).click();
  await page.getByTestId('pick-folder').setInputFiles(folder);
  const preview = page.getByRole('region', { name: 'Recognised files' });
  await preview.waitFor();
  await preview.getByLabel('Name').fill('Field notes');
  await preview.getByRole('button', { name: 'Import', exact: true }).click();
  await expect.poll(() => page.getByTestId('import-report').textContent(), { timeout: 60_000 }).toContain('14 documents, 0 queries');

  // Two typed queries saved as queries: q1, q2.
  await page.getByRole('button', { name: 'Explore' }).click();
  for (const [n, text] of [QUERIES.yeast, QUERIES.glacier].entries()) {
    await page.getByRole('button', { name: 'New query' }).click();
    await page.getByLabel('Query text').fill(text);
    await page.getByRole('button', { name: 'Save as query' }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('qid')).toBe(`q${n + 1}`);
  }
  await settled(page);
  // No judgments yet: no metrics, no judged@10.
  expect(await column(page, 0).locator('dl.metrics').count()).toBe(0);
  expect(await page.getByTestId('judged-value').count()).toBe(0);

  // q2 ("glacier valleys"), one document at a time.
  const tops2 = await columnTops(page);
  await page.getByRole('button', { name: 'Judge q2' }).click();
  await panel(page).waitFor();
  const total2 = await poolSize(page);
  const union2 = new Set(tops2.flat());
  expect(total2).toBe(union2.size);
  // Nothing on the judging screen tells column or rank.
  expect(await panel(page).locator('.hit, .rank, [data-kind]').count()).toBe(0);
  const seen: string[] = [];
  for (let i = 0; i < total2; i++) {
    const docId = (await panel(page).locator('article.doc').getAttribute('data-doc'))!;
    seen.push(docId);
    if (i === 2) await screenshot(page, 'judging-one-at-a-time');
    await page.keyboard.press(String(gradeFor(QUERIES.glacier, docId)));
    await expect.poll(() => progressText(page)).toBe(`${i + 1} of ${total2} pooled documents judged`);
  }
  expect(new Set(seen)).toEqual(union2);
  // Shuffled: not the order of any column.
  for (const top of tops2) expect(seen.slice(0, top.length)).not.toEqual(top);
  await expect.poll(() => panel(page).getByRole('status').textContent()).toContain(`All ${total2} pooled documents are judged.`);

  // J: the next query (q1, wrapping), as a list this time (L), graded row by row.
  await page.keyboard.press('j');
  await expect.poll(() => new URL(page.url()).searchParams.get('qid')).toBe('q1');
  await page.keyboard.press('l');
  await expect.poll(() => new URL(page.url()).searchParams.get('judge')).toBe('list');
  const total1 = await poolSize(page);
  const rows = panel(page).locator('ol.pool > li');
  expect(await rows.count()).toBe(total1);
  const order1 = await rows.evaluateAll((items) => items.map((item) => (item as HTMLElement).dataset['doc']!));
  expect(new Set(order1)).toEqual(new Set((await columnTops(page)).flat()));
  for (let i = 0; i < total1; i++) {
    await expect.poll(() => rows.nth(i).getAttribute('aria-current')).toBe('true');
    if (i === 3) await screenshot(page, 'judging-list');
    await page.keyboard.press(String(gradeFor(QUERIES.yeast, order1[i]!)));
    await expect.poll(() => progressText(page)).toBe(`${i + 1} of ${total1} pooled documents judged`);
  }
  // The information need is saved with the query.
  await panel(page).getByLabel(/Information need/).fill('Relevant: how wild yeast makes bread rise.');
  await panel(page).getByLabel(/Information need/).blur();
  await expect.poll(() => panel(page).locator('.need .status').textContent()).toBe('saved');

  // Esc: the columns again, now with nDCG@10 and judged@10 for q1 from the judgments just made.
  await page.keyboard.press('Escape');
  await panel(page).waitFor({ state: 'detached' });
  await settled(page);
  for (let n = 0; n < 3; n++) {
    const docIds = await column(page, n).locator('button.hit .docid').allTextContents();
    const scores = (await column(page, n).locator('button.hit .score').allTextContents()).map(Number);
    const judgments = new Map(order1.map((docId) => [docId, gradeFor(QUERIES.yeast, docId)]));
    const expected = queryMetrics(judgments, docIds.map((docId, i) => ({ docId, score: scores[i]! })));
    await expect.poll(() => column(page, n).locator('dl.metrics .value').first().textContent()).toBe(expected.ndcg10.toFixed(4));
    // Every document of every top 10 was pooled, so judged: judged@10 = ranked (≤ 10) / 10.
    expect(await column(page, n).getByTestId('judged-value').textContent()).toBe((Math.min(10, docIds.length) / 10).toFixed(4));
  }
  expect(Number(await column(page, 0).locator('dl.metrics .value').first().textContent())).toBeGreaterThan(0);
  await screenshot(page, 'judging-metrics');
  expect(errors).toEqual([]);
});

test('after a reload the judgments and the undo history are kept; undo reverts the last judgment made before it', async () => {
  const { page, errors } = session;
  expect(new URL(page.url()).searchParams.get('split')).toBe('my-judgments');
  await page.reload();
  await expect.poll(() => new URL(page.url()).searchParams.get('qid'), { timeout: 60_000 }).toBe('q1');
  await settled(page);
  await expect.poll(() => column(page, 0).locator('dl.metrics .value').count()).toBe(4);
  // G (outside any text box) opens judging mode on the query shown.
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.keyboard.press('g');
  const total = await poolSize(page);
  expect(await progressText(page)).toBe(`${total} of ${total} pooled documents judged`);
  // The layout chosen last (the list) is remembered.
  expect(await panel(page).getByRole('button', { name: 'List' }).getAttribute('aria-pressed')).toBe('true');
  expect(await panel(page).getByLabel(/Information need/).inputValue()).toBe('Relevant: how wild yeast makes bread rise.');
  // The list's last row was the last judgment: undo (U) takes it back.
  const lastDoc = (await panel(page).locator('ol.pool > li').last().getAttribute('data-doc'))!;
  expect(await panel(page).getByRole('button', { name: /^Undo/ }).textContent()).toContain(lastDoc);
  await page.keyboard.press('u');
  await expect.poll(() => progressText(page)).toBe(`${total - 1} of ${total} pooled documents judged`);
  // The selection moves to the undone row in an update of its own, after the progress line's.
  await expect.poll(() => panel(page).locator('ol.pool > li[aria-current="true"]').getAttribute('data-doc')).toBe(lastDoc);
  expect(await panel(page).locator(`ol.pool > li[data-doc="${lastDoc}"] button[aria-pressed="true"]`).count()).toBe(0);
  // Judged again (its row is selected): complete once more.
  await page.keyboard.press(String(gradeFor(QUERIES.yeast, lastDoc)));
  await expect.poll(() => progressText(page)).toBe(`${total} of ${total} pooled documents judged`);
  expect(errors).toEqual([]);
});

test('Evaluate follows the judgments: a changed grade changes its metrics without ranking again', async () => {
  const { page, errors } = session;
  const views = page.getByRole('navigation', { name: 'Views' });
  const figure = (n: number, measure: string) => page.locator(`[data-testid="metrics-table"] tr[data-column="${n}"] td[data-measure="${measure}"] .figure`).textContent();
  await page.keyboard.press('Escape');
  await panel(page).waitFor({ state: 'detached' });
  await views.getByRole('button', { name: 'Evaluate' }).click();
  await page.getByRole('button', { name: 'Run evaluation (3 columns)' }).click();
  await metricsFresh(page, 3);
  const before = Number(await figure(2, 'ndcg_cut_10'));

  // In Explore, q1's best document for the dense column is judged 0 instead of 3.
  await views.getByRole('button', { name: 'Explore' }).click();
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.keyboard.press('g');
  await poolSize(page);
  await panel(page).getByRole('button', { name: /: sourdough$/ }).click();
  await page.keyboard.press('0');
  await expect.poll(() => panel(page).locator('li[data-doc="sourdough"] button[aria-pressed="true"]').textContent()).toContain('0');
  await page.keyboard.press('Escape');
  await settled(page);
  const q1 = Number(await column(page, 1).locator('dl.metrics .value').first().textContent());
  await page.keyboard.press('j');
  await expect.poll(() => new URL(page.url()).searchParams.get('qid')).toBe('q2');
  await settled(page);
  const q2 = Number(await column(page, 1).locator('dl.metrics .value').first().textContent());

  await views.getByRole('button', { name: 'Evaluate' }).click();
  // Computed again from the stored runs: still fresh, nothing to run, the mean of the two queries' nDCG@10 now.
  await expect.poll(async () => Number(await figure(2, 'ndcg_cut_10'))).not.toBe(before);
  expect(Math.abs(Number(await figure(2, 'ndcg_cut_10')) - (q1 + q2) / 2)).toBeLessThanOrEqual(1e-4);
  await expect.poll(() => page.locator('[data-testid="metrics-table"] tr[data-status="fresh"]').count()).toBe(3);
  expect(await page.getByRole('button', { name: 'All columns evaluated' }).count()).toBe(1);

  // Undo brings the grade back (Explore, judging q1 again).
  await views.getByRole('button', { name: 'Explore' }).click();
  await page.keyboard.press('k');
  await expect.poll(() => new URL(page.url()).searchParams.get('qid')).toBe('q1');
  await page.keyboard.press('g');
  await poolSize(page);
  await page.keyboard.press('u');
  await expect.poll(() => panel(page).locator('li[data-doc="sourdough"] button[aria-pressed="true"]').textContent()).toContain('3');
  await views.getByRole('button', { name: 'Evaluate' }).click();
  await expect.poll(async () => Number(await figure(2, 'ndcg_cut_10'))).toBe(before);
  await views.getByRole('button', { name: 'Explore' }).click();
  await panel(page).waitFor();
  expect(errors).toEqual([]);
});

test('the judgment set exported as TREC qrels and BEIR TSV imports back identically; the BEIR zip has BEIR\'s layout', async () => {
  const { page, errors } = session;
  const files = panel(page).getByRole('region', { name: 'Judgment files' });
  const trec = await download(page, files.getByRole('button', { name: 'Export TREC qrels' }));
  expect(trec.name).toBe('Field-notes.my-judgments.qrels');
  const lines = trec.bytes.toString('utf8').trimEnd().split('\n');
  for (const line of lines) expect(line).toMatch(/^q[12] 0 [a-z]+ [0-3]$/);
  expect(lines.filter((line) => line.startsWith('q2 ')).length).toBeGreaterThan(0);
  expect(lines.filter((line) => line.startsWith('q1 ')).length).toBeGreaterThan(0);
  expect(lines).toContain('q2 0 glacier 3');
  expect(lines).toContain('q1 0 sourdough 3');
  const beir = await download(page, files.getByRole('button', { name: 'Export BEIR TSV' }));
  expect(beir.bytes.toString('utf8').split('\n')[0]).toBe('query-id\tcorpus-id\tscore');

  for (const [file, set, format] of [
    [trec, 'reimported', 'Export TREC qrels'],
    [beir, 'reimported-tsv', 'Export BEIR TSV'],
  ] as const) {
    await files.getByTestId('import-judgments').setInputFiles(file.path);
    const form = files.getByRole('form', { name: 'Import judgments' });
    await form.waitFor();
    // The name the file carries is the set it came from: importing under it would replace it.
    expect(await form.getByLabel('Judgment set to import into').inputValue()).toBe('my-judgments');
    expect(await form.getByRole('button', { name: 'Replace my-judgments' }).count()).toBe(1);
    await form.getByLabel('Judgment set to import into').fill(set);
    await form.getByRole('button', { name: 'Import', exact: true }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('split')).toBe(set);
    await expect.poll(() => files.locator('.what strong').textContent()).toBe(set);
    const again = await download(page, files.getByRole('button', { name: format }));
    expect(again.name).toBe(`Field-notes.${set}.${format === 'Export TREC qrels' ? 'qrels' : 'tsv'}`);
    expect(again.bytes.equals(file.bytes)).toBe(true);
  }
  // A file that is neither format is refused with its name and line.
  const bad = join(dir, 'bad.qrels');
  writeFileSync(bad, 'q1 sourdough 3\n');
  await files.getByTestId('import-judgments').setInputFiles(bad);
  const alert = page.getByRole('region', { name: 'Messages' }).getByRole('alert');
  await expect.poll(() => alert.textContent()).toContain('bad.qrels:1: neither TREC qrels');
  await alert.getByRole('button', { name: 'Dismiss message' }).click();

  const zip = await download(page, files.getByRole('button', { name: 'Export collection (BEIR zip)' }));
  expect(zip.name).toBe('Field-notes.zip');
  const entries = unzipSync(new Uint8Array(zip.bytes));
  expect(Object.keys(entries)).toEqual([
    'Field-notes/corpus.jsonl',
    'Field-notes/queries.jsonl',
    'Field-notes/qrels/my-judgments.tsv',
    'Field-notes/qrels/reimported.tsv',
    'Field-notes/qrels/reimported-tsv.tsv',
  ]);
  expect(strFromU8(entries['Field-notes/corpus.jsonl']!).trimEnd().split('\n')).toHaveLength(14);
  expect(strFromU8(entries['Field-notes/queries.jsonl']!)).toBe(
    `{"_id":"q1","text":"${QUERIES.yeast}","metadata":{"narrative":"Relevant: how wild yeast makes bread rise."}}\n{"_id":"q2","text":"${QUERIES.glacier}"}\n`,
  );
  expect(strFromU8(entries['Field-notes/qrels/my-judgments.tsv']!)).toBe(beir.bytes.toString('utf8'));
  expect(errors).toEqual([]);
});

test('"Judge these" on a column\'s unjudged documents judges exactly those', async () => {
  const { page, errors } = session;
  // Back to the first set (the imports switched to theirs).
  await panel(page).getByLabel('Judgments go to').selectOption('my-judgments');
  await expect.poll(() => new URL(page.url()).searchParams.get('split')).toBe('my-judgments');
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.keyboard.press('Escape');
  await panel(page).waitFor({ state: 'detached' });
  // A third query, judged for one document only: the columns then list unjudged documents.
  await page.getByRole('button', { name: 'New query' }).click();
  await page.getByLabel('Query text').fill('volcano magma');
  await page.getByRole('button', { name: 'Save as query' }).click();
  await expect.poll(() => new URL(page.url()).searchParams.get('qid')).toBe('q3');
  await settled(page);
  await page.getByRole('button', { name: 'Judge q3' }).click();
  await poolSize(page);
  await page.keyboard.press('3');
  await expect.poll(() => progressText(page)).toMatch(/^1 of /);
  await page.keyboard.press('Escape');
  await settled(page);
  // The dense column ranks every document, so most of its top 10 is unjudged.
  const strip = column(page, 1).getByTestId('judged-coverage');
  const unjudged = await strip.getByTestId('unjudged-list').locator('.chip-id').allTextContents();
  expect(unjudged.length).toBeGreaterThan(0);
  await strip.getByRole('button', { name: `Judge these ${unjudged.length}` }).click();
  expect(await progressText(page)).toBe(`0 of ${unjudged.length} pooled documents judged`);
  await panel(page).getByRole('button', { name: 'One at a time' }).click();
  const shown: string[] = [];
  for (let i = 0; i < unjudged.length; i++) {
    const docId = (await panel(page).locator('article.doc').getAttribute('data-doc'))!;
    shown.push(docId);
    await page.keyboard.press('0');
    await expect.poll(() => progressText(page)).toBe(`${i + 1} of ${unjudged.length} pooled documents judged`);
  }
  expect(new Set(shown)).toEqual(new Set(unjudged));
  await page.keyboard.press('Escape');
  await expect.poll(() => column(page, 1).getByTestId('judged-value').textContent()).toBe('1.0000');
  expect(await column(page, 1).getByTestId('unjudged-list').count()).toBe(0);
  // The runs Evaluate stored rank q1 and q2 only: with q3 judged now they are stale until run again.
  await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Evaluate' }).click();
  await expect.poll(() => page.locator('[data-testid="metrics-table"] tr[data-status="stale"]').count()).toBe(3);
  expect(await page.getByTestId('stale-note').textContent()).toContain('other judged queries');
  await page.getByRole('button', { name: 'Run evaluation (3 columns)' }).click();
  await metricsFresh(page, 3);
  expect(await page.locator('[data-testid="metrics-table"] tr[data-column="1"] td.num').first().textContent()).toBe('3');
  expect(errors).toEqual([]);
});

test('the exported BEIR zip, imported from Datasets, is the collection with its queries and judgment sets', async () => {
  const { page, errors } = session;
  await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Datasets' }).click();
  const zip = await download(page, page.getByRole('button', { name: 'Export Field notes as a BEIR zip' }));
  expect(zip.name).toBe('Field-notes.zip');
  await page.getByTestId('pick-files').setInputFiles(zip.path);
  const preview = page.getByRole('region', { name: 'Recognised files' });
  await preview.waitFor();
  await preview.getByLabel('Name').fill('Field notes again');
  await preview.getByRole('button', { name: 'Import', exact: true }).click();
  await expect.poll(() => page.getByTestId('import-report').textContent(), { timeout: 60_000 }).toContain('14 documents, 3 queries');
  const row = page.locator('tr', { has: page.getByRole('rowheader', { name: /Field notes again/ }) });
  expect(await row.locator('td').nth(3).textContent()).toBe('my-judgments, reimported, reimported-tsv');
  // Its my-judgments set exports the bytes of the original's.
  await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Explore' }).click();
  // The query shown before (q3) is one of the imported collection's too.
  await expect.poll(() => page.getByLabel('Collection', { exact: true }).locator('option:checked').textContent()).toBe('Field notes again');
  await expect.poll(() => new URL(page.url()).searchParams.get('qid')).toBe('q3');
  await settled(page);
  await page.getByRole('button', { name: 'Judge q3' }).click();
  await panel(page).getByLabel('Judgments go to').selectOption('my-judgments');
  const files = panel(page).getByRole('region', { name: 'Judgment files' });
  const again = await download(page, files.getByRole('button', { name: 'Export TREC qrels' }));
  expect(again.name).toBe('Field-notes-again.my-judgments.qrels');
  const entries = unzipSync(new Uint8Array(zip.bytes));
  const original = strFromU8(entries['Field-notes/qrels/my-judgments.tsv']!).trimEnd().split('\n').slice(1).map((line) => line.replace(/\t(\S+)\t/, ' 0 $1 ')).join('\n');
  expect(again.bytes.toString('utf8').trimEnd()).toBe(original);
  expect(errors).toEqual([]);
});
