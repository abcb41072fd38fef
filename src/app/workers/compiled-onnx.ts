/**
 * onnxruntime's builds as the page's model workers compiled them (workers/onnx-runtime.ts): each worker's
 * load request carries those compiled so far, and a worker that compiled one itself hands it back. The
 * page's workers live in one process and a posted WebAssembly.Module shares its compiled code, so only the
 * first worker of a build compiles onnxruntime's functions (seconds of CPU); the others start with them.
 */
import type { CompiledOnnx, OnnxBuild } from '../../../workers/onnx-runtime.ts';

const compiled = new Map<OnnxBuild, CompiledOnnx>();

/** The builds compiled so far, for a worker's load request. */
export function compiledOnnx(): CompiledOnnx[] {
  return [...compiled.values()];
}

/** Keeps the build a worker compiled (the first of each build is kept). */
export function rememberCompiledOnnx(onnx: CompiledOnnx | undefined): void {
  if (onnx !== undefined && !compiled.has(onnx.build)) compiled.set(onnx.build, onnx);
}
