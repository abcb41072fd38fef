/**
 * onnxruntime-web as the model workers use it. Its wasm and loader are served from our own build (vite
 * `?url` assets), never from a CDN: transformers.js sets a jsDelivr default at import time, replaced here
 * before any session exists (the Content-Security-Policy would block the CDN anyway).
 *
 * numThreads stays at onnxruntime-web's default (half the cores, at most 4; threads need the cross-origin
 * isolation of vite.config.ts): on the shared 2-core test machine, 2 threads made the tiny model 4–6×
 * slower in bench:embed (thread hand-offs per small operator).
 */
import { env } from '@huggingface/transformers';
import ortWasmUrl from 'onnxruntime-web/ort-wasm-simd-threaded.asyncify.wasm?url';
import ortMjsUrl from 'onnxruntime-web/ort-wasm-simd-threaded.asyncify.mjs?url';

const onnxWasm = env.backends.onnx.wasm;
if (onnxWasm) onnxWasm.wasmPaths = { wasm: ortWasmUrl, mjs: ortMjsUrl };
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
