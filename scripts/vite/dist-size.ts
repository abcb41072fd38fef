/**
 * The size rules of a build that any static host serves (issue 9): dist/ at most 50 MB in all, no file over
 * 25 MiB (Cloudflare Pages refuses larger files, GitHub Pages files over 100 MB). Checked at the end of every
 * `vite build`: a build that breaks a rule fails, naming the files, so CI catches a model or asset that
 * grew or a reference model that slipped into public/.
 */
import { readdirSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import type { Plugin, ResolvedConfig } from 'vite';

export const DIST_LIMITS = { totalBytes: 50_000_000, fileBytes: 25 * 1024 * 1024 } as const;

export interface SizedFile {
  /** Relative to the build folder. */
  path: string;
  bytes: number;
}

export function filesUnder(dir: string): SizedFile[] {
  const files: SizedFile[] = [];
  const walk = (at: string) => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const path = join(at, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile()) files.push({ path: relative(dir, path), bytes: statSync(path).size });
    }
  };
  walk(dir);
  return files;
}

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;

/** What breaks the rules, one sentence each (empty: the build is fine). */
export function distSizeProblems(files: readonly SizedFile[], limits: { totalBytes: number; fileBytes: number } = DIST_LIMITS): string[] {
  const problems: string[] = [];
  const total = files.reduce((sum, f) => sum + f.bytes, 0);
  if (total > limits.totalBytes) {
    const largest = [...files].sort((a, b) => b.bytes - a.bytes).slice(0, 5).map((f) => `${f.path} ${mb(f.bytes)}`);
    problems.push(`the build is ${mb(total)}, over the ${mb(limits.totalBytes)} limit (largest: ${largest.join(', ')})`);
  }
  for (const f of files) {
    if (f.bytes > limits.fileBytes) problems.push(`${f.path} is ${mb(f.bytes)}, over the ${(limits.fileBytes / 2 ** 20).toFixed(0)} MiB per-file limit of static hosts`);
  }
  return problems;
}

/** Fails `vite build` when the output breaks DIST_LIMITS; prints the total and the largest file otherwise. */
export function distSizePlugin(): Plugin {
  let config: ResolvedConfig;
  return {
    name: 'rp-dist-size',
    apply: 'build',
    configResolved(resolved) {
      config = resolved;
    },
    closeBundle: {
      // After vite has copied public/ (the models) into the output.
      order: 'post',
      handler() {
        const outDir = resolve(config.root, config.build.outDir);
        const files = filesUnder(outDir);
        const problems = distSizeProblems(files);
        if (problems.length > 0) throw new Error(`dist size rules (scripts/vite/dist-size.ts): ${problems.join('; ')}`);
        const total = files.reduce((sum, f) => sum + f.bytes, 0);
        const largest = files.reduce((a, b) => (b.bytes > a.bytes ? b : a), { path: '-', bytes: 0 });
        config.logger.info(`dist: ${files.length} files, ${mb(total)}; largest ${largest.path} ${mb(largest.bytes)}`);
      },
    },
  };
}
