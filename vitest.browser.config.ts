import { defineConfig } from 'vitest/config';

// Browser tests: the built app served by `vite preview`, driven by Debian's chromium through playwright-core.
export default defineConfig({
  test: {
    include: ['tests/browser/**/*.test.ts'],
    globalSetup: ['tests/browser/global-setup.ts'],
    // One browser at a time: the machine has 2 cores and WebGPU runs on a software adapter.
    fileParallelism: false,
    testTimeout: 300_000,
    hookTimeout: 300_000,
  },
});
