import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Where the ground truth lives (BEIR SciFact, Lucene and trec_eval references, tokenizers): the one setting
 * `SHARED_DIR`, by default `../shared` beside the checkout. Files are read in place, never copied.
 */
export const SHARED_DIR = resolve(repoRoot, process.env.SHARED_DIR ?? '../shared');

/** Absolute path of a file under SHARED_DIR; fails loudly when the shared folder is not there. */
export function shared(...parts: string[]): string {
  const path = resolve(SHARED_DIR, ...parts);
  if (!existsSync(path)) {
    throw new Error(`${path} not found: set SHARED_DIR to the folder holding beir/, reference/ and trec_eval/`);
  }
  return path;
}

export { repoRoot };
