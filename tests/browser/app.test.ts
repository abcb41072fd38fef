import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { recordedJobs, recordJobs, rows, settled } from './app-page.ts';
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
    // The first screen's address names its stored query; the reload below opens it again (the bare address
    // would open the last screen, the typed text).
    await expect.poll(() => new URL(page.url()).searchParams.has('qid'), { timeout: 30_000 }).toBe(true);
    const firstScreen = page.url();
    const query = await page.getByLabel('Query text').inputValue();
    const denseHits = await column(page, 1).locator('.docid').allTextContents();
    const denseScores = await column(page, 1).locator('.score').allTextContents();
    expect(denseHits.length).toBeGreaterThan(0);
    expect((await recordedJobs(page)).filter((title) => title.startsWith('Embedding'))).toEqual([]);
    // Ranked from stored vectors, the page does not load the table (it did 0.3 s after ranking until
    // 2026-11-27)... The page writes its rankings once none has come for a second and it is idle
    // (saved-rankings.ts): written, they prove the page went quiet after ranking, table still not asked.
    await expect.poll(async () => (await rows(page, 'savedRankings')).length, { timeout: 60_000 }).toBeGreaterThanOrEqual(3);
    expect(tableAsked).toBe(false);
    // ...until the query box takes the focus: then it loads, with a job in the tray.
    await page.getByRole('button', { name: 'New query' }).click();
    await expect.poll(() => tableAsked, { timeout: 30_000 }).toBe(true);
    await expect.poll(() => recordedJobs(page), { timeout: 30_000 }).toContain('Loading model glove-100d-sif (q8)');

    // A typed text (the same query with a trailing space: not a stored query text) needs the model.
    // BM25 ranks it (typed text is ranked at once in every column): the dense column, asked at the same moment,
    // is still at it, waiting for the held table.
    await page.getByLabel('Query text').fill(`${query} `);
    await expect.poll(() => column(page, 0).getAttribute('data-ranked'), { timeout: 60_000 }).toBe(`${query} `);
    expect(await column(page, 1).getAttribute('data-ranked')).not.toBe(`${query} `);
    expect(['preparing', 'ranking']).toContain(await column(page, 1).getAttribute('data-status'));
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
    await page.goto(firstScreen);
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
    // The page's clock is a fake one, paused: its timers fire only as the test moves it on, and its time
    // stands still within a task, so a bar's timer starts at the very time the bar is noted.
    await page.clock.install({ time: new Date('2026-01-01T00:00:00Z') });
    await page.clock.pauseAt(new Date('2026-01-01T00:00:01Z'));
    // When each progress bar's fill appeared, on the page's (fake) clock.
    await page.addInitScript(() => {
      const seen = new WeakMap<Element, number>();
      (window as unknown as { rpBarSeen: typeof seen }).rpBarSeen = seen;
      new MutationObserver(() => {
        for (const fill of document.querySelectorAll('[role=progressbar] > .fill')) if (!seen.has(fill)) seen.set(fill, performance.now());
      }).observe(document, { subtree: true, childList: true });
    });
    // The BM25 kernel is held until the bar has been checked: the BM25 column waits for its worker with an
    // indeterminate bar.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await context.route('**/assets/bm25-*.wasm', async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(inject('appUrl'));
    // The page starts up on the fake clock, moved 10 ms at a time, until the BM25 column's bar is there, waiting.
    const bar = column(page, 0).locator('[role=progressbar] > .fill').first();
    for (let steps = 0; (await bar.count()) === 0 || !(await bar.evaluate((fill) => fill.classList.contains('waiting'))); steps++) {
      expect(steps, 'the BM25 column shows a waiting bar within 60 s of the page’s time').toBeLessThan(6000);
      await page.clock.runFor(10);
    }
    const sinceShown = () => bar.evaluate((fill) => performance.now() - (window as unknown as { rpBarSeen: WeakMap<Element, number> }).rpBarSeen.get(fill)!);
    const sliding = () => bar.evaluate((fill) => fill.classList.contains('indeterminate'));
    // INDETERMINATE_DELAY_MS (ProgressBar.svelte) is 1,000: at 999 ms the fill still waits, at 1,000 it slides.
    await page.clock.runFor(999 - (await sinceShown()));
    expect(await sinceShown()).toBe(999);
    expect(await sliding()).toBe(false);
    await page.clock.runFor(1);
    expect(await sliding()).toBe(true);
    await page.clock.resume();
    release();
    await settled(page, 3);
    expect(errors).toEqual([]);
  } finally {
    await fresh.close();
  }
});
