/**
 * onnxruntime-web as the model workers use it. Its wasm and loader are served from our own build (vite
 * `?url` assets), never from a CDN: transformers.js sets a jsDelivr default at import time, replaced here
 * before any session exists (the Content-Security-Policy would block the CDN anyway). The wasm (26.9 MB,
 * over the 25 MiB per-file limit of static hosts) is shipped gzip-compressed (npm run build:ort) and
 * handed to onnxruntime as `wasmBinary` by prepareOnnxRuntime, before the first session.
 *
 * numThreads stays at onnxruntime-web's default (half the cores, at most 4) on a cross-origin-isolated page
 * (the COOP/COEP headers of vite.config.ts): on the shared 2-core test machine, 2 threads made the tiny
 * model 4–6× slower in bench:embed (thread hand-offs per small operator). Without isolation (any static
 * host: GitHub Pages, Cloudflare Pages without a _headers file) there is no SharedArrayBuffer, so it is set
 * to 1 outright: onnxruntime would otherwise warn that threads cannot start, and the column says
 * "wasm (1 thread)".
 */
import { env } from '@huggingface/transformers';
import ortMjsUrl from 'onnxruntime-web/ort-wasm-simd-threaded.asyncify.mjs?url';
import ortWasmGzUrl from '../build/ort/ort-wasm-simd-threaded.asyncify.wasm.gz?url';

const onnxWasm = env.backends.onnx.wasm;
if (onnxWasm) onnxWasm.wasmPaths = { mjs: ortMjsUrl };
if (onnxWasm && !self.crossOriginIsolated) onnxWasm.numThreads = 1;

/** The threads onnxruntime's WASM backend runs with (final once a session exists). */
export function wasmThreads(): number {
  const threads = onnxWasm?.numThreads;
  return typeof threads === 'number' && threads > 0 ? threads : 1;
}

let wasmBinary: Promise<void> | undefined;

/**
 * Fetches and decompresses onnxruntime's wasm once per worker, before the first session. A host that
 * answers the .gz with `Content-Encoding: gzip` has the browser decompress it already: the bytes are then
 * the wasm itself (its magic number `\0asm`), used as they are.
 */
export function prepareOnnxRuntime(): Promise<void> {
  wasmBinary ??= (async () => {
    const response = await fetch(ortWasmGzUrl);
    if (!response.ok) throw new Error(`onnxruntime's WebAssembly could not be loaded from ${ortWasmGzUrl} (HTTP ${response.status})`);
    const bytes = new Uint8Array(await response.arrayBuffer());
    const gzipped = bytes[0] === 0x1f && bytes[1] === 0x8b;
    const binary = gzipped ? await new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'))).arrayBuffer() : bytes.buffer;
    if (onnxWasm) onnxWasm.wasmBinary = binary;
  })();
  // A failed attempt may succeed later (a network error): do not keep it.
  wasmBinary.catch(() => (wasmBinary = undefined));
  return wasmBinary;
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
