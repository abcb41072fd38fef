/**
 * `npm run build:ort`: the app ships two of onnxruntime-web's WebAssembly builds, gzip-compressed, and the
 * model workers decompress the one they need with DecompressionStream before the first session
 * (workers/onnx-runtime.ts):
 * - the asyncify build (WebGPU + WASM, 26.9 MB: over the 25 MiB per-file limit of static hosts, so it
 *   could not ship as it is; 6.6 MB compressed), for models on WebGPU;
 * - the plain build (WASM only, 14.3 MB; 3.7 MB compressed), for models on WASM. It has no asyncify
 *   instrumentation, so its functions are smaller, and a worker starts onnxruntime in about half the time.
 * Written to build/ort/ (git-ignored); each file is skipped when up to date.
 *
 * Usage: tsx scripts/onnx/compress-wasm.ts
 */
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { repoRoot } from '../../tests/shared-dir.ts';

/** onnxruntime-web's builds the app ships: the asyncify one for WebGPU, the plain one for WASM. */
export const ORT_WASMS = ['ort-wasm-simd-threaded.asyncify.wasm', 'ort-wasm-simd-threaded.wasm'] as const;
export type OrtWasm = (typeof ORT_WASMS)[number];

/** Where the compressed copy of `name` is written. */
export function compressedOrtWasm(name: OrtWasm): string {
  return join(repoRoot, 'build', 'ort', `${name}.gz`);
}

/** The uncompressed file in node_modules. */
export function ortWasmSource(name: OrtWasm): string {
  return join(dirname(createRequire(import.meta.url).resolve('onnxruntime-web')), name);
}

/** Writes each compressed copy when missing or older than its source; returns the names written. */
export function compressOrtWasms(): OrtWasm[] {
  return ORT_WASMS.filter((name) => {
    const source = ortWasmSource(name);
    const target = compressedOrtWasm(name);
    if (existsSync(target) && statSync(target).mtimeMs >= statSync(source).mtimeMs) return false;
    mkdirSync(dirname(target), { recursive: true });
    const tmp = `${target}.tmp-${process.pid}`;
    writeFileSync(tmp, gzipSync(readFileSync(source), { level: 9 }));
    renameSync(tmp, target);
    return true;
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const name of compressOrtWasms()) {
    process.stderr.write(`compressed ${name} → ${compressedOrtWasm(name)} (${(statSync(compressedOrtWasm(name)).size / 1e6).toFixed(1)} MB)\n`);
  }
}
