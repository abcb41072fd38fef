/**
 * Dense retrieval in Debian's chromium, through the diagnostics page and the real workers:
 * - the same texts embedded on WASM and on WebGPU (SwiftShader adapter with --enable-unsafe-webgpu) equal
 *   Node's onnxruntime-node vectors within 1e-4 (reference: src/cli/dense.ts on the same model files);
 * - the default static model runs as a lookup on the CPU whatever device is asked for (no WebGPU attempt,
 *   no ONNX file), with the same vectors as the CLI's;
 * - the IndexedDB embedding cache hits after a page reload and misses when a setting changes;
 * - an HNSW index saved to IndexedDB loads back after a reload with the same neighbours, efSearch set again.
 * The diagnostics page's self-test (the same texts on both devices, in its own table) runs once in the
 * suite, in security-requests.test.ts's full session, where its requests are audited too.
 * Needs `npm run models` (public/models is copied into the build).
 */
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import type { Page } from 'playwright-core';
import { loadNodeEmbedder, resolveNodeModel } from '../../src/cli/dense.ts';
import { SELF_TEST_TEXTS } from '../../src/diagnostics/self-test-texts.ts';
import type { DeviceProbe, DiagnosticsApi } from '../../src/diagnostics/api.ts';
import { skipWithout } from '../requirements.ts';
import { launch, waitInPage, type BrowserSession } from './harness.ts';

declare global {
  interface Window {
    rpDiagnostics: DiagnosticsApi;
  }
}

/** Models with an ONNX session; the default GloVe model is a static table (below). */
const MODELS = ['local/tiny-bert'] as const;
const STATIC_MODEL = 'local/glove-100d-sif';
const TOLERANCE = 1e-4;

let session: BrowserSession;
let probe: DeviceProbe;
const nodeVectors = new Map<string, number[][]>();
/** Every URL the page and its workers requested. */
const requested: string[] = [];

async function openDiagnostics(page: Page): Promise<void> {
  await page.goto(`${inject('appUrl')}/diagnostics.html`);
  await waitInPage(page, () => typeof window.rpDiagnostics === 'object', undefined, { timeout: 30_000 });
}

function maxAbsDiff(a: number[][], b: number[][]): number {
  expect(a.length).toBe(b.length);
  let max = 0;
  a.forEach((row, r) => {
    expect(row.length).toBe(b[r]!.length);
    row.forEach((x, i) => (max = Math.max(max, Math.abs(x - b[r]![i]!))));
  });
  return max;
}

beforeAll(async () => {
  for (const model of [...MODELS, STATIC_MODEL]) {
    const embedder = await loadNodeEmbedder(resolveNodeModel(model), 'fp32');
    const m = await embedder.embed(SELF_TEST_TEXTS);
    nodeVectors.set(model, Array.from({ length: m.rows }, (_, r) => Array.from(m.data.subarray(r * m.dim, (r + 1) * m.dim))));
    await embedder.dispose();
  }
  session = await launch();
  session.context.on('request', (request) => requested.push(request.url()));
  await openDiagnostics(session.page);
  probe = await session.page.evaluate(() => window.rpDiagnostics.probe());
});

afterAll(async () => {
  await session?.close();
});

describe.each(MODELS)('%s in chromium equals onnxruntime-node within 1e-4', (model) => {
  test('on WASM', async () => {
    const texts = [...SELF_TEST_TEXTS];
    const result = await session.page.evaluate((req) => window.rpDiagnostics.embedTexts(req), {
      model,
      device: 'wasm' as const,
      dtype: 'fp32' as const,
      texts,
    });
    expect(result.device).toBe('wasm');
    expect(maxAbsDiff(result.vectors, nodeVectors.get(model)!)).toBeLessThanOrEqual(TOLERANCE);
  });

  test('on WebGPU', async (context) => {
    if (skipWithout('webgpu', probe.webgpu, `no WebGPU adapter in this chromium: ${probe.webgpuError ?? ''}`)) context.skip();
    const texts = [...SELF_TEST_TEXTS];
    const result = await session.page.evaluate((req) => window.rpDiagnostics.embedTexts(req), {
      model,
      device: 'webgpu' as const,
      dtype: 'fp32' as const,
      texts,
    });
    expect(result.fallbackReason).toBeUndefined();
    expect(result.device).toBe('webgpu');
    expect(maxAbsDiff(result.vectors, nodeVectors.get(model)!)).toBeLessThanOrEqual(TOLERANCE);
  });
});

test.each(['auto', 'wasm', 'webgpu'] as const)(`${STATIC_MODEL} asked for device %s runs as a lookup on the CPU, with the CLI's vectors`, async (device) => {
  const result = await session.page.evaluate((req) => window.rpDiagnostics.embedTexts(req), {
    model: STATIC_MODEL,
    device,
    dtype: 'fp32' as const,
    texts: [...SELF_TEST_TEXTS],
  });
  expect([result.device, result.dtype, result.fallbackReason]).toEqual(['cpu-lookup', 'q8', undefined]);
  // The same TypeScript on the same table: equal up to float rounding of the two engines.
  expect(maxAbsDiff(result.vectors, nodeVectors.get(STATIC_MODEL)!)).toBeLessThanOrEqual(1e-6);
});

test('the embedding cache hits after a reload and misses when a setting changes', async () => {
  const page = session.page;
  const request = {
    model: 'local/tiny-bert',
    device: 'wasm' as const,
    dtype: 'fp32' as const,
    dataset: 'test/cache-reload',
    ids: SELF_TEST_TEXTS.map((_, i) => `d${i}`),
    texts: [...SELF_TEST_TEXTS],
    encoding: 'f32' as const,
  };
  const first = await page.evaluate((req) => window.rpDiagnostics.embedDataset(req), request);
  expect(first.hit).toBe(false);
  // Its fresh worker is the page's second on WASM (after the test on WASM above): it got onnxruntime compiled
  // from the page (src/app/workers/compiled-onnx.ts), so the plain build was fetched and compiled once.
  expect(requested.filter((url) => /\/ort-wasm-simd-threaded\.wasm-[^/]*\.gz$/.test(url))).toHaveLength(1);
  await page.reload();
  await waitInPage(page, () => typeof window.rpDiagnostics === 'object', undefined, { timeout: 30_000 });
  const again = await page.evaluate((req) => window.rpDiagnostics.embedDataset(req), request);
  expect(again.hit).toBe(true);
  expect(again.key).toBe(first.key);
  expect(again.first).toEqual(first.first);
  const changed = await page.evaluate((req) => window.rpDiagnostics.embedDataset(req), { ...request, dtype: 'q8' as const });
  expect(changed.hit).toBe(false);
  expect(changed.key).not.toBe(first.key);
});

test('an HNSW index saved to IndexedDB loads back after a reload, with efSearch set again', async () => {
  const page = session.page;
  const request = { filename: 'roundtrip.hnsw', rows: 2000, dim: 32, queries: 50, k: 10, params: { M: 16, efConstruction: 200, efSearch: 80 } };
  const saved = await page.evaluate((req) => window.rpDiagnostics.hnswRoundTrip({ ...req, phase: 'save' }), request);
  expect(saved.efSearch).toBe(80);
  await page.reload();
  await waitInPage(page, () => typeof window.rpDiagnostics === 'object', undefined, { timeout: 30_000 });
  const loaded = await page.evaluate((req) => window.rpDiagnostics.hnswRoundTrip({ ...req, phase: 'load' }), request);
  expect(loaded.found).toBe(true);
  expect(loaded.size).toBe(2000);
  // hnswlib's readIndex resets ef to 10; the loader must set the requested value again.
  expect(loaded.efSearch).toBe(80);
  expect(loaded.neighbours).toEqual(saved.neighbours);
  expect(loaded.recall).toBeGreaterThan(0.9);
});

test('model files and onnxruntime-web wasm come from the app itself, never from a CDN', () => {
  const origin = new URL(inject('appUrl')).origin;
  const foreign = requested.filter((url) => !url.startsWith(origin) && !url.startsWith('blob:') && !url.startsWith('data:'));
  expect(foreign).toEqual([]);
  // onnxruntime's wasm builds, gzip-compressed (workers/onnx-runtime.ts): the uncompressed files are not in the build.
  expect(requested.some((url) => /ort-wasm-simd-threaded[\w.-]*\.gz$/.test(url))).toBe(true);
  expect(requested.filter((url) => /ort-wasm-simd-threaded[\w.-]*\.wasm$/.test(url))).toEqual([]);
  expect(requested.some((url) => url.includes('/models/local/glove-100d-sif/table.q8.bin'))).toBe(true);
  expect(requested.filter((url) => url.includes('/models/local/glove-100d-sif/onnx/'))).toEqual([]);
});
