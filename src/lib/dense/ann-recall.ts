/**
 * Quality of approximate search: recall@k of the ANN result against the exact top k, averaged over
 * queries — |ANN_k ∩ exact_k| / k (the measure of ann-benchmarks and of hnswlib's own tests). Ties at the
 * k-th exact score make it slightly pessimistic, never optimistic.
 */
import type { ScoredRow } from './exact-search.ts';

export function annRecallAtK(ann: readonly ScoredRow[][], exact: readonly ScoredRow[][], k: number): number {
  if (ann.length !== exact.length) throw new Error('ANN and exact results cover different query counts');
  if (ann.length === 0) return 1;
  let sum = 0;
  for (let q = 0; q < ann.length; q++) {
    const truth = exact[q]!.slice(0, k);
    if (truth.length === 0) {
      sum += 1;
      continue;
    }
    const found = new Set(ann[q]!.slice(0, k).map((hit) => hit.row));
    sum += truth.filter((hit) => found.has(hit.row)).length / truth.length;
  }
  return sum / ann.length;
}
