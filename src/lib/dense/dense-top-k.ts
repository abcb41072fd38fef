/**
 * One query's dense top-k over a corpus matrix, exact or through an HNSW graph, with the rules the page and
 * the CLI share: a query vector of zeros (a static model that knows none of its words) ranks nothing rather
 * than an arbitrary order of zeros, and HNSW returns at most efSearch hits — asking hnswlib for more would
 * widen its beam to k (it searches with max(ef, k)), so efSearch would not be what it says.
 */
import { rankedRowsOf, type RankedRows } from '../hits/top-of-scores.ts';
import { exactTopK, exactTopRowsMany, type ScoredRow } from './exact-search.ts';
import type { HnswIndex } from './hnsw-index.ts';
import type { VectorMatrix } from './vector-matrix.ts';

function isZeroVector(vector: Float32Array): boolean {
  for (const x of vector) if (x !== 0) return false;
  return true;
}

/** Top-k rows by dot product (exact without `graph`; with it, HNSW at the graph's efSearch). */
function denseTopK(matrix: VectorMatrix, query: Float32Array, k: number, graph?: HnswIndex): ScoredRow[] {
  if (isZeroVector(query)) return [];
  return graph === undefined ? exactTopK(matrix, query, k) : graph.search(query, Math.min(k, graph.efSearch));
}

/**
 * denseTopK of each query (exact search shares its passes over the matrix: exactTopKMany). An undefined
 * query (a blank text) ranks nothing, as a zero vector does.
 */
export function denseTopKMany(matrix: VectorMatrix, queries: readonly (Float32Array | undefined)[], k: number, graph?: HnswIndex): RankedRows[] {
  const ranked = (query: Float32Array | undefined): query is Float32Array => query !== undefined && !isZeroVector(query);
  if (graph !== undefined) return queries.map((query) => rankedRowsOf(ranked(query) ? denseTopK(matrix, query, k, graph) : []));
  const found = exactTopRowsMany(matrix, queries.filter(ranked), k);
  let next = 0;
  return queries.map((query) => (ranked(query) ? found[next++]! : rankedRowsOf([])));
}
