#!/usr/bin/env node
/**
 * `npm test` after the type checks: the unit suite, then the browser suite. Chromium (the page, its workers,
 * SwiftShader's WebGPU) keeps both cores busy, so a unit suite beside it got little of them; one after the
 * other, each suite has the machine to itself. Assets are built once first: both suites read them.
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
// One suite after the other, each with both cores: side by side (one unit worker beside two browser files)
// they took 15 min 13 s from a fresh clone, the unit suite 833 s where alone it took 230 s (README).
const results = [];
for (const [name, args] of [['unit', []], ['browser', ['--config', 'vitest.browser.config.ts']]]) results.push(await suite(name, args));
console.log('');
for (const { name, code, seconds } of results) console.log(`${name} suite: ${code === 0 ? 'passed' : `FAILED (exit ${code})`} in ${seconds.toFixed(0)} s`);
process.exit(results.some((r) => r.code !== 0) ? 1 : 0);
