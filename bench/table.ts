/**
 * `npm run -s bench:table [-- --dir <folder>] [-- --readme]`: the current benchmark figures as one Markdown
 * table, rendered from the runs in bench/results/ (bench/results-file.ts): per benchmark the latest full
 * run, with the figures of any later partial run (`--only`, `--skip-*`) on top. `--readme` writes the table
 * into README.md between its `<!-- bench:table -->` and `<!-- /bench:table -->` lines instead of printing it,
 * with the headline figures only (README_FIGURES); the printed table has every figure.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { RESULTS_DIR, type BenchFigure, type BenchResult } from './results-file.ts';
import { repoRoot } from '../tests/shared-dir.ts';

/** Every run in `dir`, oldest first (by date, then file name). */
export function readResults(dir: string): BenchResult[] {
  return readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => ({ name, result: JSON.parse(readFileSync(join(dir, name), 'utf8')) as BenchResult }))
    .sort((a, b) => (a.result.date < b.result.date ? -1 : a.result.date > b.result.date ? 1 : a.name < b.name ? -1 : 1))
    .map(({ result }) => result);
}

export interface CurrentFigure {
  benchmark: string;
  figure: BenchFigure;
  run: BenchResult;
}

/** The table's order of benchmarks; others follow by name. */
const ORDER = ['app', 'bm25', 'embed', 'ann', 'rerank', 'import'];
const rank = (benchmark: string) => (ORDER.includes(benchmark) ? ORDER.indexOf(benchmark) : ORDER.length);

/** Per benchmark (app, bm25, embed, ann, rerank, import, then others by name): the latest full run's figures, updated by later partial runs. */
export function currentFigures(results: readonly BenchResult[]): CurrentFigure[] {
  const benchmarks = [...new Set(results.map((run) => run.benchmark))].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
  return benchmarks.flatMap((benchmark) => {
    const runs = results.filter((run) => run.benchmark === benchmark);
    const lastFull = runs.findLastIndex((run) => !run.partial);
    const figures = new Map<string, CurrentFigure>();
    for (const run of runs.slice(Math.max(0, lastFull))) for (const figure of run.figures) figures.set(figure.name, { benchmark, figure, run });
    return [...figures.values()];
  });
}

/** Per benchmark, the figures the README shows (by name); a benchmark not named here shows every figure. */
export const README_FIGURES: Readonly<Record<string, RegExp>> = {
  app: /^(dist\/ size|first visit: every default|SciFact download|SciFact first open|Evaluate: 3 default|typed query → all|SciFact stored, browser restarted|51,830-document|then Explore ready|Learn: SciFact train)|^SciFact ×\d+ .*: (import|then Explore ready|typed query →|evaluate|peak JavaScript heap|stored \(documents)/,
  bm25: /^BM25 (query|index build), .*\(SciFact ×(1|50)\)$|^BM25 nDCG@10/,
  embed: /^default model, all|chromium \/ local\/glove/,
  ann: /^HNSW (recall@10|search), efSearch 128 \(scifact \(/,
  import: /^import: throughput/,
  augment: /^(Training|nDCG@10, augmented|R@100, augmented|Terms per query|Search per query).*\(SciFact train → test, english, GloVe frozen\)/,
  tune: /every point|coordinate search|wsum/,
  exact: /top-10 of (one query.*median|300 queries)/,
};

/** Whether the README shows `current`'s figure (README_FIGURES). */
export function inReadme({ benchmark, figure }: CurrentFigure): boolean {
  return README_FIGURES[benchmark]?.test(figure.name) ?? true;
}

/** 1,234 · 56.7 · 2.83 · 0.062: three significant figures or more, thousands separated. */
export function formatNumber(value: number): string {
  if (Number.isInteger(value) || Math.abs(value) >= 100) return Math.round(value).toLocaleString('en-US');
  if (Math.abs(value) >= 10) return value.toFixed(1);
  if (Math.abs(value) >= 1) return value.toFixed(2);
  return String(Number(value.toFixed(4)));
}

const withUnit = (text: string, unit: string) => (unit === '' ? text : `${text} ${unit}`);

function valueText(figure: BenchFigure): string {
  if (figure.range) return withUnit(`${formatNumber(figure.range[0])}–${formatNumber(figure.range[1])}`, figure.unit);
  return figure.value === undefined ? '' : withUnit(formatNumber(figure.value), figure.unit);
}

/** The goal's bound in the figure's unit (× the best peer for `ofBestPeer`), or undefined without peers. */
function bound(figure: BenchFigure): number | undefined {
  const goal = figure.goal!;
  const limit = goal.max ?? goal.min!;
  if (!goal.ofBestPeer) return limit;
  const peers = Object.values(figure.peers ?? {});
  if (peers.length === 0) return undefined;
  return limit * (goal.max !== undefined ? Math.min(...peers) : Math.max(...peers));
}

/** The goal and whether it was met: "met", "not met", or "met in some runs" when a range crosses it. */
export function goalText(figure: BenchFigure): string {
  const goal = figure.goal;
  if (!goal) return '';
  const atMost = goal.max !== undefined;
  const limit = atMost ? goal.max! : goal.min!;
  const stated = `${atMost ? '≤' : '≥'} ${goal.ofBestPeer ? `${formatNumber(limit)} × best peer` : withUnit(formatNumber(limit), figure.unit)}`;
  const at = bound(figure);
  const [low, high] = figure.range ?? [figure.value, figure.value];
  if (at === undefined || low === undefined || high === undefined) return stated;
  const meets = (value: number) => (atMost ? value <= at : value >= at);
  const all = meets(atMost ? high : low);
  const some = meets(atMost ? low : high);
  return `${stated}: ${all ? 'met' : some ? 'met in some runs' : 'not met'}`;
}

function peersText(figure: BenchFigure): string {
  return Object.entries(figure.peers ?? {})
    .map(([name, value]) => `${name} ${formatNumber(value)}`)
    .join('; ');
}

const cell = (text: string) => text.replace(/\|/g, '\\|');

/**
 * The Markdown table of the current figures, then one line per run it draws on (date, commit, machine).
 * Undated (the README's form: a manual, not a log), the run column and lines give way to where they are kept.
 */
export function renderTable(
  results: readonly BenchResult[],
  { dated = true, pick = () => true }: { dated?: boolean; pick?: (figure: CurrentFigure) => boolean } = {},
): string {
  const current = currentFigures(results).filter(pick);
  const run = dated ? ' run |' : '';
  const lines = [`| bench | figure | ours | goal | peers (same unit) |${run}`, `|---|---|---:|---|---|${dated ? '---|' : ''}`];
  for (const { benchmark, figure, run } of current) {
    const date = dated ? ` ${run.date.slice(0, 10)} |` : '';
    lines.push(`| ${benchmark} | ${cell(figure.name)} | ${cell(valueText(figure))} | ${cell(goalText(figure))} | ${cell(peersText(figure))} |${date}`);
  }
  if (!dated) return [...lines, '', 'Each figure\'s run (date, commit, machine, load) is a file in `bench/results/`; `npm run -s bench:table` prints them, with every other figure.'].join('\n');
  const runs = [...new Set(current.map(({ run }) => run))];
  lines.push('');
  for (const run of runs) {
    const facts = [
      run.date,
      run.commit ? `commit ${run.commit.slice(0, 7)}` : 'commit not recorded',
      run.runs && run.runs > 1 ? `${run.runs} runs (ranges)` : '',
      run.machine,
      run.loadAverage === undefined ? '' : `load average ${run.loadAverage}`,
    ].filter((fact) => fact !== '');
    lines.push(`- ${run.benchmark}: ${facts.join('; ')}`);
  }
  return lines.join('\n');
}

const BEGIN = '<!-- bench:table -->';
const END = '<!-- /bench:table -->';

/** `text` with the part between the markers replaced by `table`. */
export function replaceBetweenMarkers(text: string, table: string): string {
  const begin = text.indexOf(BEGIN);
  const end = text.indexOf(END);
  if (begin < 0 || end < begin) throw new Error(`README.md has no ${BEGIN} … ${END} section`);
  return `${text.slice(0, begin + BEGIN.length)}\n${table}\n${text.slice(end)}`;
}

function main(): void {
  const { values } = parseArgs({ options: { dir: { type: 'string', default: RESULTS_DIR }, readme: { type: 'boolean', default: false } } });
  const table = renderTable(readResults(values.dir), values.readme ? { dated: false, pick: inReadme } : {});
  if (!values.readme) {
    console.log(table);
    return;
  }
  const readme = join(repoRoot, 'README.md');
  writeFileSync(readme, replaceBetweenMarkers(readFileSync(readme, 'utf8'), table));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) main();
