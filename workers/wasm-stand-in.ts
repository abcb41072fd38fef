/**
 * A compiled WebAssembly module handed to code that only takes bytes. onnxruntime's loader takes its wasm as
 * `wasmBinary` and calls `WebAssembly.instantiate(new Uint8Array(wasmBinary), imports)`, which compiles the
 * bytes anew. A module compiled once and posted to each of a page's workers shares its compiled code (the
 * workers live in the page's process), so a worker should instantiate that module instead: `standInFor`
 * gives a small buffer that stands for it, and `WebAssembly.instantiate` (patched here once per realm)
 * instantiates the module when it is given that buffer, answering as for bytes ({ module, instance }).
 * Every other call goes to WebAssembly as it is.
 */
const standIns = new WeakMap<ArrayBuffer, WebAssembly.Module>();
let patched = false;

function patchInstantiate(): void {
  if (patched) return;
  patched = true;
  const instantiate = WebAssembly.instantiate.bind(WebAssembly) as (source: unknown, imports?: WebAssembly.Imports) => Promise<unknown>;
  const standingIn = (source: unknown, imports?: WebAssembly.Imports): Promise<unknown> => {
    const buffer = ArrayBuffer.isView(source) ? source.buffer : source;
    const module = buffer instanceof ArrayBuffer ? standIns.get(buffer) : undefined;
    if (module === undefined) return instantiate(source, imports);
    return (instantiate(module, imports) as Promise<WebAssembly.Instance>).then((instance) => ({ module, instance }));
  };
  WebAssembly.instantiate = standingIn as typeof WebAssembly.instantiate;
}

/** A buffer that `WebAssembly.instantiate` takes for `module` (not valid wasm: anything else rejects it). */
export function standInFor(module: WebAssembly.Module): ArrayBuffer {
  patchInstantiate();
  const standIn = new ArrayBuffer(8);
  standIns.set(standIn, module);
  return standIn;
}
