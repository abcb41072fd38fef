/**
 * The static-host size rules of the build (scripts/vite/dist-size.ts), checked by every `vite build`: the
 * rule itself on made-up listings, and the build's inputs as they are now (public/ and the compressed
 * onnxruntime wasm builds) within it.
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { ORT_WASMS, compressOrtWasms, compressedOrtWasm, ortWasmSource } from '../../../scripts/onnx/compress-wasm.ts';
import { DIST_LIMITS, distSizeProblems, filesUnder } from '../../../scripts/vite/dist-size.ts';
import { buildModels } from '../../../scripts/models/build-models.ts';
import { repoRoot } from '../../shared-dir.ts';

const MiB = 2 ** 20;

test('a listing within the rules passes; a file over 25 MiB or a total over 50 MB is named', () => {
  expect(distSizeProblems([{ path: 'index.html', bytes: 2_000 }, { path: 'models/a.bin', bytes: 25 * MiB }])).toEqual([]);
  expect(distSizeProblems([{ path: 'assets/big.wasm', bytes: 25 * MiB + 1 }])).toEqual([
    'assets/big.wasm is 26.2 MB, over the 25 MiB per-file limit of static hosts',
  ]);
  const many = Array.from({ length: 3 }, (_, i) => ({ path: `models/part${i}.bin`, bytes: 20_000_000 }));
  const problems = distSizeProblems(many);
  expect(problems).toHaveLength(1);
  expect(problems[0]).toMatch(/^the build is 60\.0 MB, over the 50\.0 MB limit \(largest: models\/part0\.bin 20\.0 MB/);
});

test('what public/ puts into the build, plus the compressed onnxruntime wasm builds, keeps to the rules', () => {
  buildModels();
  compressOrtWasms();
  const files = [...filesUnder(join(repoRoot, 'public')), ...ORT_WASMS.map((name) => ({ path: `assets/${name}.gz`, bytes: statSync(compressedOrtWasm(name)).size }))];
  // Reference models (glove-100d-avg, the ONNX SIF graphs) live in .cache/models, never in public/.
  expect(files.filter((f) => f.path.includes('glove-100d-avg') || f.path.includes('.onnx') && f.path.includes('glove'))).toEqual([]);
  expect(distSizeProblems(files, { ...DIST_LIMITS, totalBytes: DIST_LIMITS.totalBytes - 5_000_000 })).toEqual([]);
});

test('each compressed onnxruntime wasm is the package’s wasm', () => {
  compressOrtWasms();
  for (const name of ORT_WASMS) expect(gunzipSync(readFileSync(compressedOrtWasm(name))).equals(readFileSync(ortWasmSource(name))), name).toBe(true);
});
