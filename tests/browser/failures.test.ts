/**
 * Failures of workers, models and devices in Debian's chromium, on the built app, and the Cancel of long
 * jobs. One profile, tests in order:
 * - a model that fails to load — tokenizer missing, weights unreachable (network error), weights missing
 *   (404), weights that are an HTML page — gives a message naming the model, the file and what to do, while
 *   the BM25 column keeps working; with the files back, the model loads (the damaged file was not cached);
 * - a BM25 worker that throws at top level: its column says which worker stopped, the other column and
 *   the page keep working, Retry starts a fresh worker;
 * - a worker that dies later (an uncaught error): a notice, and the next ranking prepares again;
 * - the WebGPU device lost under a dense column, at query time or while embedding the corpus: the model
 *   moves to WASM in a fresh worker and the column keeps ranking;
 * - Cancel: a download, a BM25 index build and a corpus embedding stop when cancelled, keep nothing, and
 *   run again from the start on Retry;
 * - the import worker dying in the middle of an import, or throwing at top level: the import fails with a
 *   message naming the worker (it used to wait forever), and the next import runs in a fresh worker.
 * Failures are made with playwright: routes that answer for the app's files, and code run inside a worker.
 */
import type { BrowserContext, Locator, Page, Route, Worker } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, expect, inject, test } from 'vitest';
import { skipWithout } from '../requirements.ts';
import { forgetSavedRankings, rows, settled } from './app-page.ts';
import { fetchRouted, launch, screenshot, type BrowserSession } from './harness.ts';
import { startHubServer, type HubServer } from './hub-server.ts';

let session: BrowserSession;
let hub: HubServer;
let appUrl: string;

const BM25_COL = 'bm25;k1=0.9;b=0.4;an=english';
const GLOVE_Q8_COL = 'dense;m=local/glove-100d-sif;dt=q8;s=exact';
const GLOVE_BASE = '/models/local/glove-100d-sif/';
/** A model with an ONNX session (the default GloVe is a lookup on the CPU, never on WebGPU). */
const TINY_WEBGPU_COL = 'dense;m=local/tiny-bert;dt=fp32;s=exact;dev=webgpu';

function exploreUrl(collection: string, columns: string[], extra = ''): string {
  return `${appUrl}/?view=explore&collection=${encodeURIComponent(collection)}${columns.map((c) => `&col=${c}`).join('')}${extra}`;
}

const column = (page: Page, n: number): Locator => page.locator('article.column').nth(n);

async function statusOf(page: Page, n: number, wanted: string, timeout = 120_000): Promise<void> {
  await expect.poll(() => column(page, n).getAttribute('data-status'), { timeout }).toBe(wanted);
}

/** Serves `pattern` from the app with `change` applied to the body (headers kept). */
const CRASHING_BM25 = '**/assets/bm25.worker-*.js';
const CRASHING_IMPORT = '**/assets/import.worker-*.js';

async function rewrite(context: BrowserContext, pattern: string, change: (body: string) => string): Promise<void> {
  await context.route(pattern, async (route: Route) => {
    const response = await fetchRouted(route);
    await route.fulfill({ response, body: change(await response.text()) });
  });
}

/**
 * The dense worker keeps the GPUDevices it creates, so the test can destroy them with
 * `self.__rpLoseDevices()` (a real device loss: `device.lost` resolves, every later GPU operation fails).
 */
async function keepGpuDevices(context: BrowserContext): Promise<void> {
  await rewrite(
    context,
    '**/assets/dense.worker-*.js',
    (body) =>
      `{ const request = GPUAdapter.prototype.requestDevice; self.__rpDevices = [];
         GPUAdapter.prototype.requestDevice = async function (...args) { const device = await request.apply(this, args); self.__rpDevices.push(device); return device; };
         self.__rpLoseDevices = () => { for (const device of self.__rpDevices) device.destroy(); return self.__rpDevices.length; }; }\n` + body,
  );
}

async function loseGpuDevices(page: Page): Promise<number> {
  return workerOf(page, 'dense').evaluate(() => (self as unknown as { __rpLoseDevices(): number }).__rpLoseDevices());
}

async function hasWebGpu(page: Page): Promise<boolean> {
  return page.evaluate(async () => (await (navigator as unknown as { gpu?: { requestAdapter(): Promise<unknown> } }).gpu?.requestAdapter()) != null);
}

function workerOf(page: Page, name: string): Worker {
  const worker = page.workers().find((w) => w.url().includes(`/${name}.worker`));
  if (!worker) throw new Error(`no ${name} worker among ${page.workers().map((w) => w.url()).join(', ')}`);
  return worker;
}

/** sessionStorage key: the start of a job's Cancel label that the page clicks as soon as it appears. */
const AUTO_CANCEL = 'rp-test-auto-cancel';

beforeAll(async () => {
  appUrl = inject('appUrl');
  hub = await startHubServer();
  session = await launch();
  await session.context.addInitScript((key) => {
    new MutationObserver(() => {
      const wanted = sessionStorage.getItem(key);
      if (!wanted) return;
      for (const button of document.querySelectorAll<HTMLButtonElement>('.tray button.cancel')) {
        if (button.getAttribute('aria-label')?.startsWith(wanted) && !button.dataset['clicked']) {
          button.dataset['clicked'] = 'yes';
          button.click();
        }
      }
    }).observe(document, { subtree: true, childList: true });
  }, AUTO_CANCEL);
});

// These tests are about columns preparing (and failing to): no saved ranking may answer first. A page that
// is left still saves its last rankings, so no test opens the query its previous test ended on.
beforeEach(async () => {
  await forgetSavedRankings(session.page, appUrl);
});

afterAll(async () => {
  await session?.close();
  await hub?.close();
});

test('a model that fails to load says which model, which file and what to do; BM25 keeps working', async () => {
  const { page, context } = session;
  // First visit (the starter is imported) with a BM25 column only: no model file may be cached yet.
  await page.goto(exploreUrl('starter', [BM25_COL]));
  await statusOf(page, 0, 'ready');
  const cases: Array<{ name: string; file: string; answer: (route: Route) => Promise<void>; expected: string[] }> = [
    {
      name: 'vocabulary-missing',
      file: 'vocab.txt',
      answer: (route) => route.fulfill({ status: 404, body: 'Not found' }),
      expected: [`vocab.txt was not found at ${GLOVE_BASE}vocab.txt`, 'npm run models'],
    },
    {
      name: 'table-offline',
      file: 'table.q8.bin',
      answer: (route) => route.abort('internetdisconnected'),
      expected: [`${GLOVE_BASE}table.q8.bin failed (Failed to fetch)`, 'Check the network connection'],
    },
    {
      name: 'table-404',
      file: 'table.q8.bin',
      answer: (route) => route.fulfill({ status: 404, body: 'Not found' }),
      expected: [`table.q8.bin was not found at ${GLOVE_BASE}table.q8.bin`, 'npm run models'],
    },
    {
      name: 'table-not-a-table',
      file: 'table.q8.bin',
      answer: (route) => route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>Retrieval Playground</title><div id="app"></div>' }),
      expected: [`${GLOVE_BASE}table.q8.bin: 70 bytes, expected`, 'run npm run models again'],
    },
    {
      name: 'config-not-json',
      file: 'config.json',
      answer: (route) => route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>Retrieval Playground</title><div id="app"></div>' }),
      expected: ['is not JSON', 'The server may have answered with an HTML page'],
    },
  ];
  for (const failure of cases) {
    const pattern = `**${GLOVE_BASE}${failure.file}`;
    await context.route(pattern, failure.answer);
    // A typed query: the starter's own queries rank from the vectors shipped with the model, without it.
    await page.goto(exploreUrl('starter', [BM25_COL, GLOVE_Q8_COL], '&q=stale+bread'));
    await statusOf(page, 1, 'error');
    await statusOf(page, 0, 'ready');
    expect(await column(page, 0).locator('button.hit').count()).toBeGreaterThan(0);
    const message = (await column(page, 1).locator('.status .error').textContent()) ?? '';
    console.log(`[failures] ${failure.name}: ${message}`);
    expect(message).toContain('Could not load the model local/glove-100d-sif');
    for (const part of failure.expected) expect(message).toContain(part);
    await expect(column(page, 1).getByRole('button', { name: 'Retry' }).isVisible()).resolves.toBe(true);
    await screenshot(page, `failures-model-${failure.name}`);
    await context.unroute(pattern);
  }
  // With the files back, Retry loads the model: no damaged answer was kept.
  await column(page, 1).getByRole('button', { name: 'Retry' }).click();
  await statusOf(page, 1, 'ready');
  expect(await column(page, 1).locator('button.hit').count()).toBeGreaterThan(0);
  session.errors.length = 0;
});

test('a BM25 worker that throws at top level: the column names it, the rest works, Retry starts a fresh one', async () => {
  const { page, context } = session;
  // Every BM25 worker started crashes until the route goes: the page warms the worker before the column
  // opens it, and the warming one may already have died and been replaced.
  await rewrite(context, CRASHING_BM25, () => `throw new Error('simulated crash at start');\n`);
  await page.goto(exploreUrl('starter', [BM25_COL, GLOVE_Q8_COL]));
  await statusOf(page, 0, 'error', 60_000);
  const message = (await column(page, 0).locator('.status .error').textContent()) ?? '';
  console.log(`[failures] bm25 top-level throw: ${message}`);
  expect(message).toBe('The BM25 worker (english analyzer) stopped: Uncaught Error: simulated crash at start. It is restarted on next use.');
  await statusOf(page, 1, 'ready');
  await screenshot(page, 'failures-bm25-crash');
  await context.unroute(CRASHING_BM25);
  // Retry: a fresh worker (the route answered once), which opens the index.
  await column(page, 0).getByRole('button', { name: 'Retry' }).click();
  await statusOf(page, 0, 'ready');
  expect(await column(page, 0).locator('button.hit').count()).toBeGreaterThan(0);
  // The page answers: another view and back, and typed text ranks in both columns.
  await page.getByRole('button', { name: 'Datasets' }).click();
  await page.getByRole('heading', { name: 'In this browser' }).waitFor();
  await page.getByRole('button', { name: 'Explore' }).click();
  await page.getByRole('button', { name: 'New query' }).click();
  await page.getByLabel('Query text').fill('stale bread');
  for (const n of [0, 1]) await expect.poll(() => column(page, n).getAttribute('data-ranked'), { timeout: 30_000 }).toBe('stale bread');
  session.errors.length = 0;
});

test('a BM25 worker that throws at top level, then a new query: the restart is lazy, no Retry needed', async () => {
  const { page, context } = session;
  await rewrite(context, CRASHING_BM25, () => `throw new Error('simulated crash at start');\n`);
  // Not the previous test's last query: the page it leaves saves that query's rankings as it goes.
  await page.goto(exploreUrl('starter', [BM25_COL], '&q=stale+rye+bread'));
  await statusOf(page, 0, 'error', 60_000);
  await context.unroute(CRASHING_BM25);
  await page.getByLabel('Query text').fill('sourdough starter');
  await statusOf(page, 0, 'ready');
  expect(await column(page, 0).getAttribute('data-ranked')).toBe('sourdough starter');
  session.errors.length = 0;
});

test('a worker that dies later (an uncaught error): a notice, and the next ranking prepares again', async () => {
  const { page } = session;
  await page.goto(exploreUrl('starter', [BM25_COL, GLOVE_Q8_COL]));
  await statusOf(page, 0, 'ready');
  const before = await column(page, 0).locator('.docid').allTextContents();
  await workerOf(page, 'bm25').evaluate(() => {
    setTimeout(() => {
      throw new Error('simulated late crash');
    });
  });
  const notice = page.locator('.notices .notice').filter({ hasText: 'simulated late crash' });
  await notice.waitFor({ timeout: 30_000 });
  expect(await notice.textContent()).toContain('The BM25 worker (english analyzer) stopped: Uncaught Error: simulated late crash. It is restarted on next use.');
  await screenshot(page, 'failures-bm25-late-crash');
  // Next query and back: BM25 opens its stored index in a fresh worker and ranks as before.
  await page.locator('body').click({ position: { x: 5, y: 300 } });
  await page.keyboard.press('j');
  await statusOf(page, 0, 'ready');
  await page.keyboard.press('k');
  await expect.poll(() => column(page, 0).locator('.docid').allTextContents(), { timeout: 60_000 }).toEqual(before);
  session.errors.length = 0;
});

test('WebGPU device lost under a dense column: the model moves to WASM in a fresh worker and keeps ranking', async (context) => {
  const { page } = session;
  if (skipWithout('webgpu', await hasWebGpu(page), 'no WebGPU adapter in this chromium')) context.skip();
  await keepGpuDevices(session.context);
  // The starter's vectors first, on WASM (sets are kept per model and dtype, whatever the device): on
  // SwiftShader's WebGPU its 107 documents took half a minute, and this test is about the query side.
  // Losing the device while embedding a corpus is the test after Cancel.
  await page.goto(exploreUrl('starter', [TINY_WEBGPU_COL.replace('dev=webgpu', 'dev=wasm')]));
  await statusOf(page, 0, 'ready');
  await page.goto(exploreUrl('starter', [BM25_COL, TINY_WEBGPU_COL]));
  await statusOf(page, 1, 'ready');
  expect(await column(page, 1).locator('.sub').textContent()).toContain('fp32 · webgpu');
  const before = await column(page, 1).locator('.docid').allTextContents();
  expect(await loseGpuDevices(page)).toBeGreaterThan(0);
  await page.getByRole('button', { name: 'New query' }).click();
  await page.getByLabel('Query text').fill('why does bread go stale');
  await expect.poll(() => column(page, 1).getAttribute('data-ranked'), { timeout: 120_000 }).toBe('why does bread go stale');
  expect(await column(page, 1).getAttribute('data-status')).toBe('ready');
  expect(await column(page, 1).locator('button.hit').count()).toBeGreaterThan(0);
  const notice = page.locator('.notices .notice').filter({ hasText: 'runs on WASM now' });
  await notice.waitFor({ timeout: 10_000 });
  console.log(`[failures] device lost: ${await notice.textContent()}`);
  expect(await notice.textContent()).toContain('tiny-bert runs on WASM now: WebGPU failed (the WebGPU device was lost (Device was destroyed.)).');
  await screenshot(page, 'failures-device-lost');
  await session.context.unroute('**/assets/dense.worker-*.js');
  expect(before.length).toBeGreaterThan(0);
  session.errors.length = 0;
});

test('Cancel: a download, a BM25 index build and a corpus embedding stop, keep nothing, and start over on Retry', async () => {
  const { page } = session;
  // Download: cancelled, nothing stored. The starter's columns settle first: their jobs (model, embedding)
  // would otherwise push the cancelled download out of the tray before its status is read.
  await page.goto(`${appUrl}/?hub=${encodeURIComponent(hub.url)}`);
  await settled(page);
  await page.getByRole('button', { name: 'Datasets' }).click();
  // The local hub holds the files half way: SciFact otherwise arrives before a click can cancel it.
  hub.pause();
  await page.locator('tr[data-entry="beir/scifact"] button').click();
  const cancelDownload = page.getByRole('button', { name: /^Cancel .*SciFact/ });
  await cancelDownload.click({ timeout: 10_000 });
  await expect.poll(() => page.locator('.tray .job').filter({ hasText: 'SciFact' }).first().getAttribute('data-status'), { timeout: 10_000 }).toBe('cancelled');
  hub.resume();
  expect(await page.locator('tr[data-collection="beir/scifact"]').count()).toBe(0);
  await screenshot(page, 'failures-cancel-download');
  // The whole download, for the next steps.
  await page.locator('tr[data-entry="beir/scifact"] button').click();
  await page.locator('tr[data-collection="beir/scifact"]').waitFor({ timeout: 180_000 });

  // BM25 index build: SciFact's takes ~0.3 s here, less than playwright needs to find and click a
  // button, so the page clicks the job's Cancel itself the moment the tray shows it (AUTO_CANCEL).
  await page.evaluate(([key, title]) => sessionStorage.setItem(key!, title!), [AUTO_CANCEL, 'Cancel Building BM25 index (english) · SciFact']);
  await page.goto(exploreUrl('beir/scifact', [BM25_COL]));
  await statusOf(page, 0, 'error');
  await page.evaluate(() => sessionStorage.clear());
  expect(await page.locator('.tray .job').filter({ hasText: 'Building BM25 index (english) · SciFact' }).first().getAttribute('data-status')).toBe('cancelled');
  expect(await column(page, 0).locator('.status .error').textContent()).toBe('Cancelled.');
  await screenshot(page, 'failures-cancel-bm25');
  // Retry builds again (nothing was stored: a stored index would load without a build job).
  await column(page, 0).getByRole('button', { name: 'Retry' }).click();
  await statusOf(page, 0, 'ready');
  const rebuilt = page.locator('.tray .job[data-status="done"]').filter({ hasText: 'Building BM25 index (english) · SciFact' });
  await expect.poll(() => rebuilt.locator('.detail').textContent()).toMatch(/5,183 docs, [\d,]+ terms in \d+ ms/);

  // Embedding SciFact with the tiny BERT (a transformer on WASM: long enough to cancel half way).
  await page.goto(exploreUrl('beir/scifact', ['dense;m=local/tiny-bert;dt=fp32;s=exact;dev=wasm']));
  const embedding = page.locator('.tray .job').filter({ hasText: 'Embedding SciFact with tiny-bert' });
  await expect.poll(async () => Number(((await embedding.locator('.detail').textContent()) ?? '').replace(/,/g, '').match(/^\s*(\d+)/)?.[1] ?? 0), { timeout: 120_000 }).toBeGreaterThan(0);
  // The page stays responsive while the worker embeds.
  await page.getByRole('button', { name: 'Datasets' }).click();
  await page.getByRole('button', { name: 'Explore' }).click();
  await embedding.getByRole('button', { name: /^Cancel / }).click();
  await statusOf(page, 0, 'error');
  expect(await column(page, 0).locator('.status .error').textContent()).toBe('Cancelled.');
  await expect.poll(() => embedding.first().getAttribute('data-status')).toBe('cancelled');
  await screenshot(page, 'failures-cancel-embedding');
  // Retry embeds from the start (no vectors were cached), and is cancelled again.
  await column(page, 0).getByRole('button', { name: 'Retry' }).click();
  const again = page.locator('.tray .job[data-status="running"]').filter({ hasText: 'Embedding SciFact with tiny-bert' });
  await again.waitFor({ timeout: 60_000 });
  await again.getByRole('button', { name: /^Cancel / }).click();
  await statusOf(page, 0, 'error');
  session.errors.length = 0;
});

test('WebGPU device lost while embedding a corpus: the embedding starts over on WASM in a fresh worker', async (context) => {
  const { page } = session;
  if (skipWithout('webgpu', await hasWebGpu(page), 'no WebGPU adapter in this chromium')) context.skip();
  await keepGpuDevices(session.context);
  // SciFact (downloaded by the test above) with the tiny BERT on SwiftShader's WebGPU takes long enough to lose the device half way.
  await page.goto(exploreUrl('beir/scifact', [TINY_WEBGPU_COL]));
  const embedding = page.locator('.tray .job[data-status="running"]').filter({ hasText: 'Embedding SciFact with tiny-bert' });
  await expect.poll(async () => Number(((await embedding.locator('.detail').textContent().catch(() => '')) ?? '').replace(/,/g, '').match(/^\s*(\d+)/)?.[1] ?? 0), { timeout: 120_000 }).toBeGreaterThan(0);
  expect(await loseGpuDevices(page)).toBeGreaterThan(0);
  await statusOf(page, 0, 'ready', 240_000);
  expect(await column(page, 0).locator('button.hit').count()).toBeGreaterThan(0);
  expect(await column(page, 0).locator('.sub').textContent()).toContain('webgpu → wasm');
  const notice = page.locator('.notices .notice').filter({ hasText: 'runs on WASM' });
  await notice.waitFor({ timeout: 10_000 });
  console.log(`[failures] device lost while embedding: ${await notice.textContent()}`);
  expect(await notice.textContent()).toContain('tiny-bert runs on WASM: WebGPU failed (the WebGPU device was lost (Device was destroyed.)).');
  await screenshot(page, 'failures-device-lost-embedding');
  await session.context.unroute('**/assets/dense.worker-*.js');
  session.errors.length = 0;
});

test('an import worker that dies mid-import fails the import with a message; the next import runs in a fresh worker', async () => {
  const { page, context } = session;
  const nano = 'tr[data-entry="nanobeir/scifact"] button';
  const failure = page.getByTestId('import-error');
  await page.goto(`${appUrl}/?hub=${encodeURIComponent(hub.url)}`);
  await settled(page);
  await page.getByRole('button', { name: 'Datasets' }).click();
  // Held half way through its corpus file (332 kB of parquet), the import waits in the worker; the worker dies.
  hub.pause();
  await page.locator(nano).click();
  await expect.poll(() => hub.requests.some((request) => request.startsWith('GET') && request.includes('NanoSciFact') && request.includes('/corpus/')), { timeout: 30_000 }).toBe(true);
  // From here on a new import worker throws at top level. Routed before the crash, not after it: the worker
  // the page starts after the crash must load this script whenever the page starts it.
  await rewrite(context, CRASHING_IMPORT, () => `throw new Error('simulated crash at start');\n`);
  await workerOf(page, 'import').evaluate(() => {
    setTimeout(() => {
      throw new Error('simulated import crash');
    });
  });
  await failure.waitFor({ timeout: 30_000 });
  const message = (await failure.textContent()) ?? '';
  console.log(`[failures] import worker crash: ${message}`);
  expect(message).toContain('The import worker stopped: Uncaught Error: simulated import crash. It is restarted on next use.');
  expect(await page.locator('.tray .job').filter({ hasText: 'NanoBEIR SciFact' }).first().getAttribute('data-status')).toBe('failed');
  await screenshot(page, 'failures-import-crash');
  hub.resume();
  expect(await page.locator('tr[data-collection="nanobeir/scifact"]').count()).toBe(0);

  // A worker that throws at top level fails the next import the same way (so that one was a fresh worker).
  await page.locator(nano).click();
  await expect.poll(async () => (await failure.textContent()) ?? '', { timeout: 30_000 }).toContain('The import worker stopped: Uncaught Error: simulated crash at start.');
  await context.unroute(CRASHING_IMPORT);

  // With the worker's script back, the import runs in a fresh worker (after rolling back the crashed one's rows).
  await page.locator(nano).click();
  const imported = page.locator('tr[data-collection="nanobeir/scifact"]');
  await imported.waitFor({ timeout: 60_000 });
  expect(await imported.locator('td').nth(2).textContent()).toBe('20');
  // What the crashed import had stored was rolled back before this one.
  expect((await rows<{ status: string }>(page, 'collections')).filter((row) => row.status === 'importing')).toEqual([]);
  // The failures are still cards on screen after the later import finished (which went to the "n done"
  // entry); each goes when it is dismissed.
  const failedCards = page.locator('.tray .active .job[data-status="failed"]').filter({ hasText: 'NanoBEIR SciFact' });
  expect(await failedCards.count()).toBe(2);
  expect(await failedCards.evaluateAll((cards) => cards.every((card) => card.getClientRects().length > 0))).toBe(true);
  await failedCards.first().getByRole('button', { name: /^Dismiss / }).click();
  await expect.poll(() => failedCards.count()).toBe(1);
  session.errors.length = 0;
});
