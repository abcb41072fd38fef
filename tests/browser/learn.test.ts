/**
 * The Learn view in Debian's chromium on the built app: the synthetic collection of tests/lib/augment (queries
 * and their relevant documents share no word; one judged split, "test", which Evaluate evaluates) imported
 * through the Datasets view; a model trained in the Learn worker on a seeded share of it, with its loss curve
 * drawn step by step and the held-out nDCG@10 rising above plain BM25's (0: no shared word); a Cancel that
 * stores nothing; a bad model file refused with its name; the stored model's export imported back; "Add its
 * column" adds an Augmented BM25 column to Explore; a model trained with the frozen transformer local/tiny-bert
 * (rows trained refused) and its column. Screenshots of the view in both themes.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { parseModelFile } from '../../src/lib/augment/model-file.ts';
import { holdOutShare } from '../../src/lib/augment/splits.ts';
import { judgedQueries } from '../../src/lib/data/beir.ts';
import { repoRoot } from '../shared-dir.ts';
import { tempDir } from '../temp-dir.ts';
import { syntheticCollection } from '../lib/augment/synthetic.ts';
import { columnsReady, launchOnStarter, rows } from './app-page.ts';
import { importSynthetic, writeSynthetic } from './synthetic-files.ts';
import { screenshot, type BrowserSession } from './harness.ts';

let session: BrowserSession;
let appUrl: string;
let dir: string;
/** The synthetic collection's queries, all judged in its one split. */
const QUERIES = syntheticCollection().docs.length;
const HELD_OUT = Math.round(0.25 * QUERIES);

const views = (page: Page) => page.getByRole('navigation', { name: 'Views' });
const learn = (page: Page) => page.getByTestId('learn-view');

/** The settings of tests/lib/augment's synthetic training (SYNTHETIC_SETTINGS), typed into the form. */
async function fillSettings(page: Page, settings: { epochs: string; lambda: string; lr: string; batch: string; seed: string }): Promise<void> {
  await learn(page).getByLabel('Epochs', { exact: true }).fill(settings.epochs);
  await learn(page).getByLabel('λ (sparsity)').fill(settings.lambda);
  await learn(page).getByLabel('Learning rate').fill(settings.lr);
  await learn(page).getByLabel('Batch size').fill(settings.batch);
  await learn(page).getByLabel('Seed', { exact: true }).fill(settings.seed);
}

beforeAll(async () => {
  appUrl = inject('appUrl');
  dir = tempDir('rp-learn-');
  session = await launchOnStarter(appUrl);
}, 300_000);

afterAll(async () => {
  await session?.close();
});

describe('Learn view (synthetic collection: no word shared by a query and its documents)', () => {
  test('the synthetic collection imports through the Datasets view, and Learn offers its one split with a held-out share', async () => {
    const { page, errors } = session;
    await importSynthetic(page, writeSynthetic(dir));
    await views(page).getByRole('button', { name: 'Learn' }).click();
    await learn(page).waitFor({ timeout: 60_000 });
    expect(new URL(page.url()).searchParams.get('view')).toBe('learn');
    expect(await learn(page).getByLabel('Training split').inputValue()).toBe('test');
    expect(await learn(page).getByLabel('Held-out measure').inputValue()).toBe('share');
    expect(await learn(page).getByTestId('only-split-note').textContent()).toMatch(/test is the only judged split: a seeded share of its queries \(10 %, seed 1\) is held out/);
    expect(errors).toEqual([]);
  });

  test('Cancel stops a run within a step and stores nothing', async () => {
    const { page } = session;
    await fillSettings(page, { epochs: '400', lambda: '0.01', lr: '0.01', batch: '10', seed: '5' });
    await learn(page).getByRole('button', { name: 'Train' }).click();
    await expect.poll(() => page.getByTestId('loss-curve').locator('path.loss').getAttribute('data-points'), { timeout: 120_000 }).toMatch(/^\d+$/);
    await learn(page).getByRole('button', { name: 'Cancel training' }).click();
    await expect.poll(() => learn(page).getByTestId('learn-cancelled').textContent(), { timeout: 60_000 }).toMatch(/Training cancelled after \d+ steps: nothing was stored/);
    expect(await rows(page, 'augmentModels')).toEqual([]);
    expect(await rows(page, 'augmentModelFiles')).toEqual([]);
  });

  test('trains in the worker: the loss curve grows step by step and the held-out nDCG@10 rises above BM25’s', async () => {
    const { page, errors } = session;
    await learn(page).getByLabel('Share held out').fill('0.25');
    await fillSettings(page, { epochs: '40', lambda: '0.01', lr: '0.01', batch: '10', seed: '11' });
    await learn(page).getByLabel('Model name').fill('synthetic-glove');
    await learn(page).getByRole('button', { name: 'Train' }).click();
    await learn(page).getByRole('progressbar', { name: 'Training steps' }).waitFor({ timeout: 60_000 });
    await page.getByTestId('learn-done').waitFor({ timeout: 240_000 });
    // The queries not held out, in batches of 10, for 40 epochs: each step on the curve.
    expect(await page.getByTestId('loss-curve').locator('path.loss').getAttribute('data-points')).toBe(String(Math.ceil((QUERIES - HELD_OUT) / 10) * 40));
    const table = page.getByTestId('epoch-table');
    const baseline = Number(await table.getByTestId('baseline-row').locator('td').nth(1).textContent());
    const last = Number(await table.locator('tr[data-epoch="40"] td.ndcg-value').textContent());
    expect(baseline).toBe(0);
    expect(last).toBeGreaterThan(baseline + 0.2);
    expect(await table.locator('caption').textContent()).toContain(`a seeded 25 % of test held out from training: ${HELD_OUT} queries, seed 11`);
    const stored = page.getByTestId('stored-models').locator('li', { hasText: 'synthetic-glove' });
    await stored.waitFor();
    expect(await stored.getByTestId('model-figures').textContent()).toContain(`nDCG@10 ${last.toFixed(4)}`);
    expect(await stored.textContent()).toContain(`a seeded 25 % of test held out from training: ${HELD_OUT} queries, seed 11`);
    await screenshot(page, 'learn-light');
    await page.getByRole('combobox', { name: 'Theme' }).selectOption('dark');
    await screenshot(page, 'learn-dark');
    await page.getByRole('combobox', { name: 'Theme' }).selectOption('light');
    // A phone's width: the form, charts and table fit without sideways scrolling of the page.
    const size = page.viewportSize()!;
    await page.setViewportSize({ width: 390, height: 844 });
    await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await screenshot(page, 'learn-narrow');
    await page.setViewportSize(size);
    expect(errors).toEqual([]);
  });

  test('export gives the stored file; a bad file is refused with its name; the export imports back as the same model', async () => {
    const { page } = session;
    const stored = page.getByTestId('stored-models').locator('li', { hasText: 'synthetic-glove' });
    const download = page.waitForEvent('download');
    await stored.getByRole('button', { name: 'Export' }).click();
    const file = await download;
    const path = join(dir, file.suggestedFilename());
    await file.saveAs(path);
    const model = parseModelFile(readFileSync(path, 'utf8'));
    expect(model.training).toMatchObject({ split: 'test', heldOut: { kind: 'share', share: 0.25, queries: HELD_OUT } });
    const bad = join(dir, 'broken.augment.json');
    writeFileSync(bad, '{"format":"something-else"}');
    await page.getByTestId('import-model').setInputFiles(bad);
    await expect.poll(() => page.getByTestId('import-model-error').textContent()).toMatch(/broken\.augment\.json: not a query-augmentation model.*Nothing was stored/);
    expect(await rows(page, 'augmentModels')).toHaveLength(1);
    // Importing the same bytes keeps one copy (the key is the file's fingerprint).
    await page.getByTestId('import-model').setInputFiles(path);
    await expect.poll(async () => (await rows<{ name: string }>(page, 'augmentModels')).map((r) => r.name)).toHaveLength(1);
  });

  test('rename, then "Add its column" adds an Augmented BM25 column to Explore', async () => {
    const { page, errors } = session;
    const stored = page.getByTestId('stored-models').locator('li').first();
    await stored.getByRole('button', { name: 'Rename' }).click();
    await stored.getByLabel('Model name').fill('no-shared-words');
    await stored.getByRole('button', { name: 'Save' }).click();
    await expect.poll(async () => (await rows<{ name: string }>(page, 'augmentModels')).map((r) => r.name)).toEqual(['no-shared-words']);
    await views(page).getByRole('button', { name: 'Explore' }).click();
    await page.locator('article.column').first().waitFor({ timeout: 60_000 });
    const before = await page.locator('article.column').count();
    await views(page).getByRole('button', { name: 'Learn' }).click();
    await page.getByTestId('stored-models').locator('li', { hasText: 'no-shared-words' }).getByRole('button', { name: 'Add its column' }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('view')).toBe('explore');
    await expect.poll(() => page.locator('article.column').count(), { timeout: 60_000 }).toBeGreaterThan(before);
    await expect.poll(() => page.locator('article.column').last().textContent(), { timeout: 60_000 }).toMatch(/no-shared-words/);
    // A held-out query (the same seeded share the model file names): plain BM25 finds nothing, the column
    // ranks the query's relevant document first.
    const { train, test } = syntheticCollection();
    const queries = [...train.queries, ...test.queries];
    const qrels = new Map([...train.qrels, ...test.qrels]);
    const all = { queries: judgedQueries(new Map(queries.map((q) => [q.id, q])), qrels), qrels };
    const query = holdOutShare(all, 0.25, 11).heldOut.queries[0]!;
    // The address holds the new column once the page has written it back (url-sync).
    await expect.poll(() => decodeURIComponent(page.url()), { timeout: 30_000 }).toContain('augmented');
    // The address as the page wrote it, only the query changed (URLSearchParams would re-encode the columns).
    const address = page.url();
    await page.goto(/[?&]qid=[^&]*/.test(address) ? address.replace(/([?&]qid=)[^&]*/, `$1${query.id}`) : `${address}&qid=${query.id}`);
    await columnsReady(page, before + 1);
    const relevant = [...qrels.get(query.id)!.keys()][0]!;
    await expect.poll(() => page.locator('article.column').last().locator('button.hit .docid').first().textContent(), { timeout: 120_000 }).toBe(relevant);
    expect(await page.locator('article.column').first().locator('button.hit .docid').allTextContents()).not.toContain(relevant);
    await screenshot(page, 'learn-added-column');
    expect(errors).toEqual([]);
  });

  test('trains with the frozen transformer local/tiny-bert in the worker (rows trained refused), stores it and adds its column', async () => {
    const { page, errors } = session;
    await views(page).getByRole('button', { name: 'Learn' }).click();
    await learn(page).waitFor({ timeout: 60_000 });
    const encoder = learn(page).getByRole('combobox', { name: /^Encoder/ });
    expect(await encoder.locator('option').allTextContents()).toEqual(expect.arrayContaining([expect.stringMatching(/^Tiny BERT .*, frozen \(offline test model\)$/), expect.stringMatching(/all-MiniLM-L6-v2.*frozen \(downloads \d+ MB from the hub\)$/i)]));
    await encoder.selectOption('local/tiny-bert');
    await learn(page).getByLabel('rows trained (end to end)').check();
    await expect.poll(() => learn(page).getByTestId('learn-refusal').textContent()).toBe("local/tiny-bert is a transformer, trained frozen: only a static table's rows can be trained (pick frozen)");
    expect(await learn(page).getByRole('button', { name: 'Train' }).isDisabled()).toBe(true);
    await learn(page).getByLabel('frozen', { exact: true }).check();
    await learn(page).getByLabel('Share held out').fill('0.25');
    await fillSettings(page, { epochs: '10', lambda: '0.01', lr: '0.01', batch: '10', seed: '11' });
    await learn(page).getByLabel('Model name').fill('synthetic-tiny-bert');
    await learn(page).getByRole('button', { name: 'Train' }).click();
    await page.getByTestId('learn-done').waitFor({ timeout: 240_000 });
    expect(await page.getByTestId('loss-curve').locator('path.loss').getAttribute('data-points')).toBe(String(Math.ceil((QUERIES - HELD_OUT) / 10) * 10));
    const table = page.getByTestId('epoch-table');
    expect(Number(await table.getByTestId('baseline-row').locator('td').nth(1).textContent())).toBe(0);
    const shown = await table.locator('tr[data-epoch="10"] td.ndcg-value').textContent();
    const stored = page.getByTestId('stored-models').locator('li', { hasText: 'synthetic-tiny-bert' });
    await stored.waitFor();
    expect(await stored.textContent()).toContain('local/tiny-bert, frozen');
    const row = (await rows<{ key: string; name: string; encoder: string }>(page, 'augmentModels')).find((r) => r.name === 'synthetic-tiny-bert');
    expect(row?.encoder).toBe('local/tiny-bert');
    // The stored file names the transformer and its weights, and holds the figures the epoch table showed.
    const file = (await rows<{ key: string; text: string }>(page, 'augmentModelFiles')).find((r) => r.key === row?.key);
    const model = parseModelFile(file!.text);
    expect([model.encoderModel, model.encoderDtype, model.params.encoderDim, model.params.rows]).toEqual(['local/tiny-bert', 'fp32', 32, undefined]);
    expect(model.training.history).toHaveLength(10);
    expect(shown).toBe(model.training.history.at(-1)!.heldOut!.ndcg_cut_10.toFixed(4));
    await stored.getByRole('button', { name: 'Add its column' }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('view')).toBe('explore');
    const column = page.locator('article.column[data-kind="augmented"]').filter({ hasText: 'synthetic-tiny-bert' });
    await column.getByTestId('expanded-query').waitFor({ timeout: 120_000 });
    expect(await column.textContent()).not.toMatch(/not stored|Could not/);
    expect(errors).toEqual([]);
  });

  test('a hub encoder loads from the mirror the page names (?remoteHost=), in the Learn worker too', async () => {
    const { page } = session;
    // A mirror with the hub's layout that serves tiny BERT's files under the hub id (a worker cannot read
    // the page's address: the page sends the mirror with the run).
    const requested: string[] = [];
    const folder = join(repoRoot, 'public', 'models', 'local', 'tiny-bert');
    const mirror = createServer((request, response) => {
      const path = decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname);
      requested.push(path);
      const match = /^\/Xenova\/all-MiniLM-L6-v2\/resolve\/[^/]+\/(.+)$/.exec(path);
      response.setHeader('Access-Control-Allow-Origin', '*');
      response.setHeader('Access-Control-Expose-Headers', 'Content-Length');
      const file = match === null ? undefined : join(folder, match[1]!);
      if (file === undefined || !existsSync(file)) return void response.writeHead(404).end();
      const body = readFileSync(file);
      response.writeHead(200, { 'Content-Length': body.length });
      response.end(request.method === 'HEAD' ? undefined : body);
    });
    const url = await new Promise<string>((resolve) => mirror.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(mirror.address() as AddressInfo).port}/`)));
    try {
      await page.goto(`${appUrl}/?view=learn&remoteHost=${encodeURIComponent(url)}`);
      await learn(page).waitFor({ timeout: 60_000 });
      await learn(page).getByRole('combobox', { name: /^Encoder/ }).selectOption('Xenova/all-MiniLM-L6-v2');
      await learn(page).getByLabel('frozen', { exact: true }).check();
      await fillSettings(page, { epochs: '1', lambda: '0.01', lr: '0.01', batch: '10', seed: '3' });
      await learn(page).getByLabel('Model name').fill('mirror-encoder');
      await learn(page).getByRole('button', { name: 'Train' }).click();
      await expect.poll(() => requested.some((path) => path.endsWith('/onnx/model.onnx') || path.endsWith('/onnx/model_quantized.onnx')), { timeout: 120_000 }).toBe(true);
      expect(requested.every((path) => path.startsWith('/Xenova/all-MiniLM-L6-v2/resolve/'))).toBe(true);
    } finally {
      await new Promise((resolve) => mirror.close(resolve));
    }
  });
});
