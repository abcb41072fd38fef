import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { preview, type PreviewServer } from 'vite';
import { productionBuild } from './production-build.ts';
import type { TestProject } from 'vitest/node';
import { DEFAULT_MODELS_DIR, MODEL_JOBS } from '../../scripts/models/build-models.ts';
import { skipWithout } from '../requirements.ts';
import { repoRoot } from '../shared-dir.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Origin of the built app served by `vite preview`, e.g. http://127.0.0.1:4173 */
    appUrl: string;
  }
}

let server: PreviewServer | undefined;

/** What the build may connect to besides the hub when RP_EXTRA_CONNECT_SRC is not set: the tests' local servers. */
export const TEST_CONNECT_SRC = 'http://127.0.0.1:*';

/**
 * The app's own models (public/models, built by `npm run models`) must be there before the build copies
 * them: the app opens on a GloVe column, so nearly every browser test needs them, and without them a test
 * would fail far from the cause. Missing ones fail the whole run here, saying which and how to build them,
 * unless RP_ALLOW_SKIP=models opts out (tests/requirements.ts): then the files that check for the models
 * skip, and tests that only meet them in the app fail there.
 */
function checkAppModels(): void {
  const missing = MODEL_JOBS.filter((job) => job.place === 'app' && !existsSync(join(DEFAULT_MODELS_DIR, 'local', job.name, '.stamp')));
  const names = missing.map((job) => `local/${job.name}`).join(', ');
  if (skipWithout('models', missing.length === 0, `the browser tests need the app's models; ${names} not built in ${DEFAULT_MODELS_DIR} (npm run models)`)) {
    console.warn('NOTICE: browser tests that open a dense column without checking for its model will fail.');
  }
}

/** Builds the app once and serves the build, as a user would get it, for every browser test file. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  checkAppModels();
  // The Content-Security-Policy allows our origin and the hub; the tests' local hub and model servers
  // listen on 127.0.0.1 with a free port (scripts/vite/content-security-policy.ts).
  process.env.RP_EXTRA_CONNECT_SRC ??= TEST_CONNECT_SRC;
  if (!process.env.RP_SKIP_BUILD) await productionBuild({ root: repoRoot, logLevel: 'warn' });
  server = await preview({ root: repoRoot, preview: { port: 0, host: '127.0.0.1', strictPort: false } });
  const url = server.resolvedUrls?.local[0];
  if (!url) throw new Error('vite preview did not report a local URL');
  project.provide('appUrl', url.replace(/\/$/, ''));
  return async () => {
    await server?.close();
  };
}
