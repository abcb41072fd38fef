/**
 * Running out of storage in a real browser: the origin's quota is capped through the DevTools protocol
 * (`Storage.overrideQuotaForOrigin`, Debian's chromium) so IndexedDB itself refuses the writes, with the
 * error Chromium raises — no stubbed error. Promised by src/lib/storage (collections.ts, embedding-sets.ts):
 * - an import that does not fit is rolled back (nothing of it stays, the other collections are untouched)
 *   and the person sees what did not fit and the browser's own error; with room again it imports;
 * - an embedding that does not fit stops at its last stored checkpoint, which stays; the person sees the
 *   browser's error; with room again the same set goes on from there (never from the start) to the end.
 * SciFact comes from the local stand-in for the hub (hub-server.ts); the embedding model is the tiny
 * local BERT (32 dimensions), so the corpus' vectors take 663 kB.
 */
import { readdirSync, readlinkSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../temp-dir.ts';
import type { CDPSession, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import { countOf, rows } from './app-page.ts';
import { launch, screenshot, type BrowserSession } from './harness.ts';
import { startHubServer, type HubServer } from './hub-server.ts';

const SCIFACT_DOCS = 5183;
const TINY = 'local/tiny-bert';

let session: BrowserSession;
let hub: HubServer;
let appUrl: string;
let cdp: CDPSession | undefined;

beforeAll(async () => {
  appUrl = inject('appUrl');
  hub = await startHubServer();
  session = await launch();
});

afterAll(async () => {
  await session?.close();
  await hub?.close();
});

async function usage(page: Page): Promise<number> {
  return page.evaluate(async () => (await navigator.storage.estimate()).usage ?? 0);
}

/**
 * The files of the app origin's IndexedDB that Chromium holds open (its LevelDB's LOCK, log and manifest),
 * read from /proc: Chromium keeps an origin's backing store open for a grace period (2 s in Chromium 156)
 * after its last connection closes, and only a store opened anew asks the quota manager for the quota.
 */
function openIndexedDbFiles(): string[] {
  const origin = new URL(appUrl);
  const folder = `/Default/IndexedDB/${origin.protocol.replace(':', '')}_${origin.hostname}_${origin.port}.indexeddb.`;
  const open: string[] = [];
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue; // the process ended meanwhile
    }
    for (const fd of fds) {
      try {
        const target = readlinkSync(`/proc/${pid}/fd/${fd}`);
        if (target.startsWith(session.profileDir + folder)) open.push(target);
      } catch {
        // the file was closed meanwhile
      }
    }
  }
  return open;
}

/**
 * Leaves the app for about:blank (closing its connections) and waits until Chromium has closed the
 * origin's backing store. The files are checked to be open first: a Chromium that lays out or names its
 * IndexedDB files otherwise fails here, rather than passing the wait without closing anything.
 */
async function leaveAndCloseStorage(page: Page): Promise<void> {
  expect(openIndexedDbFiles().length, "the app origin's IndexedDB files, open while the app is").toBeGreaterThan(0);
  await page.goto('about:blank');
  await expect.poll(openIndexedDbFiles, { timeout: 60_000, interval: 100 }).toEqual([]);
}

/**
 * Caps the app origin's quota at what it uses now plus `headroom` bytes, then opens `next`; returns the
 * cap. Chromium's IndexedDB takes the quota when it opens the origin's storage and keeps it while the store
 * is open, so the page leaves the origin and the cap is set once the store has closed; the page comes back
 * after. navigator.storage.estimate() keeps reporting the normal quota.
 */
async function capQuota(page: Page, headroom: number, next: string): Promise<number> {
  const quotaSize = (await usage(page)) + headroom;
  await leaveAndCloseStorage(page);
  cdp ??= await session.context.newCDPSession(page);
  await cdp.send('Storage.overrideQuotaForOrigin', { origin: new URL(appUrl).origin, quotaSize });
  await page.goto(next);
  return quotaSize;
}

/** Gives the origin its normal quota back (the call without a size removes the override), then opens `next`. */
async function liftQuota(page: Page, next: string): Promise<void> {
  await leaveAndCloseStorage(page);
  await cdp!.send('Storage.overrideQuotaForOrigin', { origin: new URL(appUrl).origin });
  await page.goto(next);
}

async function openDatasets(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Datasets' }).click();
  await page.getByRole('heading', { name: 'In this browser' }).waitFor();
}

const collectionRow = (page: Page, id: string) => page.locator(`tr[data-collection="${id}"]`);

interface SetRow {
  key: string;
  collectionId: string;
  done: number;
  createdAt: number;
}

const scifactSets = async (page: Page) => (await rows<SetRow>(page, 'embeddingSets')).filter((row) => row.collectionId === 'beir/scifact');

async function columnStatus(page: Page): Promise<string | undefined> {
  return (await page.locator('article.column').first().getAttribute('data-status')) ?? undefined;
}

test('an import that does not fit: rolled back, Chromium’s QuotaExceededError shown; with room again it imports', async () => {
  const { page } = session;
  const datasetsUrl = `${appUrl}/?hub=${encodeURIComponent(hub.url)}`;
  await page.goto(datasetsUrl);
  await openDatasets(page);
  await collectionRow(page, 'starter').waitFor({ timeout: 60_000 });
  const before = await rows(page, 'collections');
  // SciFact's documents take about 8 MB: 3 MB of room lets the import store some and then refuses it.
  const cap = await capQuota(page, 3 * 1024 * 1024, datasetsUrl);
  await openDatasets(page);
  await collectionRow(page, 'starter').waitFor({ timeout: 60_000 });
  await page.locator('tr[data-entry="beir/scifact"] button').click();
  const error = page.getByTestId('import-error');
  await error.waitFor({ timeout: 180_000 });
  const text = (await error.textContent()) ?? '';
  console.log(`[quota] cap ${cap} bytes; the import failed with: ${text}`);
  expect(text).toContain('Not enough storage for "SciFact"');
  expect(text).toMatch(/its documents \([1-9][\d,]* stored before it stopped\), so nothing of it was kept/);
  expect(text).toMatch(/The browser said: "QuotaExceededError[^"]*"/);
  await screenshot(page, 'storage-quota-import-refused');
  // Rolled back: no SciFact row, no document of it, the other collections as they were.
  await expect.poll(async () => (await rows(page, 'collections')).filter((r) => r['status'] === 'importing').length, { timeout: 30_000 }).toBe(0);
  expect(await countOf(page, 'documentChunks', 'beir/scifact')).toBe(0);
  expect(await collectionRow(page, 'beir/scifact').count()).toBe(0);
  expect((await rows(page, 'collections')).map((r) => r['id'])).toEqual(before.map((r) => r['id']));

  await liftQuota(page, datasetsUrl);
  await openDatasets(page);
  await page.locator('tr[data-entry="beir/scifact"] button').click();
  const scifact = collectionRow(page, 'beir/scifact');
  await scifact.waitFor({ timeout: 180_000 });
  expect(await scifact.locator('td').nth(1).textContent()).toBe('5,183');
  session.errors.length = 0;
});

test('an embedding that does not fit keeps its checkpoints, shows Chromium’s error, and goes on from there with room again', async () => {
  const { page } = session;
  // The BM25 index first (Explore builds and stores it for any column), so only the vectors meet the cap.
  await page.goto(`${appUrl}/?view=explore&collection=beir/scifact&col=bm25`);
  await expect.poll(() => columnStatus(page), { timeout: 240_000 }).toBe('ready');
  // A new index is stored just after its first answer: the cap is set once it is.
  await expect.poll(async () => (await rows(page, 'indexes')).some((r) => r['collectionId'] === 'beir/scifact' && r['kind'] === 'bm25'), { timeout: 120_000 }).toBe(true);
  // Room for about half of the 663 kB of vectors (checkpoints of 512 documents, 64 kB each).
  const denseUrl = `${appUrl}/?view=explore&collection=beir/scifact&col=dense;m=${TINY};dt=fp32;s=exact;dev=wasm`;
  const cap = await capQuota(page, 320 * 1024, denseUrl);
  await expect.poll(() => columnStatus(page), { timeout: 240_000 }).toBe('error');
  const message = (await page.locator('article.column .error').first().textContent()) ?? '';
  console.log(`[quota] cap ${cap} bytes; the embedding stopped with: ${message}`);
  expect(message).toMatch(/Not enough storage for the embeddings of .*SciFact.*: the browser refused to store more after [\d,]+ of 5,183 documents/);
  expect(message).toMatch(/The browser said: "QuotaExceededError[^"]*"/);
  await screenshot(page, 'storage-quota-embedding-refused');
  const [stopped] = await scifactSets(page);
  expect(stopped).toBeDefined();
  expect(stopped!.done).toBeGreaterThan(0);
  expect(stopped!.done).toBeLessThan(SCIFACT_DOCS);
  expect(message).toContain(`after ${stopped!.done.toLocaleString('en-US')} of 5,183`);

  // Room again: opening the column again goes on with the same set, its progress never going back.
  await liftQuota(page, denseUrl);
  const seen: number[] = [];
  await expect
    .poll(
      async () => {
        const [set] = await scifactSets(page);
        expect(set?.createdAt).toBe(stopped!.createdAt);
        seen.push(set!.done);
        return set!.done;
      },
      { timeout: 240_000, interval: 100 },
    )
    .toBe(SCIFACT_DOCS);
  expect(Math.min(...seen)).toBeGreaterThanOrEqual(stopped!.done);
  await expect.poll(() => columnStatus(page), { timeout: 120_000 }).toBe('ready');
  await screenshot(page, 'storage-quota-embedding-resumed');
  expect(session.errors.filter((e) => !/QuotaExceededError|Not enough storage/.test(e))).toEqual([]);
});

/**
 * A JSON lines corpus of `docs` documents of about 300 bytes each, written to a temporary folder: large
 * enough that a cap of a few MB refuses it part-way. Its words are pseudo-random, as Chromium compresses
 * the values it stores and a repetitive text would take almost no room.
 */
function writeCorpus(docs: number): { corpus: string; bytes: number } {
  let seed = 42;
  const word = () => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return seed.toString(36).slice(0, 6);
  };
  const lines: string[] = [];
  for (let i = 0; i < docs; i++) {
    const text = Array.from({ length: 40 }, word).join(' ');
    lines.push(JSON.stringify({ _id: `d${i}`, title: `Document ${i}`, text }));
  }
  const corpus = join(tempDir('rp-quota-'), 'corpus.jsonl');
  writeFileSync(corpus, lines.join('\n') + '\n');
  return { corpus, bytes: statSync(corpus).size };
}

test('a corpus larger than the room left: warned before the import (file, estimate, what fits), then refused cleanly naming the file', async () => {
  const { page } = session;
  // The page's estimate reports the small quota the cap below enforces: Chromium's override leaves it at the normal one.
  await page.addInitScript(() => {
    const headroom = localStorage.getItem('rp-test-quota-headroom');
    if (headroom === null) return;
    const real = navigator.storage.estimate.bind(navigator.storage);
    navigator.storage.estimate = async () => {
      const estimate = await real();
      return { ...estimate, quota: (estimate.usage ?? 0) + Number(headroom) };
    };
  });
  const datasetsUrl = `${appUrl}/?view=datasets`;
  await page.goto(datasetsUrl);
  await page.getByRole('heading', { name: 'In this browser' }).waitFor({ timeout: 60_000 });
  await collectionRow(page, 'starter').waitFor({ timeout: 60_000 });
  const before = (await rows(page, 'collections')).map((r) => r['id']);
  const headroom = 3 * 1024 * 1024;
  await page.evaluate((bytes) => localStorage.setItem('rp-test-quota-headroom', String(bytes)), headroom);
  const { corpus, bytes } = writeCorpus(40_000);
  await capQuota(page, headroom, datasetsUrl);
  await page.getByRole('heading', { name: 'In this browser' }).waitFor({ timeout: 60_000 });

  // Before: the preview warns, naming the file, the estimate and what would fit.
  await page.getByTestId('pick-files').setInputFiles([corpus]);
  const warning = page.getByTestId('too-large');
  await warning.waitFor({ timeout: 60_000 });
  const warned = (await warning.textContent()) ?? '';
  console.log(`[quota] ${(bytes / 1e6).toFixed(1)} MB corpus, warned: ${warned}`);
  expect(warned).toMatch(/^corpus\.jsonl \(\d+ MB\) will take about \d+ MB stored \(an estimate\), but this browser lets this site store only [0-3] MB more: a corpus of about [0-3] MB would fit\./);
  expect(warned).toContain('Delete collections you no longer need');
  // The Catalog says the same of the entries that would not fit (TREC-COVID: 74 MB compressed).
  await expect.poll(() => page.locator('tr[data-entry="beir/trec-covid"] [data-testid="over-quota"]').count(), { timeout: 30_000 }).toBe(1);
  expect(await page.locator('tr[data-entry="beir/quora"] [data-cell="stored-estimate"]').textContent()).toMatch(/≈ \d+ MB/);
  await screenshot(page, 'storage-quota-forecast');

  // Imported anyway: the browser refuses, and the message names the file and what would fit; nothing stays.
  await page.getByRole('region', { name: 'Recognised files' }).getByRole('button', { name: 'Import' }).click();
  const error = page.getByTestId('import-error');
  await error.waitFor({ timeout: 180_000 });
  const text = (await error.textContent()) ?? '';
  console.log(`[quota] the import failed with: ${text}`);
  expect(text).toMatch(/Not enough storage for "[^"]+": the browser refused to store its documents \([1-9][\d,]* stored before it stopped\), so nothing of it was kept/);
  expect(text).toMatch(/corpus\.jsonl \(\d+ MB\) did not fit; about \d(\.\d)? MB of uncompressed JSON lines would fit/);
  await expect.poll(async () => (await rows(page, 'collections')).filter((r) => r['status'] === 'importing').length, { timeout: 30_000 }).toBe(0);
  expect((await rows(page, 'collections')).map((r) => r['id'])).toEqual(before);
  expect((await rows<{ collectionId: string }>(page, 'documentChunks')).filter((chunk) => chunk.collectionId.startsWith('local/'))).toEqual([]);

  await page.evaluate(() => localStorage.removeItem('rp-test-quota-headroom'));
  await liftQuota(page, datasetsUrl);
  session.errors.length = 0;
});
