import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * src/app's layer order (DESIGN.md, Structure), bottom first. A folder (or a module at src/app's top) may
 * import only from a lower layer: views never import each other, the shared layer no view, the engine no
 * store above it.
 */
const LAYERS: readonly (readonly string[])[] = [
  ['shell', 'workers', 'app-state', 'app-build'],
  ['url-state', 'url-slices'],
  ['engine'],
  ['collection'],
  ['columns', 'highlight'],
  ['explore', 'evaluate', 'datasets', 'learn'],
  ['url-sync'],
];

const appDir = resolve(dirname(fileURLToPath(import.meta.url)), '../../src/app');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return /\.(ts|svelte)$/.test(entry.name) ? [path] : [];
  });
}

/** The folder under src/app a file belongs to, or for a file at the top its name without extensions. */
function unitOf(path: string): string {
  const [first, ...rest] = relative(appDir, path).split(/[\\/]/);
  return rest.length > 0 ? first! : first!.replace(/(\.d|\.svelte)?\.ts$|\.svelte$/, '');
}

function layerOf(unit: string): number {
  const layer = LAYERS.findIndex((units) => units.includes(unit));
  if (layer < 0) throw new Error(`src/app/${unit} is in no layer: add it to LAYERS here and to DESIGN.md`);
  return layer;
}

/** Every relative import inside src/app: from which file to which. */
function appImports(): Array<{ from: string; to: string }> {
  return sources(appDir).flatMap((from) =>
    [...readFileSync(from, 'utf8').matchAll(/(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g)]
      .map((match) => resolve(dirname(from), match[1]!))
      .filter((to) => !relative(appDir, to).startsWith('..'))
      .map((to) => ({ from, to })),
  );
}

describe('src/app layers', () => {
  it('every import between folders points down the layer order', () => {
    const upward = appImports()
      .filter(({ from, to }) => unitOf(from) !== unitOf(to) && layerOf(unitOf(to)) >= layerOf(unitOf(from)))
      .map(({ from, to }) => `${relative(appDir, from)} → ${relative(appDir, to)}`);
    expect(upward).toEqual([]);
  });

  it('the engine imports no store (shell, collection or view state): it reports through its host', () => {
    const stores = appImports()
      .filter(({ from, to }) => unitOf(from) === 'engine' && unitOf(to) !== 'engine' && /\.svelte(\.ts)?$/.test(to))
      .map(({ from, to }) => `${relative(appDir, from)} → ${relative(appDir, to)}`);
    expect(stores).toEqual([]);
  });
});
