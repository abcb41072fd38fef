/**
 * onnxruntime-web as the model workers use it. Its wasm and loader are served from our own build (vite
 * `?url` assets), never from a CDN: transformers.js sets a jsDelivr default at import time, replaced here
 * before any session exists (the Content-Security-Policy would block the CDN anyway).
 *
 * Two of onnxruntime's builds ship, gzip-compressed (npm run build:ort), and prepareOnnxRuntime hands the
 * one a worker needs to onnxruntime as `wasmBinary`, before the first session:
 * - a model on WASM gets the plain build (14.3 MB). It starts faster (bench:embed prints each model's load),
 *   because V8 compiles the functions onnxruntime calls when they are first called, and asyncify's
 *   instrumentation makes some of them huge;
 * - a model on WebGPU gets the asyncify build (WebGPU + WASM, 26.9 MB: over the 25 MiB per-file limit of
 *   static hosts, so it could not ship uncompressed anyway).
 * The page chooses each model's device before its worker loads it (src/lib/dense/device.ts), and a worker
 * holds one model on one device, so the first session decides the build.
 *
 * numThreads stays at onnxruntime-web's default (half the cores, at most 4) on a cross-origin-isolated page
 * (COOP/COEP headers, opt-in in vite.config.ts); on two cores, threads slow a small model down (thread
 * hand-offs per small operator). Without isolation (any static
 * host: GitHub Pages, Cloudflare Pages without a _headers file) there is no SharedArrayBuffer, so it is set
 * to 1 outright: onnxruntime would otherwise warn that threads cannot start, and the column says
 * "wasm (1 thread)".
 */
import { env } from '@huggingface/transformers';
import asyncifyMjsUrl from 'onnxruntime-web/ort-wasm-simd-threaded.asyncify.mjs?url';
import plainMjsUrl from 'onnxruntime-web/ort-wasm-simd-threaded.mjs?url';
import asyncifyWasmGzUrl from '../build/ort/ort-wasm-simd-threaded.asyncify.wasm.gz?url';
import plainWasmGzUrl from '../build/ort/ort-wasm-simd-threaded.wasm.gz?url';
import { standInFor } from './wasm-stand-in.ts';

/** Each build's loader and compressed wasm, by the device it is for. */
const BUILDS = {
  wasm: { mjs: plainMjsUrl, wasmGz: plainWasmGzUrl },
  webgpu: { mjs: asyncifyMjsUrl, wasmGz: asyncifyWasmGzUrl },
};
export type OnnxBuild = keyof typeof BUILDS;

/** One of onnxruntime's builds, compiled; posted between the page and its workers, it shares its compiled code. */
export interface CompiledOnnx {
  build: OnnxBuild;
  module: WebAssembly.Module;
}

const onnxWasm = env.backends.onnx.wasm;
if (onnxWasm) onnxWasm.wasmPaths = { mjs: asyncifyMjsUrl };
if (onnxWasm && !self.crossOriginIsolated) onnxWasm.numThreads = 1;

/** The threads onnxruntime's WASM backend runs with (final once a session exists). */
export function wasmThreads(): number {
  const threads = onnxWasm?.numThreads;
  return typeof threads === 'number' && threads > 0 ? threads : 1;
}

let prepared: { build: OnnxBuild; ready: Promise<CompiledOnnx> } | undefined;

/** The build a model on `device` runs on. */
function onnxBuildFor(device: string): OnnxBuild {
  return device === 'wasm' ? 'wasm' : 'webgpu';
}

/**
 * Fetches, decompresses and compiles the build for `device` once per worker, before the first session, and
 * resolves with the compiled build; when `compiled` (from the page's other workers) holds that build, it
 * uses it instead. A host that answers the .gz with `Content-Encoding: gzip` has the browser decompress it
 * already: the bytes are then the wasm itself (its magic number `\0asm`), used as they are. The asyncify
 * build runs WASM sessions too; the plain one cannot run WebGPU, so a worker that started with it refuses a
 * WebGPU model.
 */
export function prepareOnnxRuntime(device: string, compiled: readonly CompiledOnnx[] = []): Promise<CompiledOnnx> {
  const build = onnxBuildFor(device);
  if (prepared?.build === 'wasm' && build === 'webgpu') {
    return Promise.reject(new Error('this worker runs onnxruntime’s WASM-only build: a model on WebGPU needs a fresh worker'));
  }
  if (prepared) return prepared.ready;
  const ready = (async () => {
    const { mjs, wasmGz } = BUILDS[build];
    const module = compiled.find((c) => c.build === build)?.module ?? (await WebAssembly.compile(await fetchBuild(wasmGz)));
    if (onnxWasm) {
      onnxWasm.wasmPaths = { mjs };
      // onnxruntime's loader instantiates the binary it is given, which would compile it anew in every
      // worker (about 3,600 functions compiled as first called, the hot ones again by the optimizing tier:
      // seconds of CPU). A stand-in makes it instantiate the module compiled once for the page.
      onnxWasm.wasmBinary = standInFor(module);
    }
    return { build, module };
  })();
  prepared = { build, ready };
  // A failed attempt may succeed later (a network error): do not keep it.
  ready.catch(() => {
    if (prepared?.ready === ready) prepared = undefined;
  });
  return ready;
}
async function fetchBuild(wasmGz: string): Promise<ArrayBuffer> {
  const response = await fetch(wasmGz);
  if (!response.ok) throw new Error(`onnxruntime's WebAssembly could not be loaded from ${wasmGz} (HTTP ${response.status})`);
  const bytes = new Uint8Array(await response.arrayBuffer());
  const gzipped = bytes[0] === 0x1f && bytes[1] === 0x8b;
  return gzipped ? await new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'))).arrayBuffer() : bytes.buffer;
}

// With its wasm cache on, transformers.js re-imports onnxruntime's loader from a blob: URL, which the
// Content-Security-Policy (script-src 'self') rightly refuses; the browser's HTTP cache keeps both files.
env.useWasmCache = false;

/** The GPUDevice onnxruntime-web's WebGPU backend created (after the first WebGPU session), if any. */
export async function webgpuDevice(): Promise<{ lost: Promise<{ reason: string; message: string }> } | undefined> {
  const webgpu = env.backends.onnx.webgpu as { device?: Promise<unknown> } | undefined;
  try {
    const device = await webgpu?.device;
    return device && typeof device === 'object' && 'lost' in device ? (device as { lost: Promise<{ reason: string; message: string }> }) : undefined;
  } catch {
    return undefined;
  }
}
