/**
 * Cross-origin isolation is opt-in (vite.config.ts): `vite preview` and `npm start` send no COOP/COEP unless
 * RP_CROSS_ORIGIN_ISOLATION=1, because an isolated page costs a second renderer process on every open. The
 * suite's own server (global-setup.ts) is the default one; this file also serves the same build with the
 * variable set, where the page must be isolated (SharedArrayBuffer for onnxruntime's threads) and the starter
 * collection must still rank in every default column with a clean console.
 */
import { preview, type PreviewServer } from 'vite';
import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import { repoRoot } from '../shared-dir.ts';
import { settled } from './app-page.ts';
import { launch, type BrowserSession } from './harness.ts';

const ENV = 'RP_CROSS_ORIGIN_ISOLATION';

let isolated: PreviewServer;
let session: BrowserSession;

/** `vite preview` of the suite's build, its config read with the variable set (and the variable put back). */
async function isolatedPreview(): Promise<PreviewServer> {
  const before = process.env[ENV];
  process.env[ENV] = '1';
  try {
    return await preview({ root: repoRoot, logLevel: 'warn', preview: { port: 0, host: '127.0.0.1', strictPort: false } });
  } finally {
    if (before === undefined) delete process.env[ENV];
    else process.env[ENV] = before;
  }
}

beforeAll(async () => {
  isolated = await isolatedPreview();
  session = await launch();
});

afterAll(async () => {
  await session?.close();
  await isolated?.close();
});

test('by default the app is served without COOP/COEP and is not cross-origin isolated', async () => {
  const { page, errors } = session;
  const response = await page.goto(inject('appUrl'));
  expect(response?.headers()['cross-origin-opener-policy']).toBeUndefined();
  expect(response?.headers()['cross-origin-embedder-policy']).toBeUndefined();
  await settled(page);
  expect(await page.evaluate(() => crossOriginIsolated)).toBe(false);
  expect(errors).toEqual([]);
});

test(`with ${ENV}=1 the page is cross-origin isolated and the starter ranks in every default column`, async () => {
  const url = isolated.resolvedUrls?.local[0];
  if (!url) throw new Error('vite preview did not report a local URL');
  const { page, errors } = session;
  const response = await page.goto(url);
  expect(response?.headers()['cross-origin-opener-policy']).toBe('same-origin');
  expect(response?.headers()['cross-origin-embedder-policy']).toBe('credentialless');
  await settled(page);
  expect(await page.evaluate(() => crossOriginIsolated)).toBe(true);
  expect(await page.evaluate(() => typeof SharedArrayBuffer)).toBe('function');
  const columns = page.locator('article.column');
  expect(await columns.count()).toBe(3);
  for (let n = 0; n < 3; n++) {
    expect(await columns.nth(n).locator('.metric', { hasText: 'nDCG@10' }).locator('.value').textContent()).toMatch(/^[01]\.\d{4}$/);
  }
  expect(errors).toEqual([]);
});
