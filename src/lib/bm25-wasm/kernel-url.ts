/**
 * Where the compiled kernel is. `new URL(literal, import.meta.url)` is the pattern Vite recognizes: in a
 * build it emits the file as a hashed asset (in workers too) and rewrites the URL; in Node it is the
 * `file:` URL of `build/wasm/bm25.wasm`, which Node code reads from disk.
 */
export const BM25_WASM_URL: URL = new URL('../../../build/wasm/bm25.wasm', import.meta.url);

/** Fetches and compiles the kernel in a browser or worker (streaming when the server sends application/wasm). */
export async function fetchBm25Kernel(url: URL | string = BM25_WASM_URL): Promise<WebAssembly.Module> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`could not load the BM25 kernel from ${String(url)}: HTTP ${response.status}`);
  if (response.headers.get('content-type')?.startsWith('application/wasm')) {
    return WebAssembly.compileStreaming(response);
  }
  return WebAssembly.compile(await response.arrayBuffer());
}
