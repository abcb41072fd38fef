/**
 * `npm run check:dist [-- <folder>] [--json]`: checks a finished build (default dist/) against the
 * static-host size rules that every `vite build` applies (scripts/vite/dist-size.ts: ≤ 50 MB in all, no file
 * over 25 MiB) and lists its ten largest files. Exits 1 when a rule is broken or the folder holds no build.
 * The GitHub Pages workflow (.github/workflows/pages.yml) runs it after the build.
 */
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { repoRoot } from '../../tests/shared-dir.ts';
import { DIST_LIMITS, distSizeProblems, filesUnder, type SizedFile } from '../vite/dist-size.ts';

export interface DistReport {
  folder: string;
  files: number;
  totalBytes: number;
  largest: SizedFile[];
  limits: typeof DIST_LIMITS;
  problems: string[];
}

/** The report of the build in `folder`; a missing or empty folder is a problem, not an empty build. */
export function checkDist(folder: string): DistReport {
  const files = existsSync(folder) && statSync(folder).isDirectory() ? filesUnder(folder) : [];
  const problems = files.length === 0 ? [`${folder} holds no build: run npm run build first`] : distSizeProblems(files);
  return {
    folder,
    files: files.length,
    totalBytes: files.reduce((sum, f) => sum + f.bytes, 0),
    largest: [...files].sort((a, b) => b.bytes - a.bytes).slice(0, 10),
    limits: DIST_LIMITS,
    problems,
  };
}

function formatReport(report: DistReport): string {
  const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;
  const lines = [`${report.folder}: ${report.files} files, ${mb(report.totalBytes)} (limits: ${mb(report.limits.totalBytes)} in all, ${report.limits.fileBytes / 2 ** 20} MiB per file)`];
  for (const f of report.largest) lines.push(`  ${mb(f.bytes).padStart(9)}  ${f.path}`);
  lines.push(report.problems.length === 0 ? 'ok: any static host can serve it' : report.problems.map((p) => `problem: ${p}`).join('\n'));
  return lines.join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values, positionals } = parseArgs({ options: { json: { type: 'boolean', default: false } }, allowPositionals: true });
  const report = checkDist(resolve(positionals[0] ?? resolve(repoRoot, 'dist')));
  process.stdout.write(`${values.json ? JSON.stringify(report, null, 1) : formatReport(report)}\n`);
  process.exitCode = report.problems.length === 0 ? 0 : 1;
}
