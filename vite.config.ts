import { defineConfig } from 'vite';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { appBuildPlugin } from './scripts/vite/app-build.ts';
import { basePath, BASE_PATH_ENV } from './scripts/vite/base-path.ts';
import { contentSecurityPolicyPlugin } from './scripts/vite/content-security-policy.ts';
import { distSizePlugin } from './scripts/vite/dist-size.ts';
import { dropBundledOrtWasm } from './scripts/vite/onnx-wasm.ts';

/**
 * Cross-origin isolation lets onnxruntime-web run WASM on several threads (SharedArrayBuffer). It is opt-in
 * (`RP_CROSS_ORIGIN_ISOLATION=1 npm start`, or the same for `npm run preview`): Chromium gives an isolated
 * page a renderer process of its own, picked only once the response's headers are read, so every page open
 * starts a second renderer (DESIGN.md, "Decisions"), and the threads serve only ONNX models running on WASM: not BM25,
 * not the default static model, not WebGPU. `credentialless` instead of `require-corp` keeps cross-origin
 * fetches of hub model files working (they are requested without credentials, so no CORP header is needed on
 * them). Without isolation the app is the same, with single-threaded WASM (workers/onnx-runtime.ts).
 */
const isolation: Record<string, string> =
  process.env['RP_CROSS_ORIGIN_ISOLATION'] === '1'
    ? { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'credentialless' }
    : {};

export default defineConfig({
  // Served under a sub-path (GitHub Pages: /<repository>/) with BASE_PATH or `vite build --base` (scripts/vite/base-path.ts).
  base: basePath(process.env[BASE_PATH_ENV]),
  // The Content-Security-Policy (scripts/vite/content-security-policy.ts); RP_EXTRA_CONNECT_SRC adds hosts.
  // distSizePlugin fails a build over the static-host size rules (scripts/vite/dist-size.ts).
  // appBuildPlugin names the build in the keys of saved rankings (src/app/engine/saved-rankings.ts).
  plugins: [svelte(), contentSecurityPolicyPlugin(), distSizePlugin(), appBuildPlugin(import.meta.dirname)],
  // The workers load onnxruntime's wasm builds gzip-compressed (workers/onnx-runtime.ts): the 26.9 MB asyncify original stays out.
  // Output in ASCII (non-ASCII characters escaped): Chromium then decodes a script into one-byte strings
  // instead of two-byte ones, which V8 also scans faster.
  worker: { format: 'es', plugins: () => [dropBundledOrtWasm()], rolldownOptions: { output: { charset: 'ascii' } } },
  server: { headers: isolation },
  preview: { headers: isolation },
  // transformers.js imports onnxruntime-web/webgpu itself; pre-bundling it separately in dev would load a
  // second copy of onnxruntime-web with its own env (and wasmPaths).
  optimizeDeps: { exclude: ['onnxruntime-web', 'hnswlib-wasm'] },
  build: {
    target: 'es2022',
    rolldownOptions: {
      // The playground and a device diagnostics page (WebGPU/WASM probe, embedding self-test).
      input: { main: 'index.html', diagnostics: 'diagnostics.html' },
      output: { charset: 'ascii' },
    },
  },
});
