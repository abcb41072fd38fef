/** Waits and probes on the playground page that several browser tests share. */
import type { Page } from 'playwright-core';
import { launch, waitInPage, type BrowserSession } from './harness.ts';

declare global {
  interface Window {
    /** Titles of every job that appeared in the tray since the page loaded (recorded by `recordJobs`). */
    __rpJobs: string[];
  }
}

/** Records the title of every job that ever shows in the jobs tray, even one that comes and goes quickly. */
export async function recordJobs(page: Page): Promise<void> {
  await page.addInitScript(() => {
    window.__rpJobs = [];
    new MutationObserver(() => {
      for (const title of document.querySelectorAll('.tray .title')) {
        const text = title.textContent ?? '';
        if (!window.__rpJobs.includes(text)) window.__rpJobs.push(text);
      }
    }).observe(document, { subtree: true, childList: true, characterData: true });
  });
}

/** The job titles recorded so far. */
export function recordedJobs(page: Page): Promise<string[]> {
  return page.evaluate(() => window.__rpJobs);
}

/**
 * Waits until there are `columns` Explore columns and each is ready (ranked, or idle without a query),
 * checked every `interval` ms (bench:app times with it: 10).
 */
export async function columnsReady(page: Page, columns: number, { timeout = 240_000, interval = 100 } = {}): Promise<void> {
  await waitInPage(
    page,
    (n) => {
      const cards = [...document.querySelectorAll<HTMLElement>('article.column')];
      return cards.length === n && cards.every((card) => card.dataset['status'] === 'ready');
    },
    columns,
    { timeout, interval },
  );
}

/** The longest a catalog click may take to start its download before it is made again. */
const CLICK_STARTS_MS = 15_000;

/**
 * Downloads a catalog entry from the Datasets view (open) and waits until it is stored. A click that started
 * nothing (no job, no "Downloading…") within CLICK_STARTS_MS is made again, and said on the console; a collection not
 * stored in time fails with what the page showed (its jobs and notices), so the failure says why.
 */
export async function downloadFromCatalog(page: Page, entryId: string, { timeout = 120_000 } = {}): Promise<void> {
  const button = page.locator(`tr[data-entry="${entryId}"] button`);
  const stored = page.locator(`tr[data-collection="${entryId}"]`);
  await button.click();
  const started = () => page.evaluate((id) => document.querySelector(`tr[data-collection="${id}"]`) !== null || document.querySelector(`tr[data-entry="${id}"] button`)?.textContent?.startsWith('Downloading') === true || [...document.querySelectorAll('.tray .job .title')].some((title) => title.textContent?.startsWith('Download')), entryId);
  const deadline = Date.now() + CLICK_STARTS_MS;
  while (!(await started()) && Date.now() < deadline) await page.waitForTimeout(100);
  if (!(await started())) {
    console.log(`[download] the click on ${entryId} started nothing in ${CLICK_STARTS_MS} ms: clicking again`);
    await button.click();
  }
  try {
    await stored.waitFor({ timeout });
  } catch (error) {
    const shown = await page.evaluate(() => ({
      jobs: [...document.querySelectorAll<HTMLElement>('.tray .job')].map((job) => `${job.dataset['status']}: ${job.textContent?.trim()}`),
      notices: [...document.querySelectorAll('[role="alert"], [role="status"]')].map((notice) => notice.textContent?.trim()).filter(Boolean),
    }));
    throw new Error(`${entryId} was not stored within ${timeout} ms; the page showed ${JSON.stringify(shown)}`, { cause: error });
  }
}

/** Waits until the Evaluate dashboard shows `count` rows of current results (evaluated, or read from storage). */
export async function metricsFresh(page: Page, count: number, { timeout = 120_000 } = {}): Promise<void> {
  await waitInPage(page, (n) => document.querySelectorAll('[data-testid="metrics-table"] tr[data-status="fresh"]').length === n, count, { timeout });
}

/**
 * Waits until every Explore column has ranked the query in the box (no build, debounce or ranking pending),
 * checked every `interval` ms (bench:app times with it: 10).
 */
export async function settled(page: Page, columns = 3, interval = 100): Promise<void> {
  await waitInPage(
    page,
    (n) => {
      const text = (document.querySelector('input[aria-label="Query text"]') as HTMLInputElement | null)?.value;
      const cards = [...document.querySelectorAll<HTMLElement>('article.column')];
      return cards.length === n && cards.every((card) => card.dataset['status'] === 'ready' && card.dataset['ranked'] === text);
    },
    columns,
    { timeout: 240_000, interval },
  );
}

/**
 * Deletes the rankings the app saved (src/app/engine/saved-rankings.ts), for tests of how columns prepare: a
 * screen seen before would otherwise show its saved rankings first. Nothing to do before the page is on the
 * app (no database yet).
 */
export async function forgetSavedRankings(page: Page, appUrl: string): Promise<void> {
  if (!page.url().startsWith(appUrl)) return;
  await page.evaluate(async () => {
    if (!(await indexedDB.databases()).some((info) => info.name === 'retrieval-playground')) return;
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open('retrieval-playground');
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    try {
      if (!db.objectStoreNames.contains('savedRankings')) return;
      const tx = db.transaction('savedRankings', 'readwrite');
      tx.objectStore('savedRankings').clear();
      await new Promise((resolve, reject) => {
        tx.oncomplete = resolve;
        tx.onerror = () => reject(tx.error);
      });
    } finally {
      db.close();
    }
  });
}

/** Rows of one table of the app's database, read with plain IndexedDB in the page (binary fields left out). */
export async function rows<T = Record<string, unknown>>(page: Page, table: string, database = 'retrieval-playground'): Promise<T[]> {
  return page.evaluate(
    async ([name, store]) => {
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const request = indexedDB.open(name!);
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
      try {
        if (!db.objectStoreNames.contains(store!)) return [];
        const all = await new Promise<unknown[]>((resolve, reject) => {
          const request = db.transaction(store!, 'readonly').objectStore(store!).getAll();
          request.onsuccess = () => resolve(request.result);
          request.onerror = () => reject(request.error);
        });
        return all.map((row) => Object.fromEntries(Object.entries(row as object).filter(([, value]) => !(value instanceof ArrayBuffer) && !ArrayBuffer.isView(value) && !(Array.isArray(value) && value.length > 50))));
      } finally {
        db.close();
      }
    },
    [database, table] as const,
  ) as Promise<T[]>;
}

/** How many rows of a table have `collectionId` = `id` (through the table's `collectionId` index). */
export async function countOf(page: Page, table: string, id: string): Promise<number> {
  return page.evaluate(
    async ([store, collectionId]) => {
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const request = indexedDB.open('retrieval-playground');
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
      try {
        return await new Promise<number>((resolve, reject) => {
          const request = db.transaction(store!, 'readonly').objectStore(store!).index('collectionId').count(collectionId!);
          request.onsuccess = () => resolve(request.result);
          request.onerror = () => reject(request.error);
        });
      } finally {
        db.close();
      }
    },
    [table, id] as const,
  );
}

/** A fresh browser on the app, once the first visit shows the starter collection. */
export async function launchOnStarter(appUrl: string): Promise<BrowserSession> {
  const session = await launch();
  await session.page.goto(appUrl);
  await waitInPage(session.page, () => (document.querySelector('#collection-picker') as HTMLSelectElement | null)?.value === 'starter', null, { timeout: 60_000 });
  return session;
}
