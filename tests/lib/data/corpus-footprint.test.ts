/**
 * Prints (does not assert) the time and peak heap of parsing SciFact's corpus from .jsonl and .jsonl.gz,
 * each in a fresh Node process so other tests' garbage does not blur the heap figures.
 */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { repoRoot, shared } from '../../shared-dir.ts';

describe('SciFact corpus parse footprint (printed, not asserted)', () => {
  it.each(['corpus.jsonl', 'corpus.jsonl.gz'])('%s', (name) => {
    const output = execFileSync(process.execPath, ['--expose-gc', '--import', 'tsx', 'tests/lib/data/corpus-footprint.ts', shared('beir', 'scifact', name), '5'], {
      cwd: repoRoot,
      encoding: 'utf8',
    });
    const figures = JSON.parse(output) as { docs: number };
    console.log(`[footprint] ${name}: ${output.trim()}`);
    expect(figures.docs).toBe(5183);
  });
});
