/**
 * `npm run build:ort`: onnxruntime-web's WebAssembly (the asyncify build, WebGPU + WASM) is 26.9 MB, over
 * the 25 MiB per-file limit of static hosts (scripts/vite/dist-size.ts). The app ships it gzip-compressed
 * (6.6 MB) and the model workers decompress it with DecompressionStream before the first session
 * (workers/onnx-runtime.ts). Written to build/ort/ (git-ignored); skipped when up to date.
 *
 * Usage: tsx scripts/onnx/compress-wasm.ts
 */
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { repoRoot } from '../../tests/shared-dir.ts';

export const ORT_WASM = 'ort-wasm-simd-threaded.asyncify.wasm';
export const COMPRESSED_ORT_WASM = join(repoRoot, 'build', 'ort', `${ORT_WASM}.gz`);

/** The uncompressed file in node_modules. */
export function ortWasmSource(): string {
  return join(dirname(createRequire(import.meta.url).resolve('onnxruntime-web')), ORT_WASM);
}

/** Writes COMPRESSED_ORT_WASM when missing or older than its source; returns true when written. */
export function compressOrtWasm(): boolean {
  const source = ortWasmSource();
  if (existsSync(COMPRESSED_ORT_WASM) && statSync(COMPRESSED_ORT_WASM).mtimeMs >= statSync(source).mtimeMs) return false;
  mkdirSync(dirname(COMPRESSED_ORT_WASM), { recursive: true });
  const tmp = `${COMPRESSED_ORT_WASM}.tmp-${process.pid}`;
  writeFileSync(tmp, gzipSync(readFileSync(source), { level: 9 }));
  renameSync(tmp, COMPRESSED_ORT_WASM);
  return true;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const written = compressOrtWasm();
  if (written) process.stderr.write(`compressed ${ORT_WASM} → ${COMPRESSED_ORT_WASM} (${(statSync(COMPRESSED_ORT_WASM).size / 1e6).toFixed(1)} MB)\n`);
}
