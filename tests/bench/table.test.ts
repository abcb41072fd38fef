/**
 * The benchmark table renderer on result files written here: which run is current (the latest full run,
 * later partial runs on top), goals met, met in some runs (ranges) or not, peers, and the README markers.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { formatBenchResult, writeBenchResult, type BenchResult } from '../../bench/results-file.ts';
import { currentFigures, formatNumber, goalText, inReadme, readResults, renderTable, replaceBetweenMarkers } from '../../bench/table.ts';
import { tempDir } from '../temp-dir.ts';

const MACHINE = '2 cores, 24 GiB, Debian, Node 20';

function fixtures(): string {
  const dir = tempDir('rp-bench-table-');
  const runs: BenchResult[] = [
    {
      benchmark: 'app',
      date: '2026-11-27T10:00Z',
      commit: 'aaaaaaa1111',
      machine: MACHINE,
      figures: [
        { name: 'restart', unit: 'ms', value: 1200, goal: { max: 1000 } },
        { name: 'typed p95', unit: 'ms', value: 40, goal: { max: 30 } },
        { name: 'dropped later', unit: 'ms', value: 1 },
      ],
    },
    {
      benchmark: 'app',
      date: '2026-11-28T09:33Z',
      commit: null,
      machine: MACHINE,
      runs: 3,
      figures: [
        { name: 'restart', unit: 'ms', range: [678, 749], goal: { max: 1000 } },
        { name: 'import', unit: 'ms', range: [4222, 5457], goal: { max: 5000 } },
        { name: 'typed p95', unit: 'ms', value: 35, goal: { max: 30 } },
      ],
    },
    // A later partial run replaces only the figures it measured.
    { benchmark: 'app', date: '2026-11-29T07:00Z', commit: 'bbbbbbb2222', machine: MACHINE, partial: true, figures: [{ name: 'typed p95', unit: 'ms', value: 20.4, goal: { max: 30 } }] },
    {
      benchmark: 'bm25',
      date: '2026-11-22T01:14Z',
      commit: null,
      machine: MACHINE,
      figures: [
        { name: 'query (SciFact ×1)', unit: 'ms', value: 0.062, goal: { max: 0.5, ofBestPeer: true }, peers: { 'MiniSearch 7.2': 2.83, 'Orama 3.1': 8.4 } },
        { name: 'nDCG@10', unit: '', value: 0.6789, goal: { min: 0.6789 }, peers: { 'Orama 3.1': 0.264 } },
      ],
    },
  ];
  // Written out of date order: the renderer orders by date, not by file name.
  runs.forEach((run, index) => writeFileSync(join(dir, `${String(9 - index)}-${run.benchmark}.json`), formatBenchResult(run)));
  writeFileSync(join(dir, 'notes.txt'), 'not a run');
  return dir;
}

describe('bench-table', () => {
  test('reads every run oldest first', () => {
    const results = readResults(fixtures());
    expect(results.map((run) => run.date)).toEqual(['2026-11-22T01:14Z', '2026-11-27T10:00Z', '2026-11-28T09:33Z', '2026-11-29T07:00Z']);
  });

  test('current figures: the latest full run, later partial runs on top', () => {
    const current = currentFigures(readResults(fixtures()));
    expect(current.map(({ benchmark, figure, run }) => [benchmark, figure.name, run.date])).toEqual([
      ['app', 'restart', '2026-11-28T09:33Z'],
      ['app', 'import', '2026-11-28T09:33Z'],
      ['app', 'typed p95', '2026-11-29T07:00Z'],
      ['bm25', 'query (SciFact ×1)', '2026-11-22T01:14Z'],
      ['bm25', 'nDCG@10', '2026-11-22T01:14Z'],
    ]);
  });

  test('goals: met, met in some runs, not met, against the best peer', () => {
    expect(goalText({ name: 'r', unit: 'ms', range: [678, 749], goal: { max: 1000 } })).toBe('≤ 1,000 ms: met');
    expect(goalText({ name: 'i', unit: 'ms', range: [4222, 5457], goal: { max: 5000 } })).toBe('≤ 5,000 ms: met in some runs');
    expect(goalText({ name: 't', unit: 'ms', value: 35, goal: { max: 30 } })).toBe('≤ 30 ms: not met');
    expect(goalText({ name: 'q', unit: 'ms', value: 1.5, goal: { max: 0.5, ofBestPeer: true }, peers: { a: 2.83, b: 8.4 } })).toBe('≤ 0.5 × best peer: not met');
    expect(goalText({ name: 'e', unit: 'docs/s', value: 1427, goal: { min: 2, ofBestPeer: true }, peers: { naive: 617 } })).toBe('≥ 2 × best peer: met');
    expect(goalText({ name: 'n', unit: '', value: 0.6789, goal: { min: 0.6789 } })).toBe('≥ 0.6789: met');
    expect(goalText({ name: 'x', unit: 'ms', value: 3 })).toBe('');
  });

  test('numbers keep three significant figures or more', () => {
    expect([0.062, 0.9963, 2.83, 55.3, 1053.8, 42328, 38].map(formatNumber)).toEqual(['0.062', '0.9963', '2.83', '55.3', '1,054', '42,328', '38']);
  });

  test('renders one Markdown table and the runs it draws on', () => {
    const table = renderTable(readResults(fixtures()));
    const lines = table.split('\n');
    expect(lines[0]).toBe('| bench | figure | ours | goal | peers (same unit) | run |');
    expect(lines).toContain('| app | restart | 678–749 ms | ≤ 1,000 ms: met |  | 2026-11-28 |');
    expect(lines).toContain('| app | typed p95 | 20.4 ms | ≤ 30 ms: met |  | 2026-11-29 |');
    expect(lines).toContain('| bm25 | query (SciFact ×1) | 0.062 ms | ≤ 0.5 × best peer: met | MiniSearch 7.2 2.83; Orama 3.1 8.40 | 2026-11-22 |');
    expect(table).not.toContain('dropped later');
    expect(lines).toContain(`- app: 2026-11-28T09:33Z; commit not recorded; 3 runs (ranges); ${MACHINE}`);
    expect(lines).toContain(`- app: 2026-11-29T07:00Z; commit bbbbbbb; ${MACHINE}`);
  });

  test('renders the README form without dates: the same figures, and where the runs are kept', () => {
    const undated = renderTable(readResults(fixtures()), { dated: false });
    const lines = undated.split('\n');
    expect(lines[0]).toBe('| bench | figure | ours | goal | peers (same unit) |');
    expect(lines).toContain('| app | restart | 678–749 ms | ≤ 1,000 ms: met |  |');
    expect(undated).not.toMatch(/\d{4}-\d{2}-\d{2}/);
    expect(lines.at(-1)).toContain('bench/results/');
  });

  test('the README keeps the headline figures of a benchmark README_FIGURES names, and every figure of others', () => {
    const figure = (name: string) => ({ name, unit: 'ms', value: 1 });
    const run = (benchmark: string, names: string[]) => ({ benchmark, date: '2026-11-29T07:00Z', commit: null, machine: MACHINE, figures: names.map(figure) });
    const results = [run('augment', ['Training, 10 epochs on 728 queries (SciFact train → test, english, GloVe frozen), Node', 'Load average (1 min) when that training began']), run('other', ['anything'])];
    const lines = renderTable(results, { dated: false, pick: inReadme }).split('\n');
    expect(lines.filter((line) => line.startsWith('| augment'))).toHaveLength(1);
    expect(lines.some((line) => line.includes('Load average'))).toBe(false);
    expect(lines.some((line) => line.startsWith('| other | anything'))).toBe(true);
    expect(renderTable(results, { dated: false }).split('\n').filter((line) => line.startsWith('| augment'))).toHaveLength(2);
  });

  test('a written run reads back with its date, commit and machine', () => {
    const dir = tempDir('rp-bench-write-');
    const path = writeBenchResult({ benchmark: 'ann', figures: [{ name: 'recall@10', unit: '', value: 0.9963, goal: { min: 0.99 } }] }, dir);
    const [run] = readResults(dir);
    expect(run!.benchmark).toBe('ann');
    expect(run!.date).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\dZ$/);
    expect(run!.machine).toMatch(/cores, \d+ GiB/);
    expect(run!.loadAverage).toBeGreaterThanOrEqual(0);
    expect(readFileSync(path, 'utf8')).toContain('\n  {"name":"recall@10","unit":"","value":0.9963,"goal":{"min":0.99}}\n');
  });

  test('the README section between the markers is replaced', () => {
    const text = 'intro\n<!-- bench:table -->\nold\n<!-- /bench:table -->\nafter\n';
    expect(replaceBetweenMarkers(text, '| new |')).toBe('intro\n<!-- bench:table -->\n| new |\n<!-- /bench:table -->\nafter\n');
    expect(() => replaceBetweenMarkers('no markers', 'x')).toThrow(/bench:table/);
  });
});
