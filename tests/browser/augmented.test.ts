/**
 * An Augmented BM25 column in Debian's chromium, on the built app: the synthetic collection of tests/lib/augment
 * (queries and their relevant documents share no word; one judged split, "test") imported through the Datasets
 * view; a model trained by the command line (`train-augment` on the same files, a seeded 25 % of test held out,
 * the real GloVe encoder) imported through Explore's "+ Augmented BM25…" picker; the column's learned query with
 * its added terms marked, its hits, the explain panel's weight × BM25 part of each term, the Evaluate row on the
 * held-out queries (and the efficiency table's terms per query), the column kept across a reload; and a model
 * the command line trained with the frozen transformer local/tiny-bert, whose column loads tiny BERT in its
 * worker (onnxruntime-web) and shows the command line's learned query and hits (onnxruntime-node).
 *
 * Expected figures are the command line's on the same files and model: `search --retriever augmented --json`
 * for the learned query and hits, `eval --retriever augmented --json` for the held-out measures.
 */
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { ensureModels } from '../lib/dense/models-fixture.ts';
import { cliStdout } from '../cli/run-cli.ts';
import { tempDir } from '../temp-dir.ts';
import { columnsReady, launchOnStarter, metricsFresh, rows } from './app-page.ts';
import { ARTIFACTS_DIR, screenshot, type BrowserSession } from './harness.ts';
import { importSynthetic, writeSynthetic } from './synthetic-files.ts';

const QID = 'q0-1';
const QUERY = 'amber birch';

let session: BrowserSession;
let appUrl: string;
let dir: string;
let modelPath: string;
let files: string[];
interface CliSearch {
  expanded: Array<{ term: string; weight: number; added: boolean }>;
  hits: Array<{ docId: string; score: number }>;
}
let search: CliSearch;
let evalReport: { queries: number; queries_from: string; metrics: Record<string, number> };

const views = (page: Page) => page.getByRole('navigation', { name: 'Views' });
const augmented = (page: Page): Locator => page.locator('article.column[data-kind="augmented"]');

beforeAll(async () => {
  appUrl = inject('appUrl');
  ensureModels('glove-100d-sif', 'tiny-bert');
  dir = tempDir('rp-augmented-');
  const pageFiles = join(dir, 'page');
  mkdirSync(pageFiles);
  files = writeSynthetic(pageFiles);
  // The same files in the BEIR layout the command line reads; the folder's name is the collection's.
  const dataset = join(dir, 'synthetic');
  mkdirSync(join(dataset, 'qrels'), { recursive: true });
  copyFileSync(files[0]!, join(dataset, 'corpus.jsonl'));
  copyFileSync(files[1]!, join(dataset, 'queries.jsonl'));
  copyFileSync(files[2]!, join(dataset, 'qrels', 'test.tsv'));
  modelPath = join(dir, 'no-shared-words.augment.json');
  const flags = ['--dataset', dataset, '--split', 'test', '--analyzer', 'english', '--held-out', '0.25', '--epochs', '40', '--lr', '0.01', '--batch-size', '10', '--lambda', '0.01', '--seed', '11'];
  await cliStdout(['train-augment', ...flags, '--out', modelPath]);
  search = JSON.parse(await cliStdout(['search', '--dataset', dataset, '--retriever', 'augmented', '--augmenter', modelPath, '--query', QUERY, '--json'])) as CliSearch;
  evalReport = JSON.parse(await cliStdout(['eval', '--dataset', dataset, '--split', 'test', '--retriever', 'augmented', '--augmenter', modelPath, '--json']));
  session = await launchOnStarter(appUrl);
}, 300_000);

afterAll(async () => {
  await session?.close();
});

describe('Augmented BM25 column (synthetic collection, a model made by the command line)', () => {
  test('the picker hints at the Learn view, imports the model file and adds its column', async () => {
    const { page, errors } = session;
    await importSynthetic(page, files);
    await views(page).getByRole('button', { name: 'Explore' }).click();
    await page.locator('article.column').first().waitFor({ timeout: 60_000 });
    const picker = page.getByRole('button', { name: '+ Augmented BM25…' });
    await picker.click();
    const menu = page.getByRole('group', { name: 'Augmented BM25 models' });
    await expect.poll(() => menu.textContent()).toMatch(/No model is stored in this browser yet: train one in the\s+Learn view/);
    await menu.getByTestId('augment-model-file').setInputFiles(modelPath);
    await augmented(page).waitFor({ timeout: 60_000 });
    // The address holds the column (its model by key, name and training split), so a link or reload restores it.
    await expect.poll(() => new URL(page.url()).searchParams.getAll('col').find((c) => c.startsWith('augmented;'))).toMatch(/^augmented;key=\w+;name=no-shared-words;tc=synthetic;ts=test;/);
    expect(await augmented(page).locator('h2').textContent()).toMatch(/^Augmented BM25: no-shared-words \(trained on synthetic test\b/);
    // Trained on this collection (by the command line, under its folder's name): no transfer to state.
    expect(await augmented(page).locator('.sub').textContent()).toMatch(/trained on synthetic test$/);
    expect(errors).toEqual([]);
  });

  test('each query shows its learned query, added terms marked, and the hits the command line finds', async () => {
    const { page, errors } = session;
    // Appended as is: URLSearchParams would percent-encode the columns' `;` and `=`.
    await page.goto(`${page.url()}&qid=${QID}`);
    try {
      await columnsReady(page, 4, { timeout: 60_000 });
    } catch (error) {
      const cards = await page.locator('article.column').evaluateAll((els) => els.map((el) => `${el.getAttribute('data-kind')} ${el.getAttribute('data-status')} ranked=${el.getAttribute('data-ranked')}: ${(el as HTMLElement).innerText.slice(0, 400)}`));
      console.log(`[augmented] DEBUG url=${page.url()}\n${cards.join('\n---\n')}\nerrors=${JSON.stringify(session.errors)}`);
      throw error;
    }
    const column = augmented(page);
    const learned = column.getByTestId('expanded-query');
    await learned.waitFor({ timeout: 60_000 });
    const added = search.expanded.filter((t) => t.added).length;
    expect(added).toBeGreaterThan(0);
    expect(await learned.locator('summary').textContent()).toMatch(new RegExp(`Learned query · ${search.expanded.length} terms, ${added} added by no-shared-words`));
    const terms = await learned.locator('li').evaluateAll((items) => items.map((li) => ({ term: li.querySelector('.term')!.textContent, added: li.classList.contains('added'), weight: li.querySelector('.weight')!.textContent })));
    expect(terms).toEqual(search.expanded.map((t) => ({ term: t.term, added: t.added, weight: t.weight.toFixed(4) })));
    expect(await learned.locator('li.added .mark').first().textContent()).toBe('+');
    const ids = await column.locator('.hit .docid').allTextContents();
    const scores = await column.locator('.hit .score').allTextContents();
    expect(ids.map((id, i) => `${id} ${scores[i]}`)).toEqual(search.hits.slice(0, 10).map((h) => `${h.docId} ${h.score.toFixed(4)}`));
    // The query's own document, which shares no word with it, is found through the added terms.
    expect(ids[0]).toBe('d0-1');
    mkdirSync(ARTIFACTS_DIR, { recursive: true });
    await column.screenshot({ path: join(ARTIFACTS_DIR, 'augmented-column.png') });
    expect(errors).toEqual([]);
  });

  test('the explain panel gives each term of the learned query its weight × BM25 part, added terms marked', async () => {
    const { page, errors } = session;
    const first = augmented(page).locator('button.hit').first();
    await first.click();
    const dialog = page.getByRole('dialog');
    await dialog.locator('.bm25 tbody tr').first().waitFor({ timeout: 60_000 });
    expect(await dialog.textContent()).toMatch(/BM25 of the learned query \(\d+ terms\): each term's part is its learned weight × its BM25 part, rank 1/);
    const table = await dialog.locator('.bm25 tbody tr').evaluateAll((trs) => trs.map((tr) => ({ term: tr.querySelector('th code')!.textContent, added: tr.querySelector('th .added') !== null, weight: Number(tr.querySelector('td')!.textContent) })));
    expect(table.map((r) => r.term)).toEqual(search.expanded.map((t) => t.term));
    expect(table.map((r) => r.added)).toEqual(search.expanded.map((t) => t.added));
    // The table writes a weight with the digits it needs (weightText): equal to the command line's float32 weight.
    table.forEach((r, i) => expect(r.weight).toBeCloseTo(search.expanded[i]!.weight, 6));
    expect(await dialog.locator('.bm25 tfoot td').textContent()).toBe(search.hits[0]!.score.toFixed(4));
    await screenshot(page, 'augmented-explain');
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.count()).toBe(0);
    expect(errors).toEqual([]);
  });

  test('Evaluate measures it on the held-out queries only, as the command line does, and says so; terms per query next to BM25', async () => {
    const { page, errors } = session;
    await views(page).getByRole('button', { name: 'Evaluate' }).click();
    await page.getByRole('button', { name: 'Run evaluation (4 columns)' }).click();
    await metricsFresh(page, 4, { timeout: 240_000 });
    const row = page.locator('[data-testid="metrics-table"] tr[data-column="4"]');
    expect(await row.getByTestId('held-out-note').textContent()).toBe(`measured on ${evalReport.queries_from}; not tested against the baseline`);
    expect(await row.locator('td[data-measure="ndcg_cut_10"] .figure').textContent()).toBe(evalReport.metrics['ndcg_cut_10']!.toFixed(4));
    expect(await row.locator('td[data-measure="ndcg_cut_10"] sup').count()).toBe(0);
    // BM25 shares no word with any relevant document: 0 on the whole split.
    expect(await page.locator('[data-testid="metrics-table"] tr[data-column="1"] td[data-measure="ndcg_cut_10"] .figure').textContent()).toBe('0.0000');
    const efficiency = page.locator('[data-testid="efficiency-table"] tr[data-column="4"]');
    expect(await efficiency.locator('[data-cell="terms-per-query"]').textContent()).toMatch(/^\d+\.\d terms per query \(\d+\.\d added\)$/);
    expect(await efficiency.locator('[data-cell="augment-bm25-ratio"]').textContent()).toMatch(/^×[\d.,]+ BM25's /);
    console.log(`[augmented] efficiency row: ${await efficiency.innerText()}`);
    expect(errors).toEqual([]);
  });

  test('the column and its evaluation survive a reload', async () => {
    const { page, errors } = session;
    // Runs are stored once the dashboard shows them and the page is idle: wait for the column's row.
    await expect.poll(async () => (await rows<{ tag?: string }>(page, 'runs')).some((row) => row.tag === 'augmented'), { timeout: 60_000 }).toBe(true);
    // Explore's rankings of the column are saved as any other column's (its model is named by its file's fingerprint).
    expect((await rows(page, 'savedRankings')).some((row) => JSON.stringify(row).includes('"kind":"augmented"'))).toBe(true);
    await page.reload();
    await page.locator('[data-testid="metrics-table"] tr[data-column="4"][data-status="fresh"]').waitFor({ timeout: 60_000 });
    expect(await page.locator('[data-testid="metrics-table"] tr[data-column="4"]').getByTestId('held-out-note').textContent()).toContain(evalReport.queries_from);
    await views(page).getByRole('button', { name: 'Explore' }).click();
    await augmented(page).getByTestId('expanded-query').waitFor({ timeout: 60_000 });
    expect(await augmented(page).locator('h2').textContent()).toContain('no-shared-words');
    expect(errors).toEqual([]);
  });

  test('a link to a model this browser does not hold shows a message saying to import the file, not a crash', async () => {
    const { page, errors } = session;
    const elsewhere = page.url().replace(/(col=augmented;key=)\w+/, '$1deadbeef');
    expect(elsewhere).not.toBe(page.url());
    await page.goto(elsewhere);
    await expect.poll(() => augmented(page).textContent(), { timeout: 60_000 }).toMatch(/The model "no-shared-words" is not stored in this browser: import the model file/);
    // The other columns rank as before.
    await expect.poll(() => page.locator('article.column[data-kind="bm25"]').getAttribute('data-status')).toBe('ready');
    expect(errors).toEqual([]);
  });

  test('a model the command line trained with the frozen transformer local/tiny-bert: its column loads tiny BERT in the worker and shows the command line’s learned query and hits', async () => {
    const { page, errors } = session;
    const dataset = join(dir, 'synthetic');
    const tinyPath = join(dir, 'tiny-bert-words.augment.json');
    const flags = ['--dataset', dataset, '--split', 'test', '--analyzer', 'english', '--held-out', '0.25', '--epochs', '10', '--lr', '0.01', '--batch-size', '10', '--lambda', '0.01', '--seed', '11'];
    await cliStdout(['train-augment', ...flags, '--encoder', 'local/tiny-bert', '--out', tinyPath]);
    const tiny = JSON.parse(await cliStdout(['search', '--dataset', dataset, '--retriever', 'augmented', '--augmenter', tinyPath, '--query', QUERY, '--json'])) as CliSearch;
    expect(tiny.hits.length).toBeGreaterThan(0);
    await page.goto(appUrl);
    await views(page).getByRole('button', { name: 'Explore' }).click();
    await page.locator('article.column').first().waitFor({ timeout: 60_000 });
    await page.getByRole('button', { name: '+ Augmented BM25…' }).click();
    await page.getByRole('group', { name: 'Augmented BM25 models' }).getByTestId('augment-model-file').setInputFiles(tinyPath);
    const column = augmented(page).filter({ hasText: 'tiny-bert-words' });
    await column.waitFor({ timeout: 60_000 });
    await expect.poll(() => decodeURIComponent(page.url()), { timeout: 30_000 }).toContain('name=tiny-bert-words');
    const address = page.url();
    await page.goto(/[?&]qid=[^&]*/.test(address) ? address.replace(/([?&]qid=)[^&]*/, `$1${QID}`) : `${address}&qid=${QID}`);
    const learned = column.getByTestId('expanded-query');
    await learned.waitFor({ timeout: 120_000 });
    const terms = await learned.locator('li').evaluateAll((items) => items.map((li) => ({ term: li.querySelector('.term')!.textContent, added: li.classList.contains('added'), weight: li.querySelector('.weight')!.textContent })));
    expect(terms).toEqual(tiny.expanded.map((t) => ({ term: t.term, added: t.added, weight: t.weight.toFixed(4) })));
    await expect.poll(() => column.locator('.hit .docid').count(), { timeout: 60_000 }).toBeGreaterThan(0);
    const ids = await column.locator('.hit .docid').allTextContents();
    const scores = await column.locator('.hit .score').allTextContents();
    expect(ids.map((id, i) => `${id} ${scores[i]}`)).toEqual(tiny.hits.slice(0, 10).map((h) => `${h.docId} ${h.score.toFixed(4)}`));
    expect(errors).toEqual([]);
  });
});
