/**
 * The hand-written WebAssembly kernels of the dense search (row-sum.wat, exact-kernel.wat) travel as base64
 * in their TypeScript modules (scripts/wasm/build-wat.ts): a few hundred bytes need no file to fetch. Each
 * is compiled once, on first use; where WebAssembly or its SIMD is missing the answer is null, and the
 * caller keeps its TypeScript loop.
 */
export function inlineWasm(base64: string): () => WebAssembly.Module | null {
  let compiled: WebAssembly.Module | null | undefined;
  return () => {
    if (compiled === undefined) {
      try {
        compiled = new WebAssembly.Module(Uint8Array.from(atob(base64), (char) => char.charCodeAt(0)));
      } catch {
        compiled = null; // no WebAssembly, or no SIMD in this engine
      }
    }
    return compiled;
  };
}

/** The next multiple of 16 (where a kernel's buffers start). */
export const align16 = (offset: number): number => (offset + 15) & ~15;
