/**
 * Every request the page and its workers make in a full session goes to the app's own origin or to the
 * configured dataset hub, and nothing violates the Content-Security-Policy. The session: open the app (the
 * starter collection is imported) → Explore with three columns (BM25, GloVe, LEDR: BM25 index, model and
 * embeddings in workers) → download SciFact from the local hub (hub-server.ts, `?hub=`) → Explore a SciFact
 * query and open a hit → an HNSW dense column over SciFact (hnswlib-wasm in the dense worker) → the
 * diagnostics page, its self-test (WASM and WebGPU; its verdicts are checked here, the suite's one run of
 * it) and an HNSW graph. Requests are recorded at
 * the context level (playwright's `request` event sees workers' requests too; the test checks that it saw
 * some), violations from the page's `securitypolicyviolation` events (read before each page is left) and
 * the console reports of the page and its workers, and the Content-Security-Policy header each worker
 * script came with (a worker is governed by that header, not by the page's policy): hnswlib's variant for
 * the dense worker that runs the HNSW column, the plain one for the others (security-watch.ts).
 *
 * Last, a hub host the policy does not allow: the download is blocked, the violation is seen (so a
 * violation would fail the audit above), and the error says which policy blocked what and how to allow it.
 */
import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import { contentSecurityPolicy, EXTRA_CONNECT_ENV, HNSWLIB_WORKERS, parseConnectSources } from '../../scripts/vite/content-security-policy.ts';
import { skipAllowed } from '../requirements.ts';
import { columnsReady, rows, settled } from './app-page.ts';
import { TEST_CONNECT_SRC } from './global-setup.ts';
import { launch, screenshot, type BrowserSession } from './harness.ts';
import { startHubServer, type HubServer } from './hub-server.ts';
import { watchSecurity, type SecurityWatch } from './security-watch.ts';

let session: BrowserSession;
let watch: SecurityWatch;
let hub: HubServer;
let appUrl: string;

/** The policies the build sends with worker scripts (the build's connect sources: global-setup.ts). */
const extraConnect = parseConnectSources(process.env[EXTRA_CONNECT_ENV] ?? TEST_CONNECT_SRC);
const workerPolicy = contentSecurityPolicy({ extraConnect });
const hnswlibPolicy = contentSecurityPolicy({ extraConnect, hnswlib: true });

function originOf(url: string): string {
  return new URL(url).origin;
}

beforeAll(async () => {
  appUrl = inject('appUrl');
  hub = await startHubServer();
  session = await launch();
  watch = await watchSecurity(session);
});

afterAll(async () => {
  await session?.close();
  await hub?.close();
});

test('a full session requests only the app and the configured hub, with no policy violation', async () => {
  const { page, errors } = session;
  // The app, the starter, Explore with three columns.
  await page.goto(appUrl);
  await settled(page);
  expect(await page.locator('article.column h2').allTextContents()).toEqual(['BM25 (k1 0.9, b 0.4)', 'Dense: glove-100d-sif', 'LEDR (K 1000)']);

  // SciFact from the local hub.
  await page.goto(`${appUrl}/?hub=${encodeURIComponent(hub.url)}`);
  await page.getByRole('button', { name: 'Datasets' }).click();
  await page.locator('tr[data-entry="beir/scifact"] button').click();
  await page.locator('tr[data-collection="beir/scifact"]').waitFor({ timeout: 180_000 });

  // A SciFact query in Explore, and a hit's detail.
  await page.getByRole('button', { name: 'Explore' }).click();
  await expect.poll(() => page.getByLabel('Collection', { exact: true }).inputValue()).toBe('beir/scifact');
  await settled(page);
  await page.locator('article.column').first().locator('button.hit').first().click();
  await page.getByRole('dialog').locator('table').first().waitFor();
  await screenshot(page, 'security-requests-scifact');
  await page.keyboard.press('Escape');
  expect(await watch.hits()).toEqual([]);

  // The app's HNSW column: the dense worker builds an hnswlib-wasm graph over SciFact's embeddings and
  // saves it (hnswlib's own IndexedDB file system), under the worker's own policy.
  await page.goto(`${appUrl}/?view=explore&collection=beir/scifact&col=dense;m=local/glove-100d-sif;dt=fp32;s=hnsw;dev=wasm`);
  await columnsReady(page, 1);
  expect(await page.locator('article.column h2').allTextContents()).toEqual([expect.stringMatching(/HNSW/)]);
  expect(await page.locator('article.column').first().locator('button.hit').count()).toBeGreaterThan(0);
  // The graph was built and stored (not an exact search under an HNSW label).
  expect((await rows(page, 'indexes')).some((r) => r['collectionId'] === 'beir/scifact' && r['kind'] === 'hnsw')).toBe(true);
  await screenshot(page, 'security-requests-hnsw-column');
  // The graph ran under the dense worker's own policy, hnswlib's variant ('unsafe-eval' for embind, data:
  // for its wasm) and nothing looser: without that header the worker would run unrestricted and the audit
  // could see no violation whatever it did.
  const denseWorkers = [...watch.workerPolicies].filter(([url]) => /\/assets\/dense\.worker-[\w-]+\.js/.test(url));
  expect(denseWorkers.length).toBeGreaterThan(0);
  for (const [url, policy] of denseWorkers) expect(policy, url).toBe(hnswlibPolicy);
  // The page's own violation events are read before it is left (a navigation drops them).
  expect(await watch.hits()).toEqual([]);
  expect(watch.violations).toEqual([]);

  // The diagnostics page, with its self-test on both devices and an HNSW graph (hnswlib-wasm, whose
  // workers have a policy of their own: scripts/vite/content-security-policy.ts).
  await page.goto(`${appUrl}/diagnostics.html`);
  await page.click('#run-selftest');
  await page.waitForSelector('#selftest[data-done="true"]', { timeout: 240_000 });
  // The self-test's own verdicts: each ONNX model equal on WASM and WebGPU, the static model a lookup.
  const webgpu = (await page.locator('#probe[data-webgpu]').getAttribute('data-webgpu')) === 'true';
  const tinyBert = webgpu || !skipAllowed('webgpu') ? 'ok' : expect.stringMatching(/^WebGPU unavailable/);
  expect(await page.locator('#selftest td:last-child').allTextContents()).toEqual([tinyBert, 'static table: a lookup on the CPU on every device']);
  await screenshot(page, 'diagnostics-self-test');
  const graph = await page.evaluate(() =>
    (window as unknown as { rpDiagnostics: { hnswRoundTrip(r: object): Promise<{ recall: number }> } }).rpDiagnostics.hnswRoundTrip({
      filename: 'audit.hnsw',
      rows: 500,
      dim: 16,
      queries: 10,
      k: 10,
      params: { M: 16, efConstruction: 100, efSearch: 50 },
      phase: 'save',
    }),
  );
  expect(graph.recall).toBeGreaterThan(0.9);
  await screenshot(page, 'security-requests-diagnostics');

  const allowed = new Set([originOf(appUrl), originOf(hub.url)]);
  const outside = watch.requests.filter((url) => !allowed.has(originOf(url)));
  console.log(
    `[security] ${watch.requests.length} requests, to ${[...new Set(watch.requests.map(originOf))].join(', ')}; ` +
      `hub: ${hub.requests.length} requests`,
  );
  expect(outside).toEqual([]);
  // The recorder saw the workers' requests: model files (dense worker: the default model's int8 table),
  // hub files (import worker), the BM25 kernel (BM25 worker) and onnxruntime's wasm (the self-test's tiny BERT).
  expect(watch.requests).toContain(`${appUrl}/models/local/glove-100d-sif/table.q8.bin`);
  expect(watch.requests).toContain(`${hub.url}/datasets/BeIR/scifact/resolve/main/corpus.jsonl.gz`);
  expect(watch.requests.some((url) => /\/assets\/bm25-[\w-]+\.wasm$/.test(url))).toBe(true);
  expect(watch.requests.some((url) => /\/assets\/ort-wasm-simd-threaded[\w.-]*\.gz$/.test(url))).toBe(true);
  expect(await watch.hits()).toEqual([]);
  expect(watch.violations).toEqual([]);
  // Every worker of the session (BM25, dense, import, the documents of the hits shown, the diagnostics'
  // embed and search workers) ran under the policy of its own script.
  const workers = [...watch.workerPolicies.keys()].map((url) => /\/assets\/(\w+)\.worker-/.exec(url)?.[1]);
  expect(new Set(workers)).toEqual(new Set(['bm25', 'dense', 'import', 'documents', 'embed', 'hnsw']));
  for (const [url, policy] of watch.workerPolicies) expect(policy, url).toBe(HNSWLIB_WORKERS.test(url) ? hnswlibPolicy : workerPolicy);
  expect(errors).toEqual([]);
});

test('a hub host outside the policy: blocked, reported as a violation, and explained in the error', async () => {
  const { page } = session;
  // Nothing listens there, and nothing is sent: the policy stops the request in the import worker.
  const blocked = 'http://127.0.0.2:9';
  await page.goto(`${appUrl}/?hub=${encodeURIComponent(blocked)}`);
  await page.getByRole('button', { name: 'Datasets' }).click();
  await page.locator('tr[data-entry="beir/nfcorpus"] button').click();
  const error = page.getByTestId('import-error');
  await error.waitFor({ timeout: 60_000 });
  const text = (await error.textContent()) ?? '';
  expect(text).toContain(`The app's Content-Security-Policy does not allow connecting to ${blocked} (connect-src allows 'self' https://huggingface.co https://*.hf.co`);
  expect(text).toContain(`RP_EXTRA_CONNECT_SRC="${blocked}"`);
  await screenshot(page, 'security-requests-blocked-hub');
  // The violation reached the watch: the audit above would have failed on one.
  expect(watch.violations.some((v) => v.includes(`blocked ${blocked}`))).toBe(true);
  expect(watch.requests.filter((url) => url.startsWith(blocked))).toEqual([]);
  session.errors.length = 0;
});
