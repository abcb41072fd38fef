/**
 * The order the unit suite's files start in. Without a cache of earlier runs (a fresh clone: CI) Vitest keeps
 * its files in the order it found them, project by project, so the slowest files started late and the last
 * 20 s ran on one core (the isolated large-corpus file, alone at the end): 157–161 s in CI, 138 s with this
 * order. The files known to be slow start first, longest first; the others keep Vitest's order (by earlier
 * durations when it has them). A file missing from the list only starts later: the list orders, it never
 * selects. The browser suite keeps Vitest's order: its heavy files already started early (the largest
 * files), and starting all of them first paired them, in one CI run 457 s against 406 s.
 */
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const SLOW_FIRST = [
  // seconds in CI: 46, 29, 18, 17, 17, 16, 13, 11, 11
  'tests/cli/page-parity.test.ts',
  'tests/lib/dense/scifact-dense.test.ts',
  'tests/lib/dense/embedder.test.ts',
  'tests/lib/import/large-corpus.test.ts',
  'tests/lib/bm25-wasm/bm25-wasm.parity.test.ts',
  'tests/cli/eval-dense.test.ts',
  'tests/lib/dense/static-table.test.ts',
  'tests/cli/prf.test.ts',
  'tests/lib/data/gzip.test.ts',
];

function rank(spec: TestSpecification): number {
  const at = SLOW_FIRST.findIndex((path) => spec.moduleId.endsWith(path));
  return at < 0 ? SLOW_FIRST.length : at;
}

export default class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    return sorted
      .map((spec, position) => ({ spec, position }))
      .sort((a, b) => rank(a.spec) - rank(b.spec) || a.position - b.position)
      .map(({ spec }) => spec);
  }
}
