/**
 * A dense row-major matrix of embeddings: row r is the vector of ids[r]. Plain data (a Float32Array and
 * numbers), so it crosses worker boundaries by structured clone or transfer.
 */
export interface VectorMatrix {
  rows: number;
  dim: number;
  data: Float32Array;
}

export function matrixRow(m: VectorMatrix, row: number): Float32Array {
  return m.data.subarray(row * m.dim, (row + 1) * m.dim);
}

/** Dot product of two equally long vectors. */
export function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}

/**
 * `dot(matrixRow(m, row), v)` without making a view of the row: LEDR scores 300 queries × 1,000 candidates
 * in an evaluation, and a subarray per candidate cost more than its 100 multiplications. Same sum, same order.
 */
export function dotWithRow(m: VectorMatrix, row: number, v: Float32Array): number {
  const { data, dim } = m;
  const base = row * dim;
  let s = 0;
  for (let i = 0; i < dim; i++) s += data[base + i]! * v[i]!;
  return s;
}

/** Scales v to unit L2 norm in place (a zero vector stays zero). */
export function normalizeInPlace(v: Float32Array): Float32Array {
  const norm = Math.sqrt(dot(v, v));
  if (norm > 0) for (let i = 0; i < v.length; i++) v[i] = v[i]! / norm;
  return v;
}
