/**
 * How the page looks and reads, in Debian's chromium on the built app and the starter collection: the dark
 * theme (the system's, or the header's switch, remembered), the colours charts, highlights and grades use
 * in both themes, axe-core on every view in both themes (0 serious or critical violations), the jobs tray
 * keeping finished jobs out of the way, and a tablet (768 px) and a phone (390 px) without horizontal
 * overflow. One profile, tests in order; screenshots land in test-artifacts/.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import { metricsFresh, rows, settled } from './app-page.ts';
import { launch, screenshot, waitInPage, type BrowserSession } from './harness.ts';

let session: BrowserSession;
let appUrl: string;
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

beforeAll(async () => {
  appUrl = inject('appUrl');
  session = await launch();
});

afterAll(async () => {
  await session?.close();
});

type Theme = 'light' | 'dark';

/** Picks a theme with the header's switch. */
async function pickTheme(page: Page, theme: Theme | 'system'): Promise<void> {
  await page.getByRole('combobox', { name: 'Theme' }).selectOption(theme);
}

/** The theme variables as the page resolves them (rgb), read through a probe element. */
async function themeColors(page: Page, names: string[]): Promise<Record<string, [number, number, number]>> {
  return page.evaluate((list) => {
    const probe = document.createElement('span');
    document.body.append(probe);
    const out: Record<string, [number, number, number]> = {};
    for (const name of list) {
      probe.style.color = `var(${name})`;
      const [r, g, b] = getComputedStyle(probe).color.match(/[\d.]+/g)!.map(Number);
      out[name] = [r!, g!, b!];
    }
    probe.remove();
    return out;
  }, names);
}

/** WCAG 2 relative luminance and contrast ratio. */
function luminance([r, g, b]: [number, number, number]): number {
  const channel = (c: number) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}
function contrast(a: [number, number, number], b: [number, number, number]): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** axe-core's serious and critical violations on the page as it is (rule: nodes), injected by the test. */
async function axeViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  // Colours read mid-transition (a column fading back in after ranking) are neither theme's.
  await waitInPage(page, () => document.getAnimations().every((a) => !(a instanceof CSSTransition) || a.playState !== 'running'), null, { timeout: 10_000 });
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(context: Document, options: object): Promise<{ violations: { id: string; impact?: string | null; nodes: { target: unknown[] }[] }[] }> } }).axe;
    // label-content-name-mismatch is experimental in axe-core, so off unless asked for.
    const result = await axe.run(document, { rules: { 'label-content-name-mismatch': { enabled: true } }, resultTypes: ['violations'] });
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.nodes.map((n) => JSON.stringify(n.target)).join(' ')}`);
  });
}

/**
 * The page is no wider than the window, and every header control lies inside it, uncut; on failure, `wide`
 * names the outermost elements reaching past the window.
 */
async function fitsWidth(page: Page): Promise<{ overflow: number; cut: string[]; wide?: string[] }> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const cut = [...document.querySelectorAll<HTMLElement>('header.top button, header.top select, header.top h1')]
      .filter((el) => {
        const box = el.getBoundingClientRect();
        return box.left < 0 || box.right > width + 0.5 || el.scrollWidth > el.clientWidth + 1;
      })
      .map((el) => el.textContent?.trim() || el.id);
    const overflow = document.documentElement.scrollWidth - width;
    if (overflow <= 0) return { overflow, cut };
    const past = (el: Element) => el.getBoundingClientRect().right > width + 0.5;
    // Inside a scrolling box, reaching past the window is that box's scrolling, not the page's overflow.
    const clipped = (el: Element) => {
      if (getComputedStyle(el).position === 'absolute' || getComputedStyle(el).position === 'fixed') return false;
      for (let up = el.parentElement; up !== null; up = up.parentElement) if (getComputedStyle(up).overflowX !== 'visible') return true;
      return false;
    };
    const wide = [...document.querySelectorAll('body *')]
      .filter((el) => past(el) && !clipped(el) && !past(el.parentElement!))
      .slice(0, 8)
      .map((el) => `${el.tagName.toLowerCase()}.${[...el.classList].join('.')}`);
    return { overflow, cut, wide };
  });
}

test('the dark theme follows the system, the header switch pins either theme and is remembered', async () => {
  const { page, errors } = session;
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto(appUrl);
  await settled(page);
  const background = async () => (await themeColors(page, ['--bg']))['--bg']!;
  const light = await background();
  expect(luminance(light)).toBeGreaterThan(0.5);

  // The system's dark preference, with the switch on System.
  expect(await page.getByRole('combobox', { name: 'Theme' }).inputValue()).toBe('system');
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect.poll(async () => luminance(await background())).toBeLessThan(0.1);
  // The switch overrides the system and survives a reload.
  await pickTheme(page, 'light');
  expect(await background()).toEqual(light);
  await pickTheme(page, 'dark');
  await page.emulateMedia({ colorScheme: 'light' });
  await page.reload();
  await settled(page);
  expect(await page.getByRole('combobox', { name: 'Theme' }).inputValue()).toBe('dark');
  expect(luminance(await background())).toBeLessThan(0.1);
  // The page body paints the theme, not only the variables.
  const bodyDark = await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
  expect(bodyDark).toBe(`rgb(${(await background()).join(', ')})`);
  await screenshot(page, 'look-explore-dark');
  expect(errors).toEqual([]);
});

test('text, highlights, grades and plot colours keep their contrast in both themes', async () => {
  const { page } = session;
  for (const theme of ['light', 'dark'] as const) {
    await pickTheme(page, theme);
    const c = await themeColors(page, [
      '--bg', '--surface', '--surface-2', '--text', '--muted', '--accent', '--accent-bg', '--good', '--good-bg', '--bad', '--bad-bg', '--warn', '--warn-bg', '--mark', '--on-strong',
      '--series-1', '--series-2', '--series-3', '--series-4', '--series-5',
    ]);
    const at = (a: string, b: string) => contrast(c[a]!, c[b]!);
    // Text (WCAG AA 4.5:1): body and muted text on every surface, highlighted text, grade badges and tags.
    for (const surface of ['--bg', '--surface', '--surface-2']) {
      for (const text of ['--text', '--muted', '--accent', '--good', '--bad', '--warn']) expect(at(text, surface), `${theme}: ${text} on ${surface}`).toBeGreaterThanOrEqual(4.5);
    }
    for (const [text, back] of [['--text', '--mark'], ['--good', '--good-bg'], ['--bad', '--bad-bg'], ['--warn', '--warn-bg'], ['--accent', '--accent-bg'], ['--on-strong', '--good'], ['--on-strong', '--accent']]) {
      expect(at(text!, back!), `${theme}: ${text} on ${back}`).toBeGreaterThanOrEqual(4.5);
    }
    // Graphics (WCAG 1.4.11, 3:1): the difference plot's bars and the analyses' lines on the panel.
    for (const mark of ['--good', '--bad', '--series-1', '--series-2', '--series-3', '--series-4', '--series-5']) {
      expect(at(mark, '--surface'), `${theme}: ${mark} on --surface`).toBeGreaterThanOrEqual(3);
    }
  }
});

/** Runs axe-core on the view on screen in both themes. */
async function axeBothThemes(page: Page, view: string): Promise<void> {
  for (const theme of ['light', 'dark'] as const) {
    await pickTheme(page, theme);
    expect(await axeViolations(page), `${view}, ${theme} theme`).toEqual([]);
  }
}

test('axe-core: Explore, its hit detail and judging mode have no serious or critical violation in either theme', async () => {
  const { page, errors } = session;
  await axeBothThemes(page, 'Explore');
  // A hit's detail, opened from the first column.
  await page.locator('article.column').first().locator('button.hit').first().click();
  await page.getByRole('dialog').waitFor();
  await axeBothThemes(page, 'Explore hit detail');
  await page.keyboard.press('Escape');
  await page.getByRole('dialog').waitFor({ state: 'detached' });

  await page.getByRole('button', { name: /^Judge q/ }).first().click();
  await page.getByRole('button', { name: 'Close judging' }).waitFor();
  await screenshot(page, 'look-judging-dark');
  await axeBothThemes(page, 'Judging');
  await page.getByRole('button', { name: 'Close judging' }).click();
  expect(errors).toEqual([]);
});

test('axe-core: Evaluate after an evaluation, and Datasets, in both themes; finished jobs shrink to one corner entry', async () => {
  const { page, errors } = session;
  const views = page.getByRole('navigation', { name: 'Views' });
  await views.getByRole('button', { name: 'Evaluate' }).click();
  await page.getByRole('button', { name: /^Run evaluation/ }).click();
  await metricsFresh(page, 3);
  // The difference plot is drawn once the page is idle.
  await waitInPage(page, () => document.querySelector('section[aria-labelledby="eval-differences"] canvas') !== null, null, { timeout: 60_000 });

  // Finished jobs are one "n done" entry, not cards over the dashboard.
  const entry = page.locator('.tray .done-entry');
  await entry.waitFor();
  expect(await page.locator('.tray .job[data-status="done"]').count()).toBeGreaterThan(0);
  expect(await page.locator('.tray .job[data-status="done"]').evaluateAll((jobs) => jobs.filter((job) => job.getClientRects().length > 0).length)).toBe(0);
  expect(await entry.getAttribute('aria-expanded')).toBe('false');
  const done = await page.locator('.tray .job[data-status="done"]').count();
  expect((await entry.textContent())?.trim()).toBe(`${done} done`);
  await screenshot(page, 'look-evaluate-dark');
  await axeBothThemes(page, 'Evaluate');

  // The entry opens the list of finished jobs; Clear empties it and the entry goes.
  await entry.click();
  expect(await entry.getAttribute('aria-expanded')).toBe('true');
  await page.locator('#jobs-finished .job').first().waitFor();
  expect(await page.locator('#jobs-finished .title').allTextContents()).toContainEqual(expect.stringMatching(/^Evaluating /));
  await screenshot(page, 'look-jobs-open');
  await axeBothThemes(page, 'Evaluate with the finished jobs open');
  await page.locator('#jobs-finished').getByRole('button', { name: 'Clear' }).click();
  await entry.waitFor({ state: 'detached' });

  await views.getByRole('button', { name: 'Datasets' }).click();
  await page.getByRole('heading', { name: 'In this browser' }).waitFor({ timeout: 60_000 });
  await page.locator('tr[data-collection="starter"]').waitFor();
  await axeBothThemes(page, 'Datasets');
  await views.getByRole('button', { name: 'Explore' }).click();
  await settled(page);
  expect(errors).toEqual([]);
});

for (const [device, width, height] of [['tablet', 768, 1024], ['phone', 390, 844]] as const) {
  test(`a ${device} (${width} px): no page wider than the screen, the header whole, columns one snap at a time, the detail inside the screen`, async () => {
    const { page, errors } = session;
    await page.setViewportSize({ width, height });
    const views = page.getByRole('navigation', { name: 'Views' });
    for (const theme of ['light', 'dark'] as const) {
      await pickTheme(page, theme);
      await views.getByRole('button', { name: 'Explore' }).click();
      await settled(page);
      expect(await fitsWidth(page), `Explore, ${theme}`).toEqual({ overflow: 0, cut: [] });
      // The columns scroll sideways inside their strip, snapping to a column; a phone shows one per screen.
      const strip = await page.locator('.columns').evaluate((el) => {
        const first = el.firstElementChild!.getBoundingClientRect();
        return { scrolls: el.scrollWidth > el.clientWidth, snap: getComputedStyle(el).scrollSnapType, column: first.width, strip: el.clientWidth };
      });
      expect(strip.scrolls).toBe(true);
      expect(strip.snap).toBe('x mandatory');
      if (device === 'phone') expect(strip.column).toBeCloseTo(strip.strip, 0);
      await screenshot(page, `look-${device}-explore-${theme}`);
      expect(await axeViolations(page), `${device} Explore, ${theme}`).toEqual([]);
    }
    // A hit's detail fits the screen.
    await page.locator('article.column').first().locator('button.hit').first().click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    const box = (await dialog.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(width);
    expect((await fitsWidth(page)).overflow).toBe(0);
    await screenshot(page, `look-${device}-detail`);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });

    for (const view of ['Evaluate', 'Datasets'] as const) {
      await views.getByRole('button', { name: view }).click();
      await page.getByRole('heading', { level: 2 }).first().waitFor();
      await (view === 'Evaluate' ? page.locator('[data-testid="metrics-table"]') : page.locator('tr[data-collection="starter"]')).waitFor({ timeout: 60_000 });
      expect(await fitsWidth(page), `${device} ${view}`).toEqual({ overflow: 0, cut: [] });
      await screenshot(page, `look-${device}-${view.toLowerCase()}`);
    }
    await views.getByRole('button', { name: 'Explore' }).click();
    await page.setViewportSize({ width: 1440, height: 900 });
    expect(errors).toEqual([]);
  });
}

test('a typed query is answered as it is typed: every column draws each answer in order, never an older text after a newer one', async () => {
  const { page, errors } = session;
  await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Explore' }).click();
  await page.getByRole('button', { name: 'New query' }).click();
  // Every text each column draws, in order.
  await page.evaluate(() => {
    const drawn: Record<string, string[]> = {};
    (window as unknown as { __drawn: typeof drawn }).__drawn = drawn;
    new MutationObserver((records) => {
      for (const record of records) {
        const card = record.target as HTMLElement;
        const text = card.dataset['ranked'];
        const name = card.getAttribute('aria-label') ?? '';
        if (card.dataset['status'] !== 'ready' || text === undefined) continue;
        const list = (drawn[name] ??= []);
        if (list.at(-1) !== text) list.push(text);
      }
    }).observe(document.body, { subtree: true, attributes: true, attributeFilter: ['data-status', 'data-ranked'] });
  });
  const box = page.locator('input[aria-label="Query text"]');
  await box.fill('');
  const text = 'mustard seeds cold water';
  // A typist's pace between keys, so the columns have time to answer words before the last.
  await box.pressSequentially(text, { delay: 120 });
  await settled(page);
  const drawn = await page.evaluate(() => (window as unknown as { __drawn: Record<string, string[]> }).__drawn);
  expect(Object.keys(drawn)).toHaveLength(3);
  for (const [column, all] of Object.entries(drawn)) {
    // What was drawn of this text (the query shown before "New query" may come first).
    const texts = all.slice(all.findIndex((t) => t !== '' && text.startsWith(t)));
    expect(texts.at(-1), column).toBe(text);
    // Answers while typing: more than the last text was drawn, each a longer prefix of the text than the one before.
    expect(texts.length, column).toBeGreaterThan(1);
    for (let i = 1; i < texts.length; i++) {
      expect(text.startsWith(texts[i]!), column).toBe(true);
      expect(texts[i]!.length, column).toBeGreaterThan(texts[i - 1]!.length);
    }
  }
  expect(errors).toEqual([]);
});

test('the bare address opens the last screen as its saved address does: same address, saved rankings drawn before any worker ranks', async () => {
  const { page, errors } = session;
  const last = new URL(page.url());
  // The page saves the rankings on screen once it is idle after the last one (its key holds the query text).
  const text = await page.locator('input[aria-label="Query text"]').inputValue();
  await expect.poll(async () => (await rows<{ key: string }>(page, 'savedRankings')).filter((row) => row.key.includes(text)).length, { timeout: 30_000 }).toBe(3);
  await page.goto(appUrl);
  await settled(page);
  expect(new URL(page.url()).search).toBe(last.search);
  // Every column shows the rankings it showed, saved, as a restart on the full address does.
  expect(await page.locator('article.column .status').allTextContents()).toEqual(Array(3).fill(expect.stringContaining('saved ranking')));
  expect(errors).toEqual([]);
});
