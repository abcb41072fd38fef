/**
 * Search worker (comlink): holds one corpus matrix and answers exact and HNSW top-k queries, builds,
 * saves and loads the HNSW index (IndexedDB through hnswlib-wasm's IDBFS), and measures ANN recall@k
 * against exact search with per-query latencies.
 */
import * as Comlink from 'comlink';
import { annRecallAtK } from '../src/lib/dense/ann-recall.ts';
import { exactTopK } from '../src/lib/dense/exact-search.ts';
import { HnswIndex, type HnswParams } from '../src/lib/dense/hnsw-index.ts';
import type { ScoredRow } from '../src/lib/dense/exact-search.ts';
import { matrixRow, type VectorMatrix } from '../src/lib/dense/vector-matrix.ts';
import './policy-violations.ts';

let corpus: VectorMatrix | undefined;
let index: HnswIndex | undefined;

function matrix(): VectorMatrix {
  if (!corpus) throw new Error('no corpus matrix: call setCorpus first');
  return corpus;
}

function hnsw(): HnswIndex {
  if (!index) throw new Error('no HNSW index: build or load one first');
  return index;
}

function timedSearch(queries: VectorMatrix, search: (q: Float32Array) => ScoredRow[]): { results: ScoredRow[][]; msPerQuery: number } {
  const t0 = performance.now();
  const results: ScoredRow[][] = [];
  for (let q = 0; q < queries.rows; q++) results.push(search(matrixRow(queries, q)));
  return { results, msPerQuery: queries.rows > 0 ? (performance.now() - t0) / queries.rows : 0 };
}

const api = {
  setCorpus(vectors: VectorMatrix): void {
    corpus = vectors;
    index?.dispose();
    index = undefined;
  },

  async buildHnsw(params: Partial<HnswParams> = {}): Promise<{ ms: number; params: HnswParams }> {
    const t0 = performance.now();
    index?.dispose();
    index = await HnswIndex.build(matrix(), params);
    return { ms: performance.now() - t0, params: { ...index.params } };
  },

  async saveHnsw(filename: string): Promise<{ ms: number }> {
    const t0 = performance.now();
    await hnsw().save(filename);
    return { ms: performance.now() - t0 };
  },

  /** Loads a saved index for the current corpus; false when no such file exists. */
  async loadHnsw(filename: string, params: Partial<HnswParams> = {}): Promise<{ found: boolean; efSearch: number; size: number }> {
    const loadedIndex = await HnswIndex.load(filename, matrix().dim, params);
    if (!loadedIndex) return { found: false, efSearch: 0, size: 0 };
    index?.dispose();
    index = loadedIndex;
    return { found: true, efSearch: index.efSearch, size: index.size };
  },

  setEfSearch(ef: number): void {
    hnsw().setEfSearch(ef);
  },

  exact(queries: VectorMatrix, k: number): { results: ScoredRow[][]; msPerQuery: number } {
    const m = matrix();
    return timedSearch(queries, (q) => exactTopK(m, q, k));
  },

  ann(queries: VectorMatrix, k: number): { results: ScoredRow[][]; msPerQuery: number } {
    const i = hnsw();
    return timedSearch(queries, (q) => i.search(q, k));
  },

  /** recall@k of HNSW against exact search on these queries, with both latencies. */
  annRecall(queries: VectorMatrix, k = 10): { recall: number; annMsPerQuery: number; exactMsPerQuery: number; efSearch: number } {
    const exact = api.exact(queries, k);
    const ann = api.ann(queries, k);
    return {
      recall: annRecallAtK(ann.results, exact.results, k),
      annMsPerQuery: ann.msPerQuery,
      exactMsPerQuery: exact.msPerQuery,
      efSearch: hnsw().efSearch,
    };
  },
};

export type SearchWorkerApi = typeof api;

Comlink.expose(api);
