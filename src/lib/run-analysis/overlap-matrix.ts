import { compareRuns, type RunOverlap, type RunOverlapOptions } from '../eval/overlap.ts';
import type { Run } from '../types.ts';

/**
 * How alike several runs are, pair by pair: Jaccard of the top-k sets and rank-biased overlap (RBO_ext,
 * p = 0.9 by default) of the top-k prefixes, per query and averaged over the same queries for every pair
 * (src/lib/eval/overlap.ts). Both measures are symmetric, so the matrix holds each unordered pair once.
 */
export interface OverlapPair {
  /** Indexes into the runs given, a < b. */
  a: number;
  b: number;
  overlap: RunOverlap;
}

export interface OverlapMatrix {
  size: number;
  /** Every pair a < b, in order (0,1), (0,2), …, (1,2), … */
  pairs: OverlapPair[];
}

export function overlapMatrix(runs: readonly Run[], options: RunOverlapOptions = {}): OverlapMatrix {
  const queryIds = options.queryIds === undefined ? undefined : [...options.queryIds];
  const pairs: OverlapPair[] = [];
  for (let a = 0; a < runs.length; a++) {
    for (let b = a + 1; b < runs.length; b++) {
      pairs.push({ a, b, overlap: compareRuns(runs[a]!, runs[b]!, { ...options, ...(queryIds === undefined ? {} : { queryIds }) }) });
    }
  }
  return { size: runs.length, pairs };
}

/** The pair of two indexes in either order; undefined for a run with itself or one out of range. */
export function pairOf(matrix: OverlapMatrix, i: number, j: number): OverlapPair | undefined {
  const [a, b] = i < j ? [i, j] : [j, i];
  return matrix.pairs.find((pair) => pair.a === a && pair.b === b);
}
