import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Plugin } from 'vite';

/** What the app's rankings are computed from: its code, the models it ships and the locked dependencies. */
const INPUTS = ['src', 'workers', 'assembly', 'public/models', 'package-lock.json'];

function files(path: string): string[] {
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path)
    .sort()
    .flatMap((name) => files(join(path, name)));
}

/**
 * A hash of the app's inputs, as `import.meta.env.VITE_APP_BUILD`: rankings saved by one build are never
 * shown by another (src/app/engine/saved-rankings.ts), whatever changed in between.
 */
function appBuild(root: string): string {
  const hash = createHash('sha256');
  for (const file of INPUTS.flatMap((input) => files(join(root, input)))) {
    hash.update(relative(root, file));
    hash.update('\0');
    hash.update(readFileSync(file));
  }
  return hash.digest('hex').slice(0, 16);
}

/**
 * Defines `import.meta.env.VITE_APP_BUILD` for a build only: the dev server names each page load a build of
 * its own (src/app/engine/engine.ts), so hashing the inputs (about 0.2 s) would only delay its start.
 */
export function appBuildPlugin(root: string): Plugin {
  return {
    name: 'rp-app-build',
    config: (_config, env) => (env.command === 'build' ? { define: { 'import.meta.env.VITE_APP_BUILD': JSON.stringify(appBuild(root)) } } : undefined),
  };
}
