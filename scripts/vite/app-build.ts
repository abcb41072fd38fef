import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

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
export function appBuild(root: string): string {
  const hash = createHash('sha256');
  for (const file of INPUTS.flatMap((input) => files(join(root, input)))) {
    hash.update(relative(root, file));
    hash.update('\0');
    hash.update(readFileSync(file));
  }
  return hash.digest('hex').slice(0, 16);
}
