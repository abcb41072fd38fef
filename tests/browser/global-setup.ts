import { build, preview, type PreviewServer } from 'vite';
import type { TestProject } from 'vitest/node';
import { repoRoot } from '../shared-dir.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Origin of the built app served by `vite preview`, e.g. http://127.0.0.1:4173 */
    appUrl: string;
  }
}

let server: PreviewServer | undefined;

/** Builds the app once and serves the build, as a user would get it, for every browser test file. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // The Content-Security-Policy allows our origin and the hub; the tests' local hub and model servers
  // listen on 127.0.0.1 with a free port (scripts/vite/content-security-policy.ts).
  process.env.RP_EXTRA_CONNECT_SRC ??= 'http://127.0.0.1:*';
  if (!process.env.RP_SKIP_BUILD) await build({ root: repoRoot, logLevel: 'warn' });
  server = await preview({ root: repoRoot, preview: { port: 0, host: '127.0.0.1', strictPort: false } });
  const url = server.resolvedUrls?.local[0];
  if (!url) throw new Error('vite preview did not report a local URL');
  project.provide('appUrl', url.replace(/\/$/, ''));
  return async () => {
    await server?.close();
  };
}
