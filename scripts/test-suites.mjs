#!/usr/bin/env node
/**
 * `npm test`: the type checks beside the asset build, then the unit suite, then the browser suite.
 *
 * The type checks (tsc on the core, svelte-check on the rest) and the asset build (AssemblyScript, the
 * compressed onnxruntime wasm, the models) each run on one core, so they share the two. The suites come one after the other:
 * Chromium (the page, its workers, SwiftShader's WebGPU) keeps both cores busy, so a unit suite beside it got
 * little of them (README, "How npm test runs").
 *
 * Every line is printed as it comes, prefixed with its step; a summary at the end names each step's result.
 * Exits non-zero when any step fails; the suites do not start when the checks or the assets fail.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

/** Runs a command, printing its lines with a prefix; resolves with its exit code and wall time. */
function step(name, command, args) {
  const started = Date.now();
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1' } });
  for (const stream of [child.stdout, child.stderr]) {
    createInterface({ input: stream }).on('line', (line) => console.log(`[${name}] ${line}`));
  }
  return new Promise((resolve) => {
    child.on('error', (error) => console.log(`[${name}] could not start ${command}: ${error.message}`));
    child.on('close', (code, signal) => resolve({ name, code: code ?? (signal ? 1 : 0), seconds: (Date.now() - started) / 1000 }));
  });
}

function summarize(results) {
  console.log('');
  for (const { name, code, seconds } of results) console.log(`${name}: ${code === 0 ? 'passed' : `FAILED (exit ${code})`} in ${seconds.toFixed(0)} s`);
  return results.some((r) => r.code !== 0) ? 1 : 0;
}

const results = await Promise.all([
  step('check', 'npm', ['run', '-s', 'check']),
  step('assets', 'sh', ['-c', 'scripts/ensure-chromium.sh && npm run -s assets']),
]);
if (results.some((r) => r.code !== 0)) process.exit(summarize(results));
for (const [name, args] of [
  ['unit', []],
  ['browser', ['--config', 'vitest.browser.config.ts']],
]) {
  results.push(await step(name, 'npx', ['vitest', 'run', ...args]));
}
process.exit(summarize(results));
