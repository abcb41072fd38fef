/**
 * The layer order of DESIGN.md ("Layers"), read from the code's own imports: a module imports only from
 * its own folder or from folders of lower layers, so no folder cycle can form. A new folder fails here
 * until it is given a layer.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

/** src/lib, bottom first: each entry is a folder (or a top-level file) of src/lib. */
const LIB_LAYERS = [
  ['types.ts', 'settings-key.ts', 'analysis', 'catalog', 'starter'],
  ['hits'],
  ['data', 'bm25', 'dense', 'fusion'],
  ['eval', 'prf', 'bm25-wasm'],
  ['judging', 'rerank', 'run-analysis'],
  ['retrievers'],
  ['storage', 'augment', 'tuning'],
  ['import', 'services'],
];

const ROOT = resolve(import.meta.dirname, '..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|svelte)$/.test(entry.name) ? [path] : [];
  });
}

/** Every relative import (static, re-export or dynamic) of a file, resolved to a path. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specs = [...text.matchAll(/(?:^|\s)(?:import|export)\s[^'"]*?from\s*['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)/g)];
  return specs.map((match) => resolve(dirname(file), match[1] ?? match[2]!));
}

/** The layer-order entry a path under `root` belongs to: its first folder, or the file itself at the top. */
function entryOf(root: string, path: string): string {
  return relative(root, path).split(sep)[0]!;
}

/** Imports that break the order: to a folder of the same or a higher layer, or out of `root`. */
function violations(rootDir: string, layers: readonly (readonly string[])[]): string[] {
  const root = join(ROOT, rootDir);
  const layerOf = new Map(layers.flatMap((entries, layer) => entries.map((entry) => [entry, layer] as const)));
  const found: string[] = [];
  for (const file of sourceFiles(root)) {
    const from = entryOf(root, file);
    const fromLayer = layerOf.get(from);
    if (fromLayer === undefined) {
      found.push(`${relative(ROOT, file)}: ${from} has no layer`);
      continue;
    }
    for (const target of importsOf(file)) {
      const name = `${relative(ROOT, file)} → ${relative(ROOT, target)}`;
      if (!target.startsWith(root + sep)) found.push(`${name}: leaves ${rootDir}`);
      else {
        const to = entryOf(root, target);
        const toLayer = layerOf.get(to);
        if (to !== from && (toLayer === undefined || toLayer >= fromLayer)) found.push(`${name}: ${from} (layer ${fromLayer}) imports ${to} (layer ${toLayer})`);
      }
    }
  }
  return found;
}

describe('layers', () => {
  it('src/lib imports only downwards, and nothing outside src/lib', () => {
    expect(violations('src/lib', LIB_LAYERS)).toEqual([]);
  });

  it('finds an import that runs back up', () => {
    const upside = [...LIB_LAYERS].reverse();
    expect(violations('src/lib', upside).length).toBeGreaterThan(0);
  });
});
