/**
 * onnxruntime-web names its wasm with `new URL('ort-wasm-simd-threaded.asyncify.wasm', import.meta.url)`,
 * which vite turns into a 26.9 MB asset — over the 25 MiB per-file limit of static hosts. The model
 * workers never use that URL (workers/onnx-runtime.ts hands onnxruntime the gzip-compressed copy as
 * `wasmBinary`, and sets `wasmPaths` itself), so the reference is made a plain page-relative URL that vite
 * leaves alone and the file stays out of dist/.
 */
import type { Plugin } from 'vite';

const BUNDLED_WASM = /new URL\((["'`])ort-wasm-simd-threaded\.asyncify\.wasm\1,\s*import\.meta\.url\)/g;

export function dropBundledOrtWasm(): Plugin {
  return {
    name: 'rp-drop-bundled-ort-wasm',
    enforce: 'pre',
    transform(code, id) {
      if (!/onnxruntime-web|@huggingface[\\/]transformers/.test(id) || !code.includes('ort-wasm-simd-threaded.asyncify.wasm')) return null;
      const replaced = code.replace(BUNDLED_WASM, 'new URL($1ort-wasm-simd-threaded.asyncify.wasm$1, self.location.href)');
      return replaced === code ? null : { code: replaced, map: null };
    },
  };
}
