import { env } from '@huggingface/transformers';
import { expect, test } from 'vitest';
import { configureModelSource } from '../../../src/lib/dense/model-source.ts';
import { registryModel } from '../../../src/lib/dense/registry.ts';

test('local models are read from localModelPath only; hub models from the hub layout only', () => {
  configureModelSource(registryModel('local/tiny-bert')!, { localModelPath: '/models' });
  expect(env.localModelPath).toBe('/models/');
  expect(env.allowLocalModels).toBe(true);
  expect(env.allowRemoteModels).toBe(false);
  configureModelSource(registryModel('Xenova/e5-small-v2')!, { localModelPath: '/models/', remoteHost: 'http://127.0.0.1:9/' });
  expect(env.allowLocalModels).toBe(false);
  expect(env.allowRemoteModels).toBe(true);
  expect(env.remoteHost).toBe('http://127.0.0.1:9/');
  expect(env.remotePathTemplate).toBe('{model}/resolve/{revision}/');
});

test('localModelPath must be a path, not an absolute URL', () => {
  expect(() => configureModelSource(registryModel('local/tiny-bert')!, { localModelPath: 'http://localhost:5173/models/' })).toThrow(/path, not a URL/);
});

test('a picked model folder is served from its files, without file system or network', async () => {
  const { readdirSync, readFileSync, statSync } = await import('node:fs');
  const { join, relative } = await import('node:path');
  const { ensureModels } = await import('./models-fixture.ts');
  const { MODELS_DIR, loadNodeEmbedder, resolveNodeModel } = await import('../../../src/cli/dense.ts');
  const { loadEmbedder } = await import('../../../src/lib/dense/embedder.ts');
  const { customModelSpec } = await import('../../../src/lib/dense/registry.ts');
  const { servePickedFolder } = await import('../../../src/lib/dense/model-source.ts');
  ensureModels('tiny-bert');
  const folder = join(MODELS_DIR, 'local', 'tiny-bert');
  const files = new Map<string, Blob>();
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else files.set(relative(folder, path), new Blob([readFileSync(path)]));
    }
  };
  walk(folder);
  const texts = ['zinc deficiency in mice', 'the cat sat'];
  const reference = await loadNodeEmbedder(resolveNodeModel('local/tiny-bert'), 'fp32');
  const expected = await reference.embed(texts);
  await reference.dispose();
  const saved = { fetch: env.fetch, useFS: env.useFS, cacheDir: env.cacheDir };
  // As in a browser: model files come through env.fetch, not the file system. (onnxruntime-node wants a
  // path, so transformers.js writes fetched files to its cache folder — a temp folder here.)
  const { mkdtempSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const cacheDir = mkdtempSync(join(tmpdir(), 'rp-picked-'));
  env.useFS = false;
  env.cacheDir = cacheDir;
  try {
    const spec = customModelSpec('my-picked-model-1', { source: 'local' });
    configureModelSource(spec, servePickedFolder(spec.id, files));
    env.fetch = ((next) => (input: string | URL, init?: unknown) => {
      if (!String(input).includes('/picked-models/')) throw new Error(`unexpected fetch ${String(input)}`);
      return next(input, init);
    })(env.fetch);
    const embedder = await loadEmbedder({ spec, device: 'cpu', dtype: 'fp32' });
    const got = await embedder.embed(texts);
    await embedder.dispose();
    expect(got.dim).toBe(32);
    got.data.forEach((x, i) => expect(Math.abs(x - expected.data[i]!)).toBeLessThan(1e-6));
  } finally {
    Object.assign(env, saved);
    rmSync(cacheDir, { recursive: true, force: true });
  }
});
