/**
 * One benchmark run as data: `bench/results/<date>-<benchmark>-<commit>.json`. Every `npm run bench:*`
 * writes one when it finishes; `npm run -s bench:table` (bench/table.ts) renders the current
 * figures from these files, so no measurement is copied into prose by hand.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { CHROMIUM } from '../tests/browser/harness.ts';
import { repoRoot } from '../tests/shared-dir.ts';

/** Where the runs are kept. */
export const RESULTS_DIR = join(repoRoot, 'bench', 'results');

/** A goal in the figure's unit: at most `max`, at least `min`; with `ofBestPeer`, `max` × the best peer's value. */
export interface FigureGoal {
  max?: number;
  min?: number;
  ofBestPeer?: boolean;
}

export interface BenchFigure {
  /** What was measured, self-contained (it is a row of the rendered table). */
  name: string;
  unit: string;
  /** The figure of this run. */
  value?: number;
  /** Several runs summarized in one file (older runs recorded as ranges): lowest and highest. */
  range?: [number, number];
  goal?: FigureGoal;
  /** The same measurement of other systems, by name (lower or higher is better as the goal says). */
  peers?: Record<string, number>;
  /** Every measurement when `value` is their median, in the order taken. */
  samples?: number[];
}

export interface BenchResult {
  /** The npm script's name after `bench:` (`app`, `bm25`, `embed`, `ann`, `rerank`, `import`). */
  benchmark: string;
  /** ISO 8601, UTC, to the minute where known. */
  date: string;
  /** The commit measured (`git rev-parse HEAD`), or null where it is not known. */
  commit: string | null;
  /** CPU, cores, memory, OS, Node (and browser) of the machine. */
  machine: string;
  /** The machine's 1-minute load average when the run finished (other work slows every figure). */
  loadAverage?: number;
  /** The command as run. */
  command?: string;
  /** A run of some steps only (`--only`, `--skip-*`): the renderer keeps the last full run's other figures. */
  partial?: boolean;
  /** How many runs a file of ranges summarizes. */
  runs?: number;
  note?: string;
  figures: BenchFigure[];
}

function commit(): string | null {
  try {
    const head = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: repoRoot, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { cwd: repoRoot, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    return dirty === '' ? head : `${head}+changes`;
  } catch {
    return null;
  }
}

function osName(): string {
  try {
    return /^PRETTY_NAME="?([^"\n]*)"?$/m.exec(readFileSync('/etc/os-release', 'utf8'))?.[1] ?? process.platform;
  } catch {
    return process.platform;
  }
}

/** "Intel(R) Xeon(R) Processor, 2 cores, 24 GiB, Debian GNU/Linux 12 (bookworm), Node v20.20.2[, <browser>]". */
function machineDescription(browser?: string): string {
  const cpu = cpus()[0]?.model.trim() ?? 'unknown CPU';
  const parts = [cpu, `${cpus().length} cores`, `${Math.round(totalmem() / 2 ** 30)} GiB`, osName(), `Node ${process.version}`];
  if (browser) parts.push(browser);
  return parts.join(', ');
}

/** The version line of the chromium the benchmarks drive ("Chromium 156.0.8078.108 built on Debian …"), headless. */
export function chromiumVersion(): string {
  try {
    return `${execFileSync(CHROMIUM, ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim()}, headless`;
  } catch {
    return 'Chromium (version unknown), headless';
  }
}

/** JSON with one line per figure, so a diff of two runs reads row by row. */
export function formatBenchResult(result: BenchResult): string {
  const lines = Object.entries(result).map(([key, value]) =>
    key === 'figures' ? ` "figures": [\n${(value as BenchFigure[]).map((figure) => `  ${JSON.stringify(figure)}`).join(',\n')}\n ]` : ` ${JSON.stringify(key)}: ${JSON.stringify(value)}`,
  );
  return `{\n${lines.join(',\n')}\n}\n`;
}

/** Writes one run (date, commit and machine filled in here) and returns the file's path. */
export function writeBenchResult(run: { benchmark: string; figures: BenchFigure[]; partial?: boolean; note?: string; browser?: string }, dir = RESULTS_DIR): string {
  const date = new Date().toISOString().slice(0, 16) + 'Z';
  const sha = commit();
  const result: BenchResult = {
    benchmark: run.benchmark,
    date,
    commit: sha,
    machine: machineDescription(run.browser),
    loadAverage: Number(loadavg()[0]!.toFixed(2)),
    command: `npm run bench:${run.benchmark}${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`,
    ...(run.partial ? { partial: true } : {}),
    ...(run.note ? { note: run.note } : {}),
    figures: run.figures,
  };
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `${date.slice(0, 16).replace(/:/g, '')}-${run.benchmark}-${(sha ?? 'nocommit').slice(0, 7)}.json`);
  writeFileSync(path, formatBenchResult(result));
  process.stderr.write(`results written to ${path}\n`);
  return path;
}
