import { defineConfig } from 'vitest/config';
import SlowFirstSequencer from './tests/slow-first-sequencer.ts';

/**
 * Files that need a process of their own: they measure the heap (large-corpus) or start from a global state
 * no other file has touched (hnsw-files: no hnswlib file system yet).
 */
const ISOLATED = ['tests/lib/import/large-corpus.test.ts', 'tests/lib/storage/hnsw-files.test.ts'];
const EXCLUDED = ['tests/browser/**', 'node_modules/**'];

// Unit tests run in Node. Browser tests (tests/browser) drive Debian's chromium and have their own config.
export default defineConfig({
  test: {
    exclude: EXCLUDED,
    // Vitest's default leaves a core free (one worker on a 2-core machine); most files wait on child
    // processes or I/O part of the time, so one worker per core is not too many.
    maxWorkers: 2,
    // V8's young generation at 64 MB semi-spaces (Node 20's default is 16): the tests make many short-lived
    // objects (runs of 300,000 hits, parsed corpora), and with small semi-spaces the scavenger promoted
    // them into the old generation, whose collections then took the time. The suite's test time went from
    // 232 s to 210 s, page-parity alone from 40.6 s to 28.9 s of CPU.
    execArgv: ['--max-semi-space-size=64'],
    sequence: { sequencer: SlowFirstSequencer },
    testTimeout: 120_000,
    hookTimeout: 120_000,
    projects: [
      {
        extends: true,
        // Files share their worker's modules (transformers.js, onnxruntime-node, the analyzers' tables) instead
        // of importing them again each: the suite took 204 s isolated, 156 s shared (import time 47 s → 12 s).
        // Dexie takes the global indexedDB when it is first imported, so fake-indexeddb is installed before any
        // file runs: a file importing it after another had loaded Dexie without it found no IndexedDB.
        test: {
          name: 'unit',
          include: ['tests/**/*.test.ts'],
          exclude: [...EXCLUDED, ...ISOLATED],
          isolate: false,
          setupFiles: ['fake-indexeddb/auto', 'tests/temp-dir-cleanup.ts'],
        },
      },
      { extends: true, test: { name: 'unit-isolated', include: ISOLATED, isolate: true, setupFiles: ['tests/temp-dir-cleanup.ts'] } },
    ],
  },
});
