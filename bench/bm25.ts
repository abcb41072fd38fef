/**
 * `npm run bench:bm25 [-- --json] [--x50] [--scales 1,10] [--systems wasm,ts,…] [--query-budget-s 15]`:
 * BM25 index build time, index memory and query latency of our WebAssembly kernel, our TypeScript reference, MiniSearch,
 * wink-bm25-text-search and Orama on SciFact (5,183 docs, the 300 test queries, top 1000) and on synthetic
 * scale-ups (the corpus repeated ×10 and ×50, copies with new ids), plus nDCG@10 on SciFact so that speed
 * is never bought with wrong rankings. Every system indexes the same EnglishAnalyzer tokens (see
 * bm25-systems.ts for how each library is fed and what scoring it forces).
 *
 * Each system × scale runs in its own Node process (bench/bm25-run.ts: clean heap, GC exposed for the
 * memory figure, a crash or timeout is reported rather than fatal). Ratios are ours ÷ the best of the
 * JavaScript libraries (MiniSearch, wink, Orama); below 1 is better.
 *
 * By default the scales are ×1 and ×10 with a 15 s query budget per system and scale, so the whole run
 * takes under 5 minutes on a 2-core machine; `--x50` adds the ×50 scale-up and gives the slow libraries a
 * 120 s budget (about half an hour: the peers need seconds per query and minutes to index there).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { repoRoot } from '../tests/shared-dir.ts';
import { writeAnalyzedSciFact } from './bm25-data.ts';
import type { RunFigures } from './bm25-run.ts';
import { SYSTEMS, type SystemKey } from './bm25-systems.ts';
import { writeBenchResult, type BenchFigure } from './results-file.ts';

const { values } = parseArgs({
  options: {
    json: { type: 'boolean', default: false },
    x50: { type: 'boolean', default: false },
    scales: { type: 'string' },
    systems: { type: 'string', default: SYSTEMS.map((system) => system.key).join(',') },
    'timeout-min': { type: 'string', default: '30' },
    'query-budget-s': { type: 'string' },
  },
});

const scales = (values.scales ?? (values.x50 ? '1,10,50' : '1,10')).split(',').map(Number);
const queryBudgetS = values['query-budget-s'] ?? (values.x50 ? '120' : '15');
const systems = values.systems.split(',').map((key) => {
  const info = SYSTEMS.find((system) => system.key === key);
  if (!info) throw new Error(`unknown system ${key} (known: ${SYSTEMS.map((s) => s.key).join(', ')})`);
  return info;
});
const timeoutMs = Number(values['timeout-min']) * 60_000;

type Outcome = RunFigures | { error: string };

function runOne(dataPath: string, system: SystemKey, scale: number): Promise<Outcome> {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      ['--expose-gc', '--max-old-space-size=12288', '--import', 'tsx', join(repoRoot, 'bench', 'bm25-run.ts'), dataPath, system, String(scale), queryBudgetS],
      { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const line = stdout.trim().split('\n').at(-1);
      if (code === 0 && line) return resolve(JSON.parse(line) as RunFigures);
      const reason = signal === 'SIGKILL' ? `timeout after ${values['timeout-min']} min` : /heap out of memory/i.test(stderr) ? 'out of memory' : `exit ${code ?? signal}`;
      resolve({ error: reason });
    });
  });
}

const ms = (value: number) => (value >= 100 ? value.toFixed(0) : value >= 1 ? value.toFixed(2) : value.toFixed(3));
const mb = (bytes: number) => (bytes / 2 ** 20).toFixed(1);
const ratio = (value: number | null) => (value === null ? 'n/a' : value.toFixed(3));

interface ScaleRatios {
  query_vs_best_peer: number | null;
  build_vs_best_peer: number | null;
  best_query_peer: SystemKey | null;
  best_build_peer: SystemKey | null;
  query_vs_ts_reference: number | null;
  build_vs_ts_reference: number | null;
}

function ratiosAt(results: Map<SystemKey, Map<number, Outcome>>, scale: number): ScaleRatios {
  const ok = (key: SystemKey) => {
    const outcome = results.get(key)?.get(scale);
    return outcome && !('error' in outcome) ? outcome : undefined;
  };
  const peers = SYSTEMS.filter((system) => system.peer).flatMap((system) => {
    const figures = ok(system.key);
    return figures ? [figures] : [];
  });
  const ours = ok('wasm');
  const ts = ok('ts');
  const bestQuery = peers.length ? peers.reduce((best, p) => (p.query_ms_mean < best.query_ms_mean ? p : best)) : undefined;
  const bestBuild = peers.length ? peers.reduce((best, p) => (p.index_ms < best.index_ms ? p : best)) : undefined;
  return {
    query_vs_best_peer: ours && bestQuery ? ours.query_ms_mean / bestQuery.query_ms_mean : null,
    build_vs_best_peer: ours && bestBuild ? ours.index_ms / bestBuild.index_ms : null,
    best_query_peer: bestQuery?.system ?? null,
    best_build_peer: bestBuild?.system ?? null,
    query_vs_ts_reference: ours && ts ? ours.query_ms_mean / ts.query_ms_mean : null,
    build_vs_ts_reference: ours && ts ? ours.index_ms / ts.index_ms : null,
  };
}

function machine(): string {
  const cpu = cpus()[0]?.model.trim() ?? 'unknown CPU';
  return `${cpu}, ${cpus().length} cores, ${(totalmem() / 2 ** 30).toFixed(0)} GiB RAM, Node ${process.version}, ${process.platform}/${process.arch}`;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-bm25-'));
  try {
    const dataPath = join(dir, 'scifact-analyzed.json');
    console.error('analyzing SciFact (EnglishAnalyzer)…');
    await writeAnalyzedSciFact(dataPath);
    const results = new Map<SystemKey, Map<number, Outcome>>();
    for (const scale of scales) {
      for (const system of systems) {
        console.error(`  ×${scale} ${system.label}…`);
        const outcome = await runOne(dataPath, system.key, scale);
        if (!results.has(system.key)) results.set(system.key, new Map());
        results.get(system.key)!.set(scale, outcome);
        if ('error' in outcome) console.error(`    ${outcome.error}`);
      }
    }
    const ratios = Object.fromEntries(scales.map((scale) => [`x${scale}`, ratiosAt(results, scale)]));
    writeBenchResult({ benchmark: 'bm25', partial: values.systems !== SYSTEMS.map((system) => system.key).join(','), figures: resultFigures(results) });
    if (values.json) {
      const systemsJson = Object.fromEntries(
        systems.map((system) => [
          system.key,
          Object.fromEntries(
            scales.map((scale) => {
              const outcome = results.get(system.key)!.get(scale)!;
              if ('error' in outcome) return [`x${scale}`, { error: outcome.error }];
              const { index_ms, index_bytes, query_ms_mean, query_ms_p95, ndcg_cut_10, docs, samples } = outcome;
              return [`x${scale}`, { docs, index_ms, index_bytes, query_ms_mean, query_ms_p95, ndcg_cut_10, queries_timed: samples }];
            }),
          ),
        ]),
      );
      process.stdout.write(`${JSON.stringify({ machine: machine(), k: 1000, queries: 300, systems: systemsJson, ratios })}\n`);
      return;
    }
    printTable(results, ratios);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Ours (the WASM kernel) with the JavaScript libraries as peers, per scale: query mean, build, index memory; nDCG@10 at ×1. */
function resultFigures(results: Map<SystemKey, Map<number, Outcome>>): BenchFigure[] {
  const figures: BenchFigure[] = [];
  const at = (key: SystemKey, scale: number) => {
    const outcome = results.get(key)?.get(scale);
    return outcome && !('error' in outcome) ? outcome : undefined;
  };
  const peerKeys = systems.filter((system) => system.key !== 'wasm' && system.key !== 'ts');
  const peersOf = (scale: number, pick: (outcome: RunFigures) => number | null) =>
    Object.fromEntries(peerKeys.flatMap((system) => {
      const outcome = at(system.key, scale);
      const value = outcome ? pick(outcome) : null;
      return value === null ? [] : [[system.label, value]];
    }));
  for (const scale of scales) {
    const ours = at('wasm', scale);
    if (!ours) continue;
    const corpus = `SciFact ×${scale}`;
    figures.push({ name: `BM25 query, mean, top 1000 (${corpus})`, unit: 'ms', value: ours.query_ms_mean, goal: { max: 0.5, ofBestPeer: true }, peers: peersOf(scale, (o) => o.query_ms_mean) });
    figures.push({ name: `BM25 index build (${corpus})`, unit: 'ms', value: ours.index_ms, goal: { max: 0.5, ofBestPeer: true }, peers: peersOf(scale, (o) => o.index_ms) });
    figures.push({ name: `BM25 index memory (${corpus})`, unit: 'MiB', value: ours.index_bytes / 2 ** 20, peers: peersOf(scale, (o) => o.index_bytes / 2 ** 20) });
    if (ours.ndcg_cut_10 !== null) figures.push({ name: `BM25 nDCG@10 (${corpus} test)`, unit: '', value: ours.ndcg_cut_10, goal: { min: 0.6789 }, peers: peersOf(scale, (o) => o.ndcg_cut_10) });
  }
  return figures;
}

function printTable(results: Map<SystemKey, Map<number, Outcome>>, ratios: Record<string, ScaleRatios>): void {
  const lines: string[] = [];
  lines.push(`Machine: ${machine()}`);
  lines.push('SciFact (5,183 docs) and copies ×10 / ×50; 300 test queries, top 1000, warm; same EnglishAnalyzer tokens everywhere.');
  lines.push('');
  lines.push('| system | scale | docs | build ms | index MB | query ms mean | query ms p95 | timed | nDCG@10 |');
  lines.push('|---|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const scale of scales) {
    for (const system of systems) {
      const outcome = results.get(system.key)!.get(scale)!;
      if ('error' in outcome) {
        lines.push(`| ${system.label} | ×${scale} | | ${outcome.error} | | | | | |`);
        continue;
      }
      const ndcg = outcome.ndcg_cut_10 === null ? '' : outcome.ndcg_cut_10.toFixed(4);
      lines.push(
        `| ${system.label} | ×${scale} | ${outcome.docs} | ${ms(outcome.index_ms)} | ${mb(outcome.index_bytes)} | ${ms(outcome.query_ms_mean)} | ${ms(outcome.query_ms_p95)} | ${outcome.samples} | ${ndcg} |`,
      );
    }
  }
  lines.push('');
  lines.push('Ratios, ours (WASM) ÷ best JavaScript library (goal: query ≤ 0.5, build ≤ 0.5):');
  lines.push('');
  lines.push('| scale | query vs best peer | build vs best peer | query vs TS reference | build vs TS reference |');
  lines.push('|---:|---:|---:|---:|---:|');
  for (const scale of scales) {
    const r = ratios[`x${scale}`]!;
    lines.push(
      `| ×${scale} | ${ratio(r.query_vs_best_peer)} (${r.best_query_peer ?? '–'}) | ${ratio(r.build_vs_best_peer)} (${r.best_build_peer ?? '–'}) | ${ratio(r.query_vs_ts_reference)} | ${ratio(r.build_vs_ts_reference)} |`,
    );
  }
  lines.push('');
  lines.push('Scoring as configured / forced by each system:');
  for (const system of systems) lines.push(`- ${system.label}: ${system.notes}`);
  lines.push('');
  lines.push('Build: median of 3 at ×1, one build above. Index MB: growth of V8 heap + external memory (typed arrays,');
  lines.push('WebAssembly memory) over the build, after a full GC. Timed: searches timed (300 queries × up to 3 passes,');
  lines.push(`cut short after ${queryBudgetS} s for systems needing seconds per query).`);
  console.log(lines.join('\n'));
}

await main();
