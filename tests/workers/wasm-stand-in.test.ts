/**
 * workers/wasm-stand-in.ts: onnxruntime's loader calls `WebAssembly.instantiate(new Uint8Array(wasmBinary),
 * imports)`; given a stand-in as its `wasmBinary`, that call instantiates the module compiled beforehand
 * (the one the page's workers share) instead of compiling bytes, and every other call behaves as before.
 */
import { describe, expect, it } from 'vitest';
import { standInFor } from '../../workers/wasm-stand-in.ts';

/** (module (func (export "answer") (result i32) i32.const 42)) */
const ANSWER = Uint8Array.from([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, 0x01, 0x05, 0x01, 0x60, 0x00, 0x01, 0x7f, 0x03, 0x02, 0x01, 0x00, 0x07, 0x0a, 0x01, 0x06, 0x61, 0x6e,
  0x73, 0x77, 0x65, 0x72, 0x00, 0x00, 0x0a, 0x06, 0x01, 0x04, 0x00, 0x41, 0x2a, 0x0b,
]);

const answer = (instance: WebAssembly.Instance) => (instance.exports['answer'] as () => number)();

describe('standInFor', () => {
  it('makes WebAssembly.instantiate of the stand-in’s bytes instantiate the compiled module, as bytes answer', async () => {
    const module = await WebAssembly.compile(ANSWER);
    const standIn = standInFor(module);
    expect(standIn.byteLength).toBeLessThan(ANSWER.byteLength);
    // As onnxruntime's loader calls it: a Uint8Array over the buffer it was given.
    const result = (await WebAssembly.instantiate(new Uint8Array(standIn), {})) as unknown as WebAssembly.WebAssemblyInstantiatedSource;
    expect(result.module).toBe(module);
    expect(answer(result.instance)).toBe(42);
    expect(answer((await WebAssembly.instantiate(standIn, {})).instance)).toBe(42);
  });

  it('leaves every other call as it was: real bytes compile, a module gives an instance, other buffers are refused', async () => {
    standInFor(await WebAssembly.compile(ANSWER));
    const fromBytes = await WebAssembly.instantiate(ANSWER, {});
    expect(fromBytes.module).toBeInstanceOf(WebAssembly.Module);
    expect(answer(fromBytes.instance)).toBe(42);
    const fromModule = await WebAssembly.instantiate(fromBytes.module, {});
    expect(fromModule).toBeInstanceOf(WebAssembly.Instance);
    await expect(WebAssembly.instantiate(new Uint8Array(8), {})).rejects.toThrow(WebAssembly.CompileError);
  });
});
