/**
 * `npm run check:dist` (scripts/dist/check-dist.ts), as the GitHub Pages workflow runs it after a build; and
 * every file an npm script names exists. The script's file had never been committed (the `dist/` ignore rule
 * matched `scripts/dist/` too), so the workflow's `npm run -s check:dist` would have failed on GitHub.
 */
import { readFileSync, writeFileSync, existsSync, mkdirSync } from 'node:fs';
import { tempDir } from '../../temp-dir.ts';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { checkDist } from '../../../scripts/dist/check-dist.ts';
import { repoRoot } from '../../shared-dir.ts';

test('a build within the rules passes and lists its largest files; a file over 25 MiB is named; no build is a problem', () => {
  const dir = tempDir('rp-check-dist-');
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html>');
  writeFileSync(join(dir, 'assets', 'big.bin'), Buffer.alloc(2_000_000));
  const ok = checkDist(dir);
  expect(ok.problems).toEqual([]);
  expect(ok.files).toBe(2);
  expect(ok.largest.map((f) => f.path)).toEqual([join('assets', 'big.bin'), 'index.html']);
  writeFileSync(join(dir, 'assets', 'huge.bin'), Buffer.alloc(25 * 2 ** 20 + 1));
  expect(checkDist(dir).problems).toEqual([`${join('assets', 'huge.bin')} is 26.2 MB, over the 25 MiB per-file limit of static hosts`]);
  expect(checkDist(join(dir, 'missing')).problems).toEqual([`${join(dir, 'missing')} holds no build: run npm run build first`]);
});

test('every file an npm script runs is in the repository', () => {
  const { scripts } = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  const named = Object.values(scripts).flatMap((command) => command.match(/(?:^|\s)((?:scripts|bench|src)\/[\w./-]+\.(?:ts|mjs|sh))/g) ?? []);
  expect(named.length).toBeGreaterThan(5);
  for (const file of named.map((m) => m.trim())) expect(existsSync(join(repoRoot, file)), file).toBe(true);
});
