import { defineConfig } from 'vitest/config';

// Browser tests: the built app served by `vite preview`, driven by Debian's chromium through playwright-core.
export default defineConfig({
  test: {
    include: ['tests/browser/**/*.test.ts'],
    globalSetup: ['tests/browser/global-setup.ts'],
    // Each file's temporary directories (tests/temp-dir.ts) are removed when it is done.
    setupFiles: ['tests/temp-dir-cleanup.ts'],
    // Two files at a time, each with its own Chromium and profile: much of a browser test is waiting (on
    // workers, reloads, downloads), so two overlap well even on 2 cores. Three left no idle CPU and took
    // longer (427 s against 406 s), and a test missed a job it waits for.
    maxWorkers: 2,
    // Files share their worker's modules (playwright-core, vite, the CLI's code some tests compare with): six
    // files imported for 11.8 s isolated, 6.4 s shared. Each file still launches its own Chromium.
    isolate: false,
    testTimeout: 300_000,
    hookTimeout: 300_000,
  },
});
