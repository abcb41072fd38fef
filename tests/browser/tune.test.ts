/**
 * The Tune panel of the Evaluate dashboard in Debian's chromium, on the built app with SciFact from the
 * local hub stand-in: BM25's k1 tuned on train in the workers gives the CLI's `tune` values; the evaluated
 * split (test) is refused with the reason; Cancel stops a tune; "Add the tuned column" adds a column whose
 * dashboard header names the split that tuned it. Expected values: `npm run cli -- tune` on the same files,
 * in this process.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { cliStdout } from '../cli/run-cli.ts';
import { shared } from '../shared-dir.ts';
import { downloadFromCatalog } from './app-page.ts';
import { launch, screenshot, type BrowserSession } from './harness.ts';
import { startHubServer, type HubServer } from './hub-server.ts';

interface TuneJson {
  best: { params: Record<string, number>; value: number };
  points: Array<{ params: Record<string, number>; value: number }>;
}

let session: BrowserSession;
let hub: HubServer;
let appUrl: string;
let expected: TuneJson;

const views = (page: Page) => page.getByRole('navigation', { name: 'Views' });
const panel = (page: Page) => page.getByTestId('tune-panel');

async function setAxis(page: Page, name: string, from: string, to: string, step: string): Promise<void> {
  await panel(page).getByLabel(`${name} from`).fill(from);
  await panel(page).getByLabel(`${name} to`).fill(to);
  await panel(page).getByLabel(`${name} step`).fill(step);
}

beforeAll(async () => {
  appUrl = inject('appUrl');
  expected = JSON.parse(await cliStdout(['tune', '--dataset', shared('beir', 'scifact'), '--split', 'train', '--retriever', 'bm25', '--grid', 'k1=0.8:1:0.1', '--json'])) as TuneJson;
  hub = await startHubServer();
  session = await launch();
}, 300_000);

afterAll(async () => {
  await session?.close();
  await hub?.close();
});

describe('Tune panel (SciFact, BM25 k1 on train)', () => {
  test('SciFact downloads, and the Evaluate view offers Tune on train', async () => {
    const { page } = session;
    await page.goto(`${appUrl}/?hub=${encodeURIComponent(hub.url)}&view=datasets`);
    await page.getByRole('heading', { name: 'In this browser' }).waitFor({ timeout: 60_000 });
    await downloadFromCatalog(page, 'beir/scifact');
    await views(page).getByRole('button', { name: 'Evaluate' }).click();
    await panel(page).waitFor({ timeout: 60_000 });
    expect(await panel(page).getByLabel('Tuning split').inputValue()).toBe('train');
    expect(session.errors).toEqual([]);
  });

  test('refuses the evaluated split, with the reason', async () => {
    const { page } = session;
    await panel(page).getByLabel('Tuning split').selectOption('test');
    await expect.poll(() => panel(page).getByTestId('tune-refusal').textContent()).toMatch(/refusing to tune on "test": it is the split being evaluated/);
    expect(await panel(page).getByRole('button', { name: 'Run tune' }).isDisabled()).toBe(true);
    await panel(page).getByLabel('Tuning split').selectOption('train');
    await expect.poll(() => panel(page).getByTestId('tune-refusal').count()).toBe(0);
  });

  test('Cancel stops a tune', async () => {
    const { page } = session;
    await panel(page).getByLabel('Column to tune').selectOption({ index: 0 });
    await panel(page).getByLabel('Tune b').check();
    await panel(page).getByRole('button', { name: 'Run tune' }).click();
    await panel(page).getByRole('button', { name: 'Cancel tune' }).click({ timeout: 60_000 });
    await expect.poll(() => panel(page).textContent(), { timeout: 60_000 }).toMatch(/Tune cancelled after \d+ points/);
    await panel(page).getByLabel('Tune b').uncheck();
  });

  test('tunes k1 on train in the workers: every value and the best are the CLI’s', async () => {
    const { page, errors } = session;
    await setAxis(page, 'k1', '0.8', '1', '0.1');
    await panel(page).getByRole('button', { name: 'Run tune' }).click();
    await panel(page).getByTestId('tune-result').waitFor({ timeout: 240_000 });
    const titles = await panel(page).locator('[data-testid="tune-line"] circle title').allTextContents();
    expect(titles).toEqual(expected.points.map((p) => `k1 ${p.params.k1}: ${p.value.toFixed(4)}`));
    expect(await panel(page).getByTestId('tune-best').textContent()).toBe(`Best on train: k1 ${expected.best.params.k1} — nDCG@10 ${expected.best.value.toFixed(4)}`);
    expect(await panel(page).getByTestId('tune-flat').textContent()).toMatch(/^Within 0\.005 of the best: \d points?/);
    expect(errors).toEqual([]);
  });

  test('draws two parameters as a heat map, the best cell ringed', async () => {
    const { page, errors } = session;
    await setAxis(page, 'k1', '0.8', '1.2', '0.2');
    await panel(page).getByLabel('Tune b').check();
    await setAxis(page, 'b', '0.3', '0.7', '0.2');
    await panel(page).getByRole('button', { name: 'Run tune' }).click();
    await panel(page).getByTestId('tune-heatmap').waitFor({ timeout: 240_000 });
    await panel(page).getByTestId('tune-result').waitFor({ timeout: 240_000 });
    const cells = panel(page).locator('[data-testid="tune-heatmap"] td');
    expect(await cells.count()).toBe(9);
    expect(await panel(page).locator('[data-testid="tune-heatmap"] td.best').count()).toBe(1);
    await panel(page).scrollIntoViewIfNeeded();
    console.log(`[tune] screenshot: ${await screenshot(page, 'tune-heatmap')}`);
    await panel(page).getByLabel('Tune b').uncheck();
    await setAxis(page, 'k1', '0.8', '1', '0.1');
    await panel(page).getByRole('button', { name: 'Run tune' }).click();
    await panel(page).getByTestId('tune-line').waitFor({ timeout: 240_000 });
    await panel(page).getByTestId('tune-result').waitFor({ timeout: 240_000 });
    expect(errors).toEqual([]);
  });

  test('adds the tuned column, its header naming the split that tuned it', async () => {
    const { page } = session;
    await panel(page).getByRole('button', { name: 'Add the tuned column' }).click();
    const names = page.locator('[data-testid="metrics-table"] tr[data-column] .name');
    await expect.poll(() => names.count()).toBe(4);
    expect(await names.nth(3).textContent()).toBe(`4 · BM25 (k1 ${expected.best.params.k1}, b 0.4) · tuned on train (nDCG@10)`);
    await panel(page).scrollIntoViewIfNeeded();
    console.log(`[tune] screenshot: ${await screenshot(page, 'tune-panel')}`);
    // The address carries it: a reload (or a link) shows the same header.
    await expect.poll(() => page.url(), { timeout: 30_000 }).toContain('tuned=train,nDCG@10');
    await page.reload();
    await expect.poll(() => names.nth(3).textContent(), { timeout: 60_000 }).toBe(`4 · BM25 (k1 ${expected.best.params.k1}, b 0.4) · tuned on train (nDCG@10)`);
  });
});
