/**
 * A model that fails to load gives one message naming the model, the file or URL, and what to do. Each
 * failure here is real: loadEmbedder on onnxruntime-node with copies of the project's tiny BERT model
 * broken on purpose (tokenizer missing, weights missing, weights that are not ONNX, config.json that is an
 * HTML page), and hub-layout downloads from a local server answering 404 or from a closed port (a network
 * error). The browser's own versions of these failures are in tests/browser/failures.test.ts.
 */
import { cpSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { tempDir } from '../../temp-dir.ts';
import { env } from '@huggingface/transformers';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { MODELS_DIR } from '../../../src/cli/dense.ts';
import { loadEmbedder, ModelLoadError } from '../../../src/lib/dense/embedder.ts';
import { configureModelSource, describeModelLoadFailure, modelBaseLocation, onnxFileOf } from '../../../src/lib/dense/model-source.ts';
import { customModelSpec, registryModel, type ModelSpec } from '../../../src/lib/dense/registry.ts';
import { ensureModels } from './models-fixture.ts';

let root: string;
const tinyBert = registryModel('local/tiny-bert')!;

/** A copy of tiny-bert under `<root>/local/<name>`, broken by `breakIt`. */
function brokenCopy(name: string, breakIt: (folder: string) => void): ModelSpec {
  const folder = join(root, 'local', name);
  cpSync(join(MODELS_DIR, 'local', 'tiny-bert'), folder, { recursive: true });
  breakIt(folder);
  return { ...tinyBert, id: `local/${name}` };
}

async function loadFailure(spec: ModelSpec, dtype: 'fp32' | 'q8' = 'fp32'): Promise<ModelLoadError> {
  configureModelSource(spec, { localModelPath: root });
  const error = await loadEmbedder({ spec, device: 'cpu', dtype }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ModelLoadError);
  return error as ModelLoadError;
}

beforeAll(() => {
  ensureModels('tiny-bert');
  root = tempDir('rp-broken-models-');
  // transformers.js keeps files it read in a cache folder in Node: keep each test's files its own.
  env.cacheDir = join(root, '.cache');
});

describe('local model folders broken on purpose (onnxruntime-node)', () => {
  test('the intact copy loads (the broken ones below differ from it in one file only)', async () => {
    const spec = brokenCopy('intact', () => {});
    configureModelSource(spec, { localModelPath: root });
    const embedder = await loadEmbedder({ spec, device: 'cpu', dtype: 'fp32' });
    expect((await embedder.embed(['hello'])).dim).toBe(32);
    await embedder.dispose();
  });

  test('missing tokenizer: names tokenizer.json, its path, and what transformers.js needs', async () => {
    const spec = brokenCopy('no-tokenizer', (folder) => unlinkSync(join(folder, 'tokenizer.json')));
    const error = await loadFailure(spec);
    expect(error.message).toContain('the model local/no-tokenizer');
    expect(error.message).toContain(`its tokenizer (tokenizer.json) was not found at ${join(root, 'local/no-tokenizer')}/tokenizer.json`);
    expect(error.message).toContain('tokenizer.json and tokenizer_config.json');
    expect(error.message).toContain('npm run models');
  });

  test('missing weights of a dtype: names the ONNX file and suggests another dtype', async () => {
    const spec = brokenCopy('no-q8', (folder) => unlinkSync(join(folder, 'onnx', 'model_quantized.onnx')));
    const error = await loadFailure(spec, 'q8');
    expect(error.message).toContain(`no q8 ONNX weights at ${join(root, 'local/no-q8')}/onnx/model_quantized.onnx`);
    expect(error.message).toContain('Pick another dtype (fp32, q8)');
  });

  test('weights that are not an ONNX model (an HTML page saved as model.onnx)', async () => {
    const spec = brokenCopy('not-onnx', (folder) => writeFileSync(join(folder, 'onnx', 'model.onnx'), '<!doctype html><html><body>Not found</body></html>'));
    const error = await loadFailure(spec);
    expect(error.message).toContain(`${join(root, 'local/not-onnx')}/onnx/model.onnx is not a valid ONNX model`);
    expect(error.message).toMatch(/protobuf parsing failed/i);
    expect(error.message).toContain('download it again');
  });

  test('weights cut short (a partial download)', async () => {
    const spec = brokenCopy('truncated', (folder) => {
      const path = join(folder, 'onnx', 'model.onnx');
      writeFileSync(path, readFileSync(path).subarray(0, 100_000));
    });
    const error = await loadFailure(spec);
    expect(error.message).toContain('onnx/model.onnx is not a valid ONNX model');
  });

  test('config.json that is an HTML page (a server’s fallback page)', async () => {
    const spec = brokenCopy('html-config', (folder) => writeFileSync(join(folder, 'config.json'), '<!doctype html><title>app</title>'));
    const error = await loadFailure(spec);
    expect(error.message).toContain('is not JSON');
    expect(error.message).toContain('answered with an HTML page');
    expect(error.message).toContain(join(root, 'local/html-config'));
  });
});

describe('hub-layout downloads (local server on 127.0.0.1)', () => {
  let server: Server;
  let host: string;
  const requests: string[] = [];

  beforeAll(async () => {
    server = createServer((request, response) => {
      requests.push(request.url ?? '');
      response.writeHead(404, { 'Content-Type': 'text/plain' }).end('Entry not found');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    host = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });

  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  test('404: names the URL of the file the hub does not have', async () => {
    const spec = customModelSpec('someone/missing-model');
    configureModelSource(spec, { localModelPath: root, remoteHost: host });
    const error = await loadEmbedder({ spec, device: 'cpu', dtype: 'fp32' }).then(() => undefined, (e: unknown) => e as Error);
    expect(error).toBeInstanceOf(ModelLoadError);
    expect(error!.message).toContain('the model someone/missing-model');
    expect(error!.message).toMatch(new RegExp(`${host}someone/missing-model/resolve/main/(config\\.json|tokenizer\\.json|tokenizer_config\\.json|onnx/model\\.onnx)`));
    expect(requests.some((url) => url.startsWith('/someone/missing-model/resolve/main/'))).toBe(true);
  });

  test('network error (nothing listens on the port): names the host and the files being fetched', async () => {
    const closed = `http://127.0.0.1:1/`;
    const spec = customModelSpec('someone/offline-model');
    configureModelSource(spec, { localModelPath: root, remoteHost: closed });
    const error = await loadEmbedder({ spec, device: 'cpu', dtype: 'fp32' }).then(() => undefined, (e: unknown) => e as Error);
    expect(error).toBeInstanceOf(ModelLoadError);
    expect(error!.message).toMatch(new RegExp(`downloading ${closed}someone/offline-model/resolve/main/(config\\.json|tokenizer\\.json|tokenizer_config\\.json|onnx/model\\.onnx)[ ,]`));
    expect(error!.message).toContain('Check the network connection');
  });
});

test('the locations and file names the messages use follow transformers.js’s conventions', () => {
  expect(onnxFileOf('fp32')).toBe('onnx/model.onnx');
  expect(onnxFileOf('q8')).toBe('onnx/model_quantized.onnx');
  expect(onnxFileOf('fp16')).toBe('onnx/model_fp16.onnx');
  const hub = registryModel('Xenova/bge-small-en-v1.5')!;
  configureModelSource(hub, { localModelPath: '/models/' });
  expect(modelBaseLocation(hub)).toBe('https://huggingface.co/Xenova/bge-small-en-v1.5/resolve/main/');
  configureModelSource(tinyBert, { localModelPath: '/models/' });
  expect(modelBaseLocation(tinyBert)).toBe('/models/local/tiny-bert/');
  // Unknown errors keep their own message.
  expect(describeModelLoadFailure(tinyBert, 'fp32', new Error('something odd'))).toBe(
    'Could not load the model local/tiny-bert from /models/local/tiny-bert/ (something odd). The project’s own models are built by `npm run models`.',
  );
  // 401/403: gated or private repositories.
  configureModelSource(hub, { localModelPath: '/models/' });
  const denied = describeModelLoadFailure(hub, 'q8', new Error('Unauthorized access to file: "https://huggingface.co/Xenova/bge-small-en-v1.5/resolve/main/config.json".'));
  expect(denied).toContain('access to config.json was refused');
  expect(denied).toContain('gated or private');
});

test('a runtime that cannot start on the device is not mistaken for a download failure', () => {
  configureModelSource(tinyBert, { localModelPath: '/models/' });
  // What onnxruntime-web threw when the Content-Security-Policy refused its loader (a blob: import).
  const message = describeModelLoadFailure(
    tinyBert,
    'fp32',
    new Error('no available backend found. ERR: [wasm] TypeError: Failed to fetch dynamically imported module: blob:http://127.0.0.1:4173/6d58'),
  );
  expect(message).toMatch(/^Could not load the model local\/tiny-bert: onnxruntime could not start on this device \(no available backend found/);
  expect(message).not.toContain('downloading');
});
