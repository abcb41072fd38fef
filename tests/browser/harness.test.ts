/**
 * Browser tests and bench:app wait for the page through waitInPage (harness.ts), never through
 * page.waitForFunction's default of checking on every animation frame: those checks made headless Chromium
 * render frames for as long as a test waited, on the cores the app's own work needs.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { repoRoot } from '../shared-dir.ts';

test('no browser test or benchmark calls page.waitForFunction but the harness', () => {
  const files = [
    ...readdirSync(join(repoRoot, 'tests', 'browser')).map((name) => join('tests', 'browser', name)),
    ...readdirSync(join(repoRoot, 'bench')).filter((name) => !name.startsWith('_')).map((name) => join('bench', name)),
  ].filter((path) => path.endsWith('.ts') && !path.endsWith('harness.ts') && !path.endsWith('harness.test.ts'));
  expect(files.length).toBeGreaterThan(20);
  const offenders = files.filter((path) => readFileSync(join(repoRoot, path), 'utf8').includes('.waitForFunction('));
  expect(offenders).toEqual([]);
});
