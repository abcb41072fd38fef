/**
 * The build on a plain static host under a sub-path, as GitHub Pages serves a project site
 * (https://user.github.io/retrieval-playground/): `vite build --base /retrieval-playground/` into a temp
 * folder, served by a static file server with no special headers (tests/browser/static-server.ts). The
 * starter collection must rank in every default column with nDCG shown, with no console error, no request
 * outside the sub-path, and without cross-origin isolation; a model with an ONNX session must run on
 * single-threaded WASM and say so.
 */
import { tempDir } from '../temp-dir.ts';
import { productionBuild } from './production-build.ts';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { repoRoot } from '../shared-dir.ts';
import { metricsFresh, settled } from './app-page.ts';
import { launch, screenshot, type BrowserSession } from './harness.ts';
import { serveStatic, type StaticServer } from './static-server.ts';

const BASE = '/retrieval-playground/';

let outDir: string;
let server: StaticServer;
let session: BrowserSession;
/** Every URL the page and its workers requested. */
const requested: string[] = [];

beforeAll(async () => {
  outDir = tempDir('rp-static-');
  await productionBuild({ root: repoRoot, base: BASE, logLevel: 'warn', build: { outDir, emptyOutDir: true } });
  server = await serveStatic(outDir, BASE);
  session = await launch();
  session.context.on('request', (request) => requested.push(request.url()));
});

afterAll(async () => {
  await session?.close();
  await server?.close();
});

/** Requests that left the sub-path of our origin (data: and blob: URLs stay in the page). */
function outside(urls: readonly string[]): string[] {
  return urls.filter((url) => !url.startsWith(server.url) && !url.startsWith('data:') && !url.startsWith('blob:'));
}

test('under /retrieval-playground/ with no COOP/COEP: the starter ranks in every default column, nothing leaves the sub-path', async () => {
  const { page, errors } = session;
  await page.goto(server.url);
  await settled(page);
  expect(await page.evaluate(() => crossOriginIsolated)).toBe(false);
  expect(await page.evaluate(() => typeof SharedArrayBuffer)).toBe('undefined');

  const columns = page.locator('article.column');
  expect(await columns.count()).toBe(3);
  const kinds = await columns.evaluateAll((cards) => cards.map((card) => card.querySelector('h2')?.textContent?.trim() ?? ''));
  expect(kinds.join(' | ')).toMatch(/BM25.*\|.*(dense|glove).*\|.*LEDR/i);
  for (let n = 0; n < 3; n++) {
    const ndcg = columns.nth(n).locator('.metric', { hasText: 'nDCG@10' }).locator('.value');
    expect(await ndcg.textContent()).toMatch(/^[01]\.\d{4}$/);
    expect(await columns.nth(n).locator('ol.hits > li').count()).toBeGreaterThan(0);
  }
  // The logo is a public/ file: it must come from the sub-path and load.
  expect(await page.locator('header img').evaluate((img: HTMLImageElement) => [img.getAttribute('src'), img.naturalWidth > 0])).toEqual([`${BASE}favicon.svg`, true]);
  await screenshot(page, 'static-host-first-screen');

  // The browser reports the workers' requests too (the table is fetched by the dense worker), so `outside` sees
  // them. The table loads once the query box takes the focus (text is about to be typed): wait for it.
  await page.getByLabel('Query text').focus();
  await expect.poll(() => requested, { timeout: 60_000 }).toContain(`${server.url}models/local/glove-100d-sif/table.q8.bin`);
  await expect.poll(() => server.requests.map((r) => r.path), { timeout: 60_000 }).toContain(`${BASE}models/local/glove-100d-sif/table.q8.bin`);
  expect(outside(requested)).toEqual([]);
  expect(server.requests.filter((r) => r.status !== 200)).toEqual([]);
  // The app's files were served from the sub-path: the BM25 kernel, the static model's table, the workers.
  const paths = server.requests.map((r) => r.path);
  expect(paths.some((p) => p.startsWith(`${BASE}assets/bm25-`) && p.endsWith('.wasm'))).toBe(true);
  expect(paths).toContain(`${BASE}models/local/glove-100d-sif/table.q8.bin`);
  expect(paths.some((p) => /\/assets\/dense\.worker-.*\.js$/.test(p))).toBe(true);
  expect(errors).toEqual([]);
});

test('an ONNX model runs on single-threaded WASM under the sub-path, and its column says so', async () => {
  const { page, errors } = session;
  const warnings: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'warning' && /thread|crossOriginIsolated|SharedArrayBuffer/i.test(message.text())) warnings.push(message.text());
  });
  const before = requested.length;
  await page.goto(`${server.url}?view=explore&collection=starter&col=dense;m=local/tiny-bert;dt=fp32;s=exact;dev=wasm`);
  await settled(page, 1);
  const column = page.locator('article.column').first();
  expect(await column.locator('.sub').textContent()).toContain('wasm (1 thread)');
  expect(await column.locator('.metric', { hasText: 'nDCG@10' }).locator('.value').textContent()).toMatch(/^[01]\.\d{4}$/);
  await screenshot(page, 'static-host-onnx-wasm');
  const paths = server.requests.map((r) => r.path);
  // onnxruntime's WASM-only build (loader and gzip-compressed wasm; workers/onnx-runtime.ts), and the model, from the sub-path.
  const plainBuild = (p: string) => p.startsWith(`${BASE}assets/ort-wasm-simd-threaded`) && !p.includes('asyncify');
  expect(paths.some((p) => plainBuild(p) && p.endsWith('.gz'))).toBe(true);
  expect(paths.some((p) => plainBuild(p) && p.endsWith('.mjs'))).toBe(true);
  expect(paths.filter((p) => p.includes('asyncify'))).toEqual([]);
  expect(paths).toContain(`${BASE}models/local/tiny-bert/onnx/model.onnx`);
  expect(outside(requested.slice(before))).toEqual([]);
  expect(server.requests.filter((r) => r.status !== 200)).toEqual([]);
  expect(warnings).toEqual([]);
  expect(errors).toEqual([]);
});

test('Evaluate, Datasets and the diagnostics page work under the sub-path too', async () => {
  const { page, errors } = session;
  const before = requested.length;
  await page.goto(`${server.url}?view=explore&collection=starter`);
  await settled(page);
  const views = page.getByRole('navigation', { name: 'Views' });
  await views.getByRole('button', { name: 'Evaluate' }).click();
  await page.getByRole('button', { name: 'Run evaluation (3 columns)' }).click();
  await metricsFresh(page, 3);
  for (let position = 1; position <= 3; position++) {
    const figures = await page.locator(`[data-testid="metrics-table"] tr[data-column="${position}"] td.value .figure`).allTextContents();
    expect(figures[0]).toMatch(/^[01]\.\d{4}$/);
  }
  await screenshot(page, 'static-host-evaluate');
  await views.getByRole('button', { name: 'Datasets' }).click();
  await page.locator('tr[data-collection="starter"]').waitFor();
  // The diagnostics page (a second entry of the build) probes the devices: not isolated, so WASM has 1 thread.
  await page.goto(`${server.url}diagnostics.html`);
  await expect.poll(() => page.locator('#probe').textContent(), { timeout: 60_000 }).toMatch(/cross-origin isolated \(WASM threads\)\s*no/);
  await screenshot(page, 'static-host-diagnostics');
  expect(outside(requested.slice(before))).toEqual([]);
  expect(server.requests.filter((r) => r.status !== 200)).toEqual([]);
  expect(errors).toEqual([]);
});
