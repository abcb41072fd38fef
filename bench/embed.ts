/**
 * `npm run bench:embed [-- --json] [--docs N] [--naive-docs N] [--webgpu-docs N] [--skip-browser] [--skip-build]`: embedding throughput
 * (documents per second) of the project's static model (local/glove-100d-sif) and tiny transformer
 * (local/tiny-bert) on SciFact documents:
 *   - Node: onnxruntime-node (CPU) through transformers.js, as the CLI runs;
 *   - Chromium (Debian's, headless): onnxruntime-web WASM, and WebGPU when an adapter exists, through the
 *     real embedding worker of the built app (diagnostics page).
 * Each run compares adaptive batching (longest first) and a fixed batch-size sweep against the naive loop
 * (one pipeline call per document, same model, dtype and pooling) on an evenly spread sample of the same
 * documents (same length distribution). Timings are warm (every mode runs once, untimed, on a sample as
 * large as the largest batch before any row is timed); the cold first batch of 8 documents is reported apart
 * (WebGPU shader compilation).
 * `ratios.vs_naive` = adaptive docs/s ÷ naive docs/s per (runtime, model, device); the goal is ≥ 2 for
 * models with an ONNX session. The default static model (a lookup and an average in TypeScript, device
 * `cpu-lookup`) has nothing to batch — its embed and its naive loop do the same per-text work — so its
 * rows are reported (ratio ≈ 1) but exempt from that goal.
 *
 * `static` (issue 9): the CLI's default model on all of SciFact's 5,183 documents in Node — model load
 * time and docs/s of the first pass (cold JIT) and the best of three; goals ≥ 20,000 docs/s, load ≤ 1 s.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { build, preview } from 'vite';
import { loadNodeEmbedder, resolveNodeModel } from '../src/cli/dense.ts';
import { passageText } from '../src/lib/dense/embedding-text.ts';
import type { EmbedBenchResult, EmbedBenchRow } from '../src/diagnostics/api.ts';
import { strideSample } from '../src/diagnostics/stride-sample.ts';
import type { DiagnosticsApi } from '../src/diagnostics/api.ts';
import { buildModels } from '../scripts/models/build-models.ts';
import { launch, waitInPage } from '../tests/browser/harness.ts';
import { repoRoot, shared } from '../tests/shared-dir.ts';
import { chromiumVersion, writeBenchResult, type BenchFigure } from './results-file.ts';

declare global {
  interface Window {
    rpDiagnostics: DiagnosticsApi;
  }
}

const MODELS = ['local/glove-100d-sif', 'local/tiny-bert'] as const;
const SWEEP = [8, 32, 128];

interface BenchRun extends EmbedBenchResult {
  runtime: 'node' | 'chromium';
}

function scifactTexts(count: number): string[] {
  const lines = readFileSync(shared('beir', 'scifact', 'corpus.jsonl'), 'utf8').trim().split('\n').slice(0, count);
  return lines.map((line) => {
    const d = JSON.parse(line) as { _id: string; title?: string; text?: string };
    return passageText({ id: d._id, title: d.title ?? '', text: d.text ?? '' }, { passagePrefix: '' });
  });
}

async function timeRow(mode: EmbedBenchRow['mode'], batchSize: number | 'auto', docs: number, run: () => Promise<unknown>): Promise<EmbedBenchRow> {
  const t0 = performance.now();
  await run();
  const ms = performance.now() - t0;
  return { mode, batchSize, docs, ms, docsPerSecond: docs / (ms / 1000) };
}

async function benchNode(model: string, texts: string[], naiveDocs: number): Promise<BenchRun> {
  // fp32 where the model has it; the static table's one dtype (q8) otherwise.
  const loadStart = performance.now();
  const embedder = await loadNodeEmbedder(resolveNodeModel(model), 'fp32');
  const loadMs = performance.now() - loadStart;
  const t0 = performance.now();
  await embedder.embed(texts.slice(0, 8), { batchSize: 8 });
  const coldMs = performance.now() - t0;
  const naive = strideSample(texts, naiveDocs);
  // Untimed, as in the browser (src/diagnostics/api.ts benchEmbed): every mode once over a sample as large as
  // the largest batch, so no timed row pays a first run.
  const warm = strideSample(texts, Math.max(64, ...SWEEP));
  await embedder.embedEach(warm.slice(0, 8));
  await embedder.embed(warm);
  for (const size of SWEEP) await embedder.embed(warm, { batchSize: size });
  const rows = [await timeRow('naive', 1, naive.length, () => embedder.embedEach(naive))];
  rows.push(await timeRow('batched', 'auto', texts.length, () => embedder.embed(texts)));
  for (const size of SWEEP) rows.push(await timeRow('batched', size, texts.length, () => embedder.embed(texts, { batchSize: size })));
  await embedder.dispose();
  return { runtime: 'node', model, device: embedder.device, dtype: embedder.dtype, loadMs, coldMs, rows };
}

interface StaticFigures {
  model: string;
  docs: number;
  loadMs: number;
  firstPassDocsPerSecond: number;
  bestDocsPerSecond: number;
  goal: { minDocsPerSecond: number; maxLoadMs: number; met: boolean };
}

/** The default static model on every SciFact document, as the CLI embeds them. */
async function benchStatic(allTexts: string[]): Promise<StaticFigures> {
  const model = MODELS[0];
  const t0 = performance.now();
  const embedder = await loadNodeEmbedder(resolveNodeModel(model));
  const loadMs = performance.now() - t0;
  const rates: number[] = [];
  for (let pass = 0; pass < 3; pass++) {
    const start = performance.now();
    await embedder.embed(allTexts);
    rates.push(allTexts.length / ((performance.now() - start) / 1000));
  }
  await embedder.dispose();
  const bestDocsPerSecond = Math.max(...rates);
  const goal = { minDocsPerSecond: 20_000, maxLoadMs: 1000 };
  return { model, docs: allTexts.length, loadMs, firstPassDocsPerSecond: rates[0]!, bestDocsPerSecond, goal: { ...goal, met: bestDocsPerSecond >= goal.minDocsPerSecond && loadMs <= goal.maxLoadMs } };
}

/** Static tables have nothing to batch: their ratio to the naive loop is no goal. */
function batchable(run: BenchRun): boolean {
  return run.device !== 'cpu-lookup';
}

async function benchChromium(texts: string[], naiveDocs: number, webgpuDocs: number, skipBuild: boolean, log: (m: string) => void): Promise<{ runs: BenchRun[]; adapter: string }> {
  if (!skipBuild) {
    log('building the app (vite build)…');
    await build({ root: repoRoot, logLevel: 'warn' });
  }
  const server = await preview({ root: repoRoot, logLevel: 'warn', preview: { port: 0, host: '127.0.0.1', strictPort: false } });
  const url = server.resolvedUrls?.local[0]?.replace(/\/$/, '');
  if (!url) throw new Error('vite preview did not report a URL');
  const session = await launch({ asUser: true });
  try {
    await session.page.goto(`${url}/diagnostics.html`);
    await waitInPage(session.page, () => typeof window.rpDiagnostics === 'object', undefined, { timeout: 30_000 });
    const probe = await session.page.evaluate(() => window.rpDiagnostics.probe());
    const devices = probe.webgpu ? (['wasm', 'webgpu'] as const) : (['wasm'] as const);
    const runs: BenchRun[] = [];
    for (const model of MODELS) {
      // The static model runs as a lookup on the CPU whatever device is asked for: once is enough.
      for (const device of model === 'local/glove-100d-sif' ? (['wasm'] as const) : devices) {
        log(`chromium ${model} on ${device}…`);
        // SwiftShader (a CPU-emulated GPU) is slow: WebGPU gets a smaller, evenly spread sample.
        const gpu = device === 'webgpu';
        const result = await session.page.evaluate((req) => window.rpDiagnostics.benchEmbed(req), {
          model,
          device,
          dtype: 'fp32' as const,
          texts: gpu ? strideSample(texts, webgpuDocs) : texts,
          batchSizes: SWEEP,
          naiveDocs: gpu ? Math.min(naiveDocs, Math.ceil(webgpuDocs / 4)) : naiveDocs,
        });
        runs.push({ runtime: 'chromium', ...result });
      }
    }
    const adapter = probe.webgpu ? `${probe.adapter?.vendor ?? ''} ${probe.adapter?.architecture ?? ''}`.trim() : `none (${probe.webgpuError ?? ''})`;
    return { runs, adapter };
  } finally {
    await session.close();
    await server.close();
  }
}

function ratioKey(run: BenchRun): string {
  return `${run.runtime}/${run.model}/${run.device}`;
}

function vsNaive(run: BenchRun): number {
  const naive = run.rows.find((r) => r.mode === 'naive')!.docsPerSecond;
  const auto = run.rows.find((r) => r.mode === 'batched' && r.batchSize === 'auto')!.docsPerSecond;
  return auto / naive;
}

/** The default model's load and docs/s; each run's adaptive batching with the naive loop as its peer (goal ≥ 2× it where batching applies). */
function resultFigures(s: StaticFigures, runs: BenchRun[]): BenchFigure[] {
  const figures: BenchFigure[] = [
    { name: `default model load (${s.model}, Node)`, unit: 'ms', value: s.loadMs, goal: { max: s.goal.maxLoadMs } },
    { name: `default model, all ${s.docs} SciFact documents, best of 3 (Node)`, unit: 'docs/s', value: s.bestDocsPerSecond, goal: { min: s.goal.minDocsPerSecond } },
  ];
  for (const run of runs) {
    const docsPerSecond = (mode: 'naive' | 'batched') => run.rows.find((r) => r.mode === mode && (mode === 'naive' || r.batchSize === 'auto'))!.docsPerSecond;
    figures.push({
      name: `embedding, adaptive batches (${run.runtime} / ${run.model} / ${run.device})`,
      unit: 'docs/s',
      value: docsPerSecond('batched'),
      ...(batchable(run) ? { goal: { min: 2, ofBestPeer: true } } : {}),
      peers: { 'naive loop': docsPerSecond('naive') },
    });
  }
  return figures;
}

/** Results go to stdout; everything else (progress, library chatter) to stderr. */
function print(text: string): void {
  process.stdout.write(`${text}\n`);
}

function printTable(runs: BenchRun[]): void {
  print('| runtime | model | device | mode | batch | docs | docs/s | × naive |');
  print('|---|---|---|---|---:|---:|---:|---:|');
  for (const run of runs) {
    const naive = run.rows.find((r) => r.mode === 'naive')!.docsPerSecond;
    for (const r of run.rows) {
      print(`| ${run.runtime} | ${run.model} | ${run.device} | ${r.mode} | ${r.batchSize} | ${r.docs} | ${r.docsPerSecond.toFixed(0)} | ${(r.docsPerSecond / naive).toFixed(2)} |`);
    }
  }
  print('\n| runtime | model | device | model load in a fresh worker ms | cold first batch (8 docs) ms |');
  print('|---|---|---|---:|---:|');
  for (const run of runs) print(`| ${run.runtime} | ${run.model} | ${run.device} | ${run.loadMs.toFixed(0)} | ${run.coldMs.toFixed(0)} |`);
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      json: { type: 'boolean', default: false },
      docs: { type: 'string', default: '1000' },
      'naive-docs': { type: 'string', default: '250' },
      'webgpu-docs': { type: 'string', default: '160' },
      'skip-browser': { type: 'boolean', default: false },
      'skip-build': { type: 'boolean', default: false },
    },
  });
  const log = (message: string) => process.stderr.write(`${message}\n`);
  // Libraries print progress with console.log (hnswlib-wasm's file-system messages): keep stdout for the
  // result alone, so --json output is one parseable object.
  console.log = (...args: unknown[]) => process.stderr.write(`${args.map(String).join(' ')}\n`);
  buildModels({ only: ['glove-100d-sif', 'tiny-bert'] });
  const allTexts = scifactTexts(Number.POSITIVE_INFINITY);
  const texts = allTexts.slice(0, Number(values.docs));
  const naiveDocs = Number(values['naive-docs']);
  log(`node ${MODELS[0]} on all ${allTexts.length} SciFact documents…`);
  const staticFigures = await benchStatic(allTexts);
  const runs: BenchRun[] = [];
  for (const model of MODELS) {
    log(`node ${model}…`);
    runs.push(await benchNode(model, texts, naiveDocs));
  }
  let adapter = 'not run';
  if (!values['skip-browser']) {
    const chromium = await benchChromium(texts, naiveDocs, Number(values['webgpu-docs']), values['skip-build'], log);
    runs.push(...chromium.runs);
    adapter = chromium.adapter;
  }
  const ratios = { vs_naive: Object.fromEntries(runs.map((run) => [ratioKey(run), vsNaive(run)])) };
  const exempt = runs.filter((run) => !batchable(run)).map(ratioKey);
  const goalMet = runs.filter(batchable).every((run) => vsNaive(run) >= 2);
  writeBenchResult({
    benchmark: 'embed',
    partial: values['skip-browser'],
    ...(values['skip-browser'] ? {} : { browser: `${chromiumVersion()}, WebGPU adapter: ${adapter}` }),
    figures: resultFigures(staticFigures, runs),
  });
  if (values.json) {
    print(
      JSON.stringify(
        { bench: 'embed', docs: texts.length, naiveDocs, webgpuAdapter: adapter, static: staticFigures, runs, ratios, goal: { minVsNaive: 2, exempt, met: goalMet } },
        null,
        1,
      ),
    );
  } else {
    const s = staticFigures;
    print(`CLI default model ${s.model} (int8 table, a lookup on the CPU) on all ${s.docs} SciFact documents:`);
    print(`  model load ${s.loadMs.toFixed(0)} ms (goal ≤ ${s.goal.maxLoadMs}); ${s.bestDocsPerSecond.toFixed(0)} docs/s best of 3, ${s.firstPassDocsPerSecond.toFixed(0)} docs/s first pass (goal ≥ ${s.goal.minDocsPerSecond}): ${s.goal.met ? 'met' : 'NOT met'}\n`);
    print(`SciFact documents: ${texts.length} (naive loop: ${naiveDocs} spread over them); WebGPU adapter: ${adapter}\n`);
    printTable(runs);
    print(`\nadaptive vs naive: ${Object.entries(ratios.vs_naive).map(([k, r]) => `${k} ${r.toFixed(1)}×`).join(', ')}`);
    print(`goal ≥ 2× the naive loop for models with a session: ${goalMet ? 'met' : 'NOT met'}${exempt.length > 0 ? ` (exempt, nothing to batch in a lookup: ${exempt.join(', ')})` : ''}`);
  }
}

await main();
