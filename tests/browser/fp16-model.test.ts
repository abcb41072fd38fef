/**
 * A model whose output is float16, in the page's embedding worker: the vectors are the mean of the token
 * states' values, as onnxruntime-node's are (tests/lib/dense/fp16-output.test.ts). The page offers fp16
 * weights only on WebGPU with shader-f16 (src/lib/dense/device.ts), which this machine's software adapter
 * lacks; what is checked is the output's type, so the float16-output graph is served as a model's
 * model.onnx and run on WASM, beside the same graph with a float32 output.
 * The model (tests/lib/dense/lookup-model-fixture.ts: table rows as token states, all-MiniLM-L6-v2's
 * tokenizer) is served by a local server with the hub's URL layout, and the page points hub ids at it
 * (`?remoteHost=`). The expected vectors are computed here from the tokenizer's ids.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { AutoTokenizer } from '@huggingface/transformers';
import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import type { DiagnosticsApi } from '../../src/diagnostics/api.ts';
import { configureModelSource } from '../../src/lib/dense/model-source.ts';
import { tempDir } from '../temp-dir.ts';
import { writeModelFolder } from '../lib/dense/echo-model-fixture.ts';
import { lookupMean, lookupModel, lookupTokenizer } from '../lib/dense/lookup-model-fixture.ts';
import { launch, waitInPage, type BrowserSession } from './harness.ts';

declare global {
  interface Window {
    rpDiagnostics: DiagnosticsApi;
  }
}

const HALF = 'fp16-test/lookup-half-output';
const FULL = 'fp16-test/lookup-float-output';
/** A model the registry does not know gets the custom defaults: 512 tokens, mean pooling, normalized. */
const MAX_LENGTH = 512;
const dir = tempDir('rp-fp16-page-');
let server: Server;
let session: BrowserSession;
let hubUrl: string;

/** Serves `<dir>/<id>/<file>` at `/<id>/resolve/<revision>/<file>`, as the hub does. */
function serveModels(): Promise<string> {
  server = createServer((request, response) => {
    const match = /^\/(.+?)\/resolve\/[^/]+\/(.+)$/.exec(decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname));
    response.setHeader('Access-Control-Allow-Origin', '*');
    response.setHeader('Access-Control-Expose-Headers', 'Content-Length');
    let body: Buffer;
    try {
      body = readFileSync(join(dir, match?.[1] ?? '', match?.[2] ?? ''));
    } catch {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'Content-Length': body.length });
    response.end(request.method === 'HEAD' ? undefined : body);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`)));
}

beforeAll(async () => {
  for (const [id, output] of [[HALF, 'float16'], [FULL, 'float32']] as const) {
    writeModelFolder(dir, id, {
      config: { model_type: 'bert', architectures: ['BertModel'], max_position_embeddings: 512 },
      tokenizer: lookupTokenizer,
      onnx: { 'model.onnx': lookupModel(output) },
    });
  }
  hubUrl = await serveModels();
  session = await launch();
  await session.page.goto(`${inject('appUrl')}/diagnostics.html?remoteHost=${encodeURIComponent(hubUrl)}`);
  await waitInPage(session.page, () => typeof window.rpDiagnostics === 'object', undefined, { timeout: 30_000 });
});

afterAll(async () => {
  await session?.close();
  await new Promise((resolve) => server?.close(resolve));
});

test('mean pooling of a float16 output in the page gives the normalized mean of the values', async () => {
  const texts = ['zinc deficiency impairs immune response in mice', 'short', 'cells '.repeat(600).trim()];
  const embed = (model: string) =>
    session.page.evaluate((req) => window.rpDiagnostics.embedTexts(req), { model, device: 'wasm' as const, dtype: 'fp32' as const, texts });
  const half = await embed(HALF);
  const full = await embed(FULL);
  expect([half.device, half.dtype]).toEqual(['wasm', 'fp32']);
  configureModelSource({ source: 'local' }, { localModelPath: dir });
  const tokenizer = (await AutoTokenizer.from_pretrained(FULL)) as unknown as { encode(text: string, options: { add_special_tokens: boolean }): number[] };
  texts.forEach((text, row) => {
    const mean = lookupMean(tokenizer.encode(text, { add_special_tokens: false }), MAX_LENGTH);
    const norm = Math.hypot(...mean);
    half.vectors[row]!.forEach((x, k) => expect(x).toBeCloseTo(mean[k]! / norm, 6));
    full.vectors[row]!.forEach((x, k) => expect(x).toBeCloseTo(half.vectors[row]![k]!, 6));
  });
});
