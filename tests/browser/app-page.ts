/** Waits and probes on the playground page that several browser tests share. */
import type { Page } from 'playwright-core';

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

/** Waits until every Explore column has ranked the query in the box (no build, debounce or ranking pending). */
export async function settled(page: Page, columns = 3): Promise<void> {
  await page.waitForFunction(
    (n) => {
      const text = (document.querySelector('input[aria-label="Query text"]') as HTMLInputElement | null)?.value;
      const cards = [...document.querySelectorAll<HTMLElement>('article.column')];
      return cards.length === n && cards.every((card) => card.dataset['status'] === 'ready' && card.dataset['ranked'] === text);
    },
    columns,
    { timeout: 240_000 },
  );
}
