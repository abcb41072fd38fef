/**
 * Which inference device a browser offers. WebGPU is probed with navigator.gpu.requestAdapter() — the API
 * existing is not enough, an adapter must be granted — and fp16 weights need the adapter's 'shader-f16'
 * feature. WASM always works; it runs multi-threaded only on a cross-origin-isolated page.
 */
import type { EmbeddingDevice } from './embedder.ts';
import type { EmbeddingDtype, ModelSpec } from './registry.ts';

export interface DeviceProbe {
  webgpu: boolean;
  shaderF16: boolean;
  /** Adapter description when WebGPU is present (vendor / architecture / description). */
  adapter?: { vendor: string; architecture: string; description: string };
  /** Why WebGPU is unavailable, when it is. */
  webgpuError?: string;
  crossOriginIsolated: boolean;
  hardwareConcurrency: number;
}

/** The slice of the WebGPU API used here (TypeScript's DOM lib does not declare navigator.gpu). */
interface GpuLike {
  requestAdapter(): Promise<{
    features: { has(name: string): boolean };
    info?: { vendor?: string; architecture?: string; description?: string };
  } | null>;
}

export async function probeDevices(scope: { navigator?: unknown; crossOriginIsolated?: boolean } = globalThis): Promise<DeviceProbe> {
  const nav = scope.navigator as { gpu?: GpuLike; hardwareConcurrency?: number } | undefined;
  const base = { crossOriginIsolated: scope.crossOriginIsolated === true, hardwareConcurrency: nav?.hardwareConcurrency ?? 1 };
  if (!nav?.gpu) return { ...base, webgpu: false, shaderF16: false, webgpuError: 'navigator.gpu is not defined' };
  try {
    const adapter = await nav.gpu.requestAdapter();
    if (!adapter) return { ...base, webgpu: false, shaderF16: false, webgpuError: 'requestAdapter() returned null' };
    const info = adapter.info ?? {};
    return {
      ...base,
      webgpu: true,
      shaderF16: adapter.features.has('shader-f16'),
      adapter: { vendor: info.vendor ?? '', architecture: info.architecture ?? '', description: info.description ?? '' },
    };
  } catch (error) {
    return { ...base, webgpu: false, shaderF16: false, webgpuError: String(error) };
  }
}

/**
 * A WebGPU adapter that is a CPU rasterizer (SwiftShader, llvmpipe, lavapipe, Microsoft Basic Render
 * Driver): it runs shaders on the CPU, far slower than onnxruntime's WASM kernels.
 */
export function isSoftwareAdapter(probe: DeviceProbe): boolean {
  const adapter = probe.adapter;
  if (adapter === undefined) return false;
  return /swiftshader|llvmpipe|lavapipe|software|basic render/i.test(`${adapter.vendor} ${adapter.architecture} ${adapter.description}`);
}

/**
 * The device to load a model on. 'wasm' and 'cpu' are taken as asked; 'webgpu' needs an adapter (else
 * WASM); 'auto' means WebGPU on a real GPU and WASM otherwise — a software adapter counts as "prefer WASM":
 * SwiftShader runs shaders on the CPU, many times slower than WASM.
 */
export function chooseDevice(probe: DeviceProbe, preferred: EmbeddingDevice | 'auto' = 'auto'): EmbeddingDevice {
  if (preferred === 'wasm' || preferred === 'cpu') return preferred;
  if (!probe.webgpu) return 'wasm';
  if (preferred === 'auto' && isSoftwareAdapter(probe)) return 'wasm';
  return 'webgpu';
}

/** The model's dtypes that can run on the device: fp16 only on WebGPU with shader-f16. */
export function usableDtypes(spec: ModelSpec, device: EmbeddingDevice, probe: DeviceProbe): EmbeddingDtype[] {
  return spec.dtypes.filter((dtype) => dtype !== 'fp16' || (device === 'webgpu' && probe.shaderF16));
}

/**
 * How a device is named to people: `cpu-lookup` (a static table) says what it is; WASM says how many
 * threads it got (one on a page without cross-origin isolation, e.g. any static host).
 */
export function deviceLabel(device: string, threads?: number): string {
  if (device === 'cpu-lookup') return 'lookup on the CPU';
  if (device === 'wasm' && threads !== undefined) return `wasm (${threads} thread${threads === 1 ? '' : 's'})`;
  return device;
}
