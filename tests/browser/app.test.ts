import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { recordedJobs, recordJobs, settled } from './app-page.ts';
import { launch, screenshot, type BrowserSession } from './harness.ts';

const column = (page: Page, n: number): Locator => page.locator('article.column').nth(n);

let session: BrowserSession;

beforeAll(async () => {
  session = await launch();
});

afterAll(async () => {
  await session.close();
});

test('the built app loads in chromium without errors', async () => {
  const { page, errors } = session;
  await page.goto(inject('appUrl'));
  await expect.poll(() => page.locator('h1').textContent()).toBe('Retrieval Playground');
  await screenshot(page, 'app-loads');
  expect(errors).toEqual([]);
});

test('first visit: every default column ranks the starter before the model table has arrived; a typed query waits for it and ranks with the same vectors', async () => {
  const fresh = await launch();
  try {
    const { page, context, errors } = fresh;
    await recordJobs(page);
    // The default model's 20 MB table is held until released: the first screen must not need it.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let tableAsked = false;
    await context.route('**/models/local/glove-100d-sif/table.q8.bin', async (route) => {
      tableAsked = true;
      await held;
      await route.continue();
    });
    await page.goto(inject('appUrl'));
    await settled(page, 3);
    const query = await page.getByLabel('Query text').inputValue();
    const denseHits = await column(page, 1).locator('.docid').allTextContents();
    const denseScores = await column(page, 1).locator('.score').allTextContents();
    expect(denseHits.length).toBeGreaterThan(0);
    expect((await recordedJobs(page)).filter((title) => title.startsWith('Embedding'))).toEqual([]);
    // Ranked from stored vectors, the page does not load the table (it did 0.3 s after ranking until
    // 2026-11-27)...
    await page.waitForTimeout(1000);
    expect(tableAsked).toBe(false);
    // ...until the query box takes the focus: then it loads, with a job in the tray.
    await page.getByRole('button', { name: 'New query' }).click();
    await expect.poll(() => tableAsked, { timeout: 30_000 }).toBe(true);
    await expect.poll(() => recordedJobs(page), { timeout: 30_000 }).toContain('Loading model glove-100d-sif (q8)');

    // A typed text (the same query with a trailing space: not a stored query text) needs the model.
    await page.getByLabel('Query text').fill(`${query} `);
    await page.waitForTimeout(1500);
    expect(await column(page, 1).getAttribute('data-ranked')).not.toBe(`${query} `);
    release();
    await expect.poll(() => column(page, 1).getAttribute('data-ranked'), { timeout: 60_000 }).toBe(`${query} `);
    await settled(page, 3);
    // The model's vector of the text equals the shipped one: same hits, same scores.
    expect(await column(page, 1).locator('.docid').allTextContents()).toEqual(denseHits);
    expect(await column(page, 1).locator('.score').allTextContents()).toEqual(denseScores);
    await screenshot(page, 'app-first-visit-typed');

    // A reload ranks from the stored sets: the table held again, the shipped file not asked for again.
    const asked: string[] = [];
    page.context().on('request', (request) => asked.push(request.url()));
    let releaseAgain = () => {};
    const heldAgain = new Promise<void>((resolve) => (releaseAgain = resolve));
    await context.unroute('**/models/local/glove-100d-sif/table.q8.bin');
    await context.route('**/models/local/glove-100d-sif/table.q8.bin', async (route) => {
      await heldAgain;
      await route.continue();
    });
    await page.goto(inject('appUrl'));
    await settled(page, 3);
    expect(await column(page, 1).locator('.docid').allTextContents()).toEqual(denseHits);
    expect(asked.filter((url) => url.endsWith('/starter.vectors.bin'))).toEqual([]);
    releaseAgain();
    expect(errors).toEqual([]);
  } finally {
    await fresh.close();
  }
});

test('Evaluate and Datasets load when first opened; a view whose code cannot be fetched says so, and Explore keeps working', async () => {
  const { page, context, errors } = session;
  const asked: string[] = [];
  const onRequest = (request: { url(): string }) => asked.push(request.url());
  context.on('request', onRequest);
  await page.goto(inject('appUrl'));
  await settled(page, 3);
  // The first screen (Explore) did not fetch the other views' code.
  expect(asked.filter((url) => /\/assets\/(EvaluateView|DatasetsView)-/.test(url))).toEqual([]);
  const views = page.getByRole('navigation', { name: 'Views' });
  await views.getByRole('button', { name: 'Datasets' }).click();
  await page.getByRole('heading', { name: 'In this browser' }).waitFor();
  expect(asked.some((url) => /\/assets\/DatasetsView-/.test(url))).toBe(true);
  context.off('request', onRequest);

  // The Evaluate view's code does not arrive (a deploy replaced it, the network dropped).
  await context.route('**/assets/EvaluateView-*.js', (route) => route.abort('failed'));
  await views.getByRole('button', { name: 'Evaluate' }).click();
  const failed = page.getByRole('alert').filter({ hasText: 'The Evaluate view could not be loaded' });
  await failed.waitFor();
  expect(await failed.innerText()).toMatch(/Reload the page to try again: collections, indexes and results stay stored/);
  await screenshot(page, 'app-view-not-loaded');
  await views.getByRole('button', { name: 'Explore' }).click();
  await settled(page, 3);
  await context.unroute('**/assets/EvaluateView-*.js');
  // Chromium reports the aborted request on the console; nothing else went wrong.
  expect(errors.filter((error) => !error.includes('net::ERR_FAILED'))).toEqual([]);
  errors.length = 0;
});

test('an indeterminate progress bar shows its track for a second before its fill slides (ProgressBar.svelte)', async () => {
  const fresh = await launch();
  try {
    const { page, context, errors } = fresh;
    // Every progress bar's fill: when it appeared and when it started sliding (ms on the page's clock).
    await page.addInitScript(() => {
      const seen = new Map<Element, { added: number; sliding?: number }>();
      (window as unknown as { rpBars: typeof seen }).rpBars = seen;
      const note = () => {
        for (const fill of document.querySelectorAll('[role=progressbar] > .fill')) {
          const entry = seen.get(fill) ?? { added: performance.now() };
          if (entry.sliding === undefined && fill.classList.contains('indeterminate')) entry.sliding = performance.now();
          seen.set(fill, entry);
        }
      };
      new MutationObserver(note).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['class'] });
    });
    // The BM25 kernel is held for 2.5 s: the BM25 column waits for its worker with an indeterminate bar.
    await context.route('**/assets/bm25-*.wasm', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 2500));
      await route.continue();
    });
    await page.goto(inject('appUrl'));
    await settled(page, 3);
    const bars = await page.evaluate(() => [...(window as unknown as { rpBars: Map<Element, { added: number; sliding?: number }> }).rpBars.values()]);
    const slid = bars.filter((bar) => bar.sliding !== undefined);
    expect(slid.length).toBeGreaterThan(0);
    // INDETERMINATE_DELAY_MS (ProgressBar.svelte) is 1,000; the observer notes a bar a little after its timer starts.
    for (const bar of slid) expect(bar.sliding! - bar.added).toBeGreaterThanOrEqual(900);
    expect(errors).toEqual([]);
  } finally {
    await fresh.close();
  }
});
