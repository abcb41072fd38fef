/**
 * Exact (brute-force) search over a stored embedding matrix. The score is the dot product; for models
 * whose card says cosine, rows and queries are L2-normalized when stored, so dot = cosine.
 */
import type { Hit } from '../types.ts';
import { TopK } from '../retrievers/top-k.ts';
import { dot, matrixRow, type VectorMatrix } from './vector-matrix.ts';

/** A row of an embedding matrix (or HNSW graph) with its similarity to a query. */
export interface ScoredRow {
  row: number;
  score: number;
}

/** The k rows with the highest dot product with `query`, best first (ties: lower row first). */
export function exactTopK(matrix: VectorMatrix, query: Float32Array, k: number): ScoredRow[] {
  if (query.length !== matrix.dim) throw new Error(`query has ${query.length} dimensions, matrix ${matrix.dim}`);
  const top = new TopK(Math.min(k, matrix.rows));
  const { data, dim } = matrix;
  for (let r = 0; r < matrix.rows; r++) {
    let s = 0;
    const base = r * dim;
    for (let i = 0; i < dim; i++) s += data[base + i]! * query[i]!;
    top.offer(r, s);
  }
  return top.sorted((row, score): ScoredRow => ({ row, score }));
}

/** exactTopK as hits with document ids (`ids[row]`). */
export function exactSearch(matrix: VectorMatrix, ids: readonly string[], query: Float32Array, k: number): Hit[] {
  return exactTopK(matrix, query, k).map(({ row, score }) => ({ docId: ids[row]!, score }));
}

/**
 * Scores only the given candidate documents (LEDR re-scores BM25's candidates; LaPraDoR's code restricts
 * dense scoring to them). Unknown ids are skipped. Hits come back best first.
 */
export function scoreCandidates(
  matrix: VectorMatrix,
  rowOf: ReadonlyMap<string, number>,
  query: Float32Array,
  candidateIds: readonly string[],
): Hit[] {
  const hits: Hit[] = [];
  for (const docId of candidateIds) {
    const row = rowOf.get(docId);
    if (row === undefined) continue;
    hits.push({ docId, score: dot(matrixRow(matrix, row), query) });
  }
  return hits.sort((a, b) => b.score - a.score);
}

/** id → row index, for scoreCandidates. */
export function rowIndex(ids: readonly string[]): Map<string, number> {
  return new Map(ids.map((id, row) => [id, row]));
}
