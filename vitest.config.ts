import { defineConfig } from 'vitest/config';

// Unit tests run in Node. Browser tests (tests/browser) drive Debian's chromium and have their own config.
export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    exclude: ['tests/browser/**', 'node_modules/**'],
    // Vitest's default leaves a core free (one worker on a 2-core machine); most files wait on child
    // processes or I/O part of the time, so one worker per core is not too many.
    maxWorkers: 2,
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
