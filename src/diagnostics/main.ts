/**
 * The diagnostics page (diagnostics.html): device probe, embedding self-test (WASM vs WebGPU) and an
 * in-browser benchmark. Exposes its API as `window.rpDiagnostics` for browser tests and bench:embed.
 */
import { diagnosticsApi, type EmbedBenchResult } from './api.ts';
import { SELF_TEST_TEXTS } from './self-test-texts.ts';

declare global {
  interface Window {
    rpDiagnostics: typeof diagnosticsApi;
  }
}
window.rpDiagnostics = diagnosticsApi;

const SELF_TEST_MODELS = ['local/tiny-bert', 'local/glove-100d-sif'];

function element(id: string): HTMLElement {
  const el = document.getElementById(id);
  if (!el) throw new Error(`diagnostics.html has no #${id}`);
  return el;
}

function log(message: string): void {
  element('log').textContent += `${new Date().toISOString().slice(11, 19)} ${message}\n`;
}

function formatNumber(x: number): string {
  if (Number.isNaN(x)) return '—';
  if (Number.isInteger(x)) return String(x);
  if (Math.abs(x) < 0.01) return x.toExponential(1);
  return x.toFixed(Math.abs(x) < 10 ? 2 : 0);
}

function table(headers: string[], rows: Array<Array<string | number>>): HTMLTableElement {
  const t = document.createElement('table');
  const head = t.createTHead().insertRow();
  for (const h of headers) head.appendChild(document.createElement('th')).textContent = h;
  const body = t.createTBody();
  for (const row of rows) {
    const tr = body.insertRow();
    for (const cell of row) {
      const td = tr.insertCell();
      td.textContent = typeof cell === 'number' ? formatNumber(cell) : cell;
      if (typeof cell === 'number') td.className = 'num';
    }
  }
  return t;
}

async function showProbe(): Promise<void> {
  const probe = await diagnosticsApi.probe();
  const adapter = probe.adapter ? `${probe.adapter.vendor} ${probe.adapter.architecture} ${probe.adapter.description}`.trim() : '';
  element('probe').replaceChildren(
    table(
      ['check', 'result'],
      [
        ['WebGPU adapter', probe.webgpu ? `yes ${adapter}` : `no (${probe.webgpuError ?? 'unknown'})`],
        ['shader-f16 (fp16 weights)', probe.shaderF16 ? 'yes' : 'no'],
        ['cross-origin isolated (WASM threads)', probe.crossOriginIsolated ? 'yes' : 'no'],
        ['logical cores', probe.hardwareConcurrency],
      ],
    ),
  );
  element('probe').dataset.webgpu = String(probe.webgpu);
}

function maxAbsDiff(a: number[][], b: number[][]): number {
  let max = 0;
  a.forEach((row, r) => row.forEach((x, i) => (max = Math.max(max, Math.abs(x - (b[r]?.[i] ?? Number.NaN))))));
  return max;
}

async function selfTest(): Promise<void> {
  const rows: Array<Array<string | number>> = [];
  const texts = [...SELF_TEST_TEXTS];
  for (const model of SELF_TEST_MODELS) {
    log(`self-test ${model} on wasm…`);
    const wasm = await diagnosticsApi.embedTexts({ model, device: 'wasm', dtype: 'fp32', texts });
    log(`self-test ${model} on webgpu…`);
    const gpu = await diagnosticsApi.embedTexts({ model, device: 'webgpu', dtype: 'fp32', texts });
    const diff = gpu.device === 'webgpu' ? maxAbsDiff(wasm.vectors, gpu.vectors) : Number.NaN;
    const verdict =
      gpu.device === 'cpu-lookup'
        ? 'static table: a lookup on the CPU on every device'
        : gpu.device !== 'webgpu'
          ? `WebGPU unavailable: ${gpu.fallbackReason ?? 'no adapter'}`
          : diff <= 1e-4
            ? 'ok'
            : 'MISMATCH';
    rows.push([model, wasm.vectors[0]?.length ?? 0, wasm.embedMs, gpu.device === 'webgpu' ? gpu.embedMs : '—', diff, verdict]);
  }
  const result = table(['model', 'dim', 'wasm ms', 'webgpu ms', 'max |Δ|', 'verdict'], rows);
  element('selftest').replaceChildren(result);
  element('selftest').dataset.done = 'true';
}

function benchRows(result: EmbedBenchResult): Array<Array<string | number>> {
  const naive = result.rows.find((r) => r.mode === 'naive')?.docsPerSecond ?? Number.NaN;
  return result.rows.map((r) => [result.model, result.device, result.dtype, r.mode, String(r.batchSize), r.docs, r.docsPerSecond, r.docsPerSecond / naive]);
}

async function bench(): Promise<void> {
  const base = [...SELF_TEST_TEXTS];
  const texts = Array.from({ length: 256 }, (_, i) => `${base[i % base.length]} #${i}`);
  const probe = await diagnosticsApi.probe();
  const devices = probe.webgpu ? (['wasm', 'webgpu'] as const) : (['wasm'] as const);
  const rows: Array<Array<string | number>> = [];
  for (const model of SELF_TEST_MODELS) {
    for (const device of devices) {
      log(`bench ${model} on ${device}…`);
      const result = await diagnosticsApi.benchEmbed({ model, device, dtype: 'fp32', texts, batchSizes: [8, 32, 128], naiveDocs: 64 });
      rows.push(...benchRows(result));
    }
  }
  element('bench').replaceChildren(table(['model', 'device', 'dtype', 'mode', 'batch', 'docs', 'docs/s', '× naive'], rows));
}

function button(id: string, action: () => Promise<void>): void {
  const b = element(id) as HTMLButtonElement;
  b.addEventListener('click', () => {
    b.disabled = true;
    action()
      .catch((error: unknown) => log(`error: ${error instanceof Error ? error.message : String(error)}`))
      .finally(() => (b.disabled = false));
  });
}

button('run-selftest', selfTest);
button('run-bench', bench);
showProbe().catch((error: unknown) => log(`probe failed: ${String(error)}`));
