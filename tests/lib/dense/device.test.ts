import { expect, test } from 'vitest';
import { chooseDevice, deviceLabel, isSoftwareAdapter, probeDevices, usableDtypes } from '../../../src/lib/dense/device.ts';
import { registryModel } from '../../../src/lib/dense/registry.ts';

function adapter(features: string[], info = { vendor: 'google', architecture: 'swiftshader', description: '' }) {
  return { features: new Set(features), info };
}

/** What chromium reports for a discrete GPU (vendor and architecture as in GPUAdapterInfo). */
const NVIDIA = { vendor: 'nvidia', architecture: 'ampere', description: '' };

test('WebGPU counts only when requestAdapter() grants an adapter', async () => {
  const none = await probeDevices({ navigator: { hardwareConcurrency: 2 } });
  expect(none).toMatchObject({ webgpu: false, shaderF16: false, hardwareConcurrency: 2, webgpuError: 'navigator.gpu is not defined' });
  const refused = await probeDevices({ navigator: { gpu: { requestAdapter: async () => null } } });
  expect(refused).toMatchObject({ webgpu: false, webgpuError: 'requestAdapter() returned null' });
  const failing = await probeDevices({ navigator: { gpu: { requestAdapter: async () => Promise.reject(new Error('blocked')) } } });
  expect(failing.webgpu).toBe(false);
  expect(failing.webgpuError).toContain('blocked');
  const gpu = await probeDevices({ navigator: { gpu: { requestAdapter: async () => adapter([]) } }, crossOriginIsolated: true });
  expect(gpu).toMatchObject({ webgpu: true, shaderF16: false, crossOriginIsolated: true, adapter: { vendor: 'google', architecture: 'swiftshader' } });
  const f16 = await probeDevices({ navigator: { gpu: { requestAdapter: async () => adapter(['shader-f16']) } } });
  expect(f16.shaderF16).toBe(true);
});

test('device choice: WebGPU on a real GPU unless WASM is asked for; fp16 only on WebGPU with shader-f16', async () => {
  const gpu = await probeDevices({ navigator: { gpu: { requestAdapter: async () => adapter([], NVIDIA) } } });
  const f16 = await probeDevices({ navigator: { gpu: { requestAdapter: async () => adapter(['shader-f16']) } } });
  const none = await probeDevices({ navigator: {} });
  expect(chooseDevice(gpu)).toBe('webgpu');
  expect(chooseDevice(gpu, 'webgpu')).toBe('webgpu');
  expect(chooseDevice(gpu, 'wasm')).toBe('wasm');
  expect(chooseDevice(none, 'webgpu')).toBe('wasm');
  const spec = registryModel('Xenova/bge-small-en-v1.5')!;
  expect(usableDtypes(spec, 'webgpu', gpu)).toEqual(['fp32', 'q8']);
  expect(usableDtypes(spec, 'webgpu', f16)).toEqual(['fp32', 'fp16', 'q8']);
  expect(usableDtypes(spec, 'wasm', f16)).toEqual(['fp32', 'q8']);
});

test('a software adapter (SwiftShader, llvmpipe…) is "prefer WASM" for auto, but WebGPU stays available on request', async () => {
  const probeOf = async (info: { vendor: string; architecture: string; description: string }) =>
    probeDevices({ navigator: { gpu: { requestAdapter: async () => adapter([], info) } } });
  // Headless chromium with --enable-unsafe-webgpu reports { vendor: 'google', architecture: 'swiftshader' }.
  const swiftshader = await probeOf({ vendor: 'google', architecture: 'swiftshader', description: '' });
  const llvmpipe = await probeOf({ vendor: 'mesa', architecture: '', description: 'llvmpipe (LLVM 15.0.6, 256 bits)' });
  const basic = await probeOf({ vendor: 'microsoft', architecture: '', description: 'Microsoft Basic Render Driver' });
  const nvidia = await probeOf(NVIDIA);
  for (const software of [swiftshader, llvmpipe, basic]) {
    expect(isSoftwareAdapter(software)).toBe(true);
    expect(chooseDevice(software)).toBe('wasm');
    expect(chooseDevice(software, 'auto')).toBe('wasm');
    expect(chooseDevice(software, 'webgpu')).toBe('webgpu');
  }
  expect(isSoftwareAdapter(nvidia)).toBe(false);
  expect(isSoftwareAdapter(await probeDevices({ navigator: {} }))).toBe(false);
  expect(chooseDevice(nvidia, 'auto')).toBe('webgpu');
});

test('device labels: a static table is a lookup on the CPU; WASM says its threads (1 without cross-origin isolation)', () => {
  expect(deviceLabel('cpu-lookup')).toBe('lookup on the CPU');
  expect(deviceLabel('wasm', 1)).toBe('wasm (1 thread)');
  expect(deviceLabel('wasm', 4)).toBe('wasm (4 threads)');
  expect(deviceLabel('wasm')).toBe('wasm');
  expect(deviceLabel('webgpu', 1)).toBe('webgpu');
});
