#!/usr/bin/env node
/**
 * `npm test` after the type checks: the unit and the browser suites at the same time. Each alone keeps
 * about one of the machine's two cores busy (the unit files wait on child processes, the browser files on
 * Chromium), so together they take little longer than the longer one, where one after the other took their
 * sum. Assets are built once first: both suites read them, and two builds at once would write the same files.
 *
 * Every line is printed as it comes, prefixed with its suite; a summary at the end names each suite's result.
 * Exits non-zero when either suite fails.
 */
import { spawn, spawnSync } from 'node:child_process';
import { createInterface } from 'node:readline';

function runOrExit(command, args) {
  const result = spawnSync(command, args, { stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

/** Runs one suite, printing its lines with a prefix; resolves with its exit code and wall time. */
function suite(name, args) {
  const started = Date.now();
  const child = spawn('npx', ['vitest', 'run', ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1' } });
  for (const stream of [child.stdout, child.stderr]) {
    createInterface({ input: stream }).on('line', (line) => console.log(`[${name}] ${line}`));
  }
  return new Promise((resolve) => {
    child.on('close', (code, signal) => resolve({ name, code: code ?? (signal ? 1 : 0), seconds: (Date.now() - started) / 1000 }));
  });
}

runOrExit('scripts/ensure-chromium.sh', []);
runOrExit('npm', ['run', '-s', 'assets']);
// One unit worker beside the browser suite: with two, the two suites oversubscribed the two cores (four
// busy processes and their Chromiums): the browser suite took 892 s, against 759 s with one (README).
const results = await Promise.all([suite('unit', ['--maxWorkers=1']), suite('browser', ['--config', 'vitest.browser.config.ts'])]);
console.log('');
for (const { name, code, seconds } of results) console.log(`${name} suite: ${code === 0 ? 'passed' : `FAILED (exit ${code})`} in ${seconds.toFixed(0)} s`);
process.exit(results.some((r) => r.code !== 0) ? 1 : 0);
