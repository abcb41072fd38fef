import { defineConfig } from 'vitest/config';

// Unit tests run in Node. Browser tests (tests/browser) drive Debian's chromium and have their own config.
export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    exclude: ['tests/browser/**', 'node_modules/**'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
