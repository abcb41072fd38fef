/**
 * The app the browser tests open is the bundle `npm run build` makes (global-setup.ts builds it with
 * productionBuild): under Vitest's NODE_ENV=test, Vite had built Svelte's development runtime instead.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { repoRoot } from '../shared-dir.ts';

it('serves the production build: no script carries Svelte’s development warnings', () => {
  const assets = join(repoRoot, 'dist', 'assets');
  const scripts = readdirSync(assets).filter((file) => file.endsWith('.js'));
  expect(scripts.length).toBeGreaterThan(5);
  // Svelte's development runtime prefixes its console warnings with "[svelte]"; the production one does not.
  expect(scripts.filter((file) => readFileSync(join(assets, file), 'utf8').includes('[svelte] '))).toEqual([]);
});

it('writes every script in ASCII (vite.config.ts `charset`), so Chromium decodes none into a two-byte string', () => {
  const assets = join(repoRoot, 'dist', 'assets');
  const scripts = readdirSync(assets).filter((file) => file.endsWith('.js') || file.endsWith('.mjs'));
  expect(scripts.length).toBeGreaterThan(5);
  expect(scripts.filter((file) => /[^\x00-\x7f]/.test(readFileSync(join(assets, file), 'utf8')))).toEqual([]);
});

/**
 * Whether a built script holds fflate's inflater, found by one of its error messages (node_modules/fflate):
 * building its tables took 10–20 ms of every page load, so it loads only when a gzip or zip file is read.
 */
const holdsInflater = (path: string): boolean => readFileSync(path, 'utf8').includes('invalid block type');

it('loads no decompressor with the first screen: fflate comes when a gzip or zip file is read', () => {
  const html = readFileSync(join(repoRoot, 'dist', 'index.html'), 'utf8');
  // The entry script and the modules Vite preloads with it: everything a page load evaluates before the app runs.
  const firstScreen = [...html.matchAll(/<(?:script type="module"[^>]*\ssrc|link rel="modulepreload"[^>]*\shref)="[^"]*\/(assets\/[^"]+\.js)"/g)].map((match) => match[1]!);
  expect(firstScreen.length).toBeGreaterThan(5);
  expect(firstScreen.filter((file) => holdsInflater(join(repoRoot, 'dist', file)))).toEqual([]);
});

it('starts the import worker without a decompressor: fflate comes with the first gzip or zip file', () => {
  const assets = join(repoRoot, 'dist', 'assets');
  const worker = readdirSync(assets).filter((file) => /^import\.worker-.*\.js$/.test(file));
  expect(worker).toHaveLength(1);
  expect(holdsInflater(join(assets, worker[0]!))).toBe(false);
});
