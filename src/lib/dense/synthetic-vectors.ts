/**
 * Seeded synthetic embeddings for tests and benchmarks: unit vectors around a set of random centres (real
 * text embeddings are clustered, and uniformly random high-dimensional points are an unrealistically hard
 * case for graph indexes), or noisy copies of a real matrix to scale a corpus up (the "10×" benchmark).
 */
import { normalizeInPlace, type VectorMatrix } from './vector-matrix.ts';

/** mulberry32 PRNG in [0, 1). */
export function seededRandom(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Standard normal deviate (Box–Muller). */
function gaussian(random: () => number): number {
  const u = Math.max(random(), 1e-12);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
}

/** `rows` unit vectors: centre c(r) plus N(0, spread²) noise per component, normalized. */
export function clusteredVectors(rows: number, dim: number, options: { clusters?: number; spread?: number; seed?: number } = {}): VectorMatrix {
  const random = seededRandom(options.seed ?? 1);
  const clusters = options.clusters ?? Math.max(1, Math.round(Math.sqrt(rows)));
  const spread = options.spread ?? 0.6;
  const centres = new Float32Array(clusters * dim).map(() => gaussian(random));
  const data = new Float32Array(rows * dim);
  for (let r = 0; r < rows; r++) {
    const c = Math.floor(random() * clusters);
    for (let i = 0; i < dim; i++) data[r * dim + i] = centres[c * dim + i]! / Math.sqrt(dim) + (spread * gaussian(random)) / Math.sqrt(dim);
    normalizeInPlace(data.subarray(r * dim, (r + 1) * dim));
  }
  return { rows, dim, data };
}

/** `factor` noisy copies of each row (noise σ = `noise` per component on unit vectors), normalized. */
export function scaledUpVectors(base: VectorMatrix, factor: number, options: { noise?: number; seed?: number } = {}): VectorMatrix {
  const random = seededRandom(options.seed ?? 7);
  const noise = (options.noise ?? 0.3) / Math.sqrt(base.dim);
  const rows = base.rows * factor;
  const data = new Float32Array(rows * base.dim);
  for (let r = 0; r < rows; r++) {
    const src = r % base.rows;
    for (let i = 0; i < base.dim; i++) data[r * base.dim + i] = base.data[src * base.dim + i]! + noise * gaussian(random);
    normalizeInPlace(data.subarray(r * base.dim, (r + 1) * base.dim));
  }
  return { rows, dim: base.dim, data };
}
