/**
 * Approximate nearest-neighbour search with hnswlib (Malkov & Yashunin 2018, "Efficient and robust
 * approximate nearest neighbor search using Hierarchical Navigable Small World graphs") compiled to wasm
 * (npm hnswlib-wasm). Space 'ip': distance = 1 − dot, so score = 1 − distance is the same dot product (=
 * cosine on normalized vectors) that exact search computes.
 *
 * Parameters: M (graph degree), efConstruction (build beam), efSearch (query beam, ≥ k). hnswlib does not
 * store efSearch in the index file — readIndex resets it to 10 — so `load` sets it again.
 *
 * Persistence: hnswlib-wasm writes to Emscripten's virtual file system, mounted on IDBFS (IndexedDB store
 * "FILE_DATA" of database "/hnswlib-index"); `save` writes the file and syncs the FS to IndexedDB, `load`
 * syncs from IndexedDB first. In Node the same code runs on fake-indexeddb.
 */
import type { HierarchicalNSW, HnswlibModule } from 'hnswlib-wasm';
import { matrixRow, type VectorMatrix } from './vector-matrix.ts';
import type { ScoredRow } from './exact-search.ts';

export interface HnswParams {
  M: number;
  efConstruction: number;
  efSearch: number;
  /** Seed of hnswlib's level generator, so builds are reproducible. */
  seed: number;
}

/**
 * hnswlib's defaults for M and efConstruction. efSearch 128: the smallest that keeps recall@10 against
 * exact search at 0.99 or more on SciFact (`npm run bench:ann`, bench/results).
 */
export const DEFAULT_HNSW: HnswParams = { M: 16, efConstruction: 200, efSearch: 128, seed: 100 };

let library: Promise<HnswlibModule> | undefined;

/**
 * Loads the wasm module once per thread. Its Emscripten build only accepts a window or a worker scope
 * (`typeof importScripts == 'function'`); in Node (tests, CLI) a no-op importScripts satisfies that check —
 * the wasm binary is inlined as base64, so nothing is ever imported through it.
 */
export function loadHnswlibModule(): Promise<HnswlibModule> {
  const scope = globalThis as { window?: unknown; importScripts?: unknown };
  if (scope.window === undefined && scope.importScripts === undefined) scope.importScripts = () => undefined;
  library ??= import('hnswlib-wasm/dist/hnswlib.js').then((m) => m.loadHnswlib());
  return library;
}

async function syncFs(direction: 'read' | 'write'): Promise<void> {
  const { syncFileSystem } = await import('hnswlib-wasm/dist/hnswlib.js');
  await syncFileSystem(direction);
}

export class HnswIndex {
  private constructor(
    private readonly index: HierarchicalNSW,
    readonly dim: number,
    readonly params: HnswParams,
  ) {}

  /** Builds an index over every row of the matrix (label = row). */
  static async build(matrix: VectorMatrix, params: Partial<HnswParams> = {}): Promise<HnswIndex> {
    const p = { ...DEFAULT_HNSW, ...params };
    const lib = await loadHnswlibModule();
    const index = new lib.HierarchicalNSW('ip', matrix.dim, '');
    index.initIndex(Math.max(1, matrix.rows), p.M, p.efConstruction, p.seed);
    for (let r = 0; r < matrix.rows; r++) index.addPoint(matrixRow(matrix, r), r, false);
    index.setEfSearch(p.efSearch);
    return new HnswIndex(index, matrix.dim, p);
  }

  /** Reads an index saved with `save`; efSearch is set again (the file does not keep it). */
  static async load(filename: string, dim: number, params: Partial<HnswParams> = {}): Promise<HnswIndex | undefined> {
    const p = { ...DEFAULT_HNSW, ...params };
    const lib = await loadHnswlibModule();
    await syncFs('read');
    if (!lib.EmscriptenFileSystemManager.checkFileExists(filename)) return undefined;
    const index = new lib.HierarchicalNSW('ip', dim, '');
    // readIndex's maxElements only matters for later inserts; the stored count wins when larger.
    await index.readIndex(filename, 1);
    index.setEfSearch(p.efSearch);
    return new HnswIndex(index, dim, p);
  }

  get size(): number {
    return this.index.getCurrentCount();
  }

  get efSearch(): number {
    return this.index.getEfSearch();
  }

  setEfSearch(ef: number): void {
    this.index.setEfSearch(ef);
    this.params.efSearch = ef;
  }

  /** The k nearest rows, best first, scored by dot product. */
  search(query: Float32Array, k: number): ScoredRow[] {
    const n = Math.min(k, this.size);
    if (n === 0) return [];
    const { neighbors, distances } = this.index.searchKnn(query, n, undefined);
    return neighbors
      .map((row, i) => ({ row, score: 1 - (distances[i] ?? 1) }))
      .sort((a, b) => b.score - a.score || a.row - b.row);
  }

  /** Writes the index to the IDBFS-backed file system and flushes it to IndexedDB. */
  async save(filename: string): Promise<void> {
    await this.index.writeIndex(filename);
    // writeIndex starts hnswlib's own IDBFS sync, and hnswlib reports "synced" with one shared flag: a
    // second sync started while that one runs could report done before the file is stored. So let the
    // first finish, then flush once more on our own.
    const { waitForFileSystemSynced } = await import('hnswlib-wasm/dist/hnswlib.js');
    await waitForFileSystemSynced();
    await syncFs('write');
  }

  /** Frees the wasm-side memory. */
  dispose(): void {
    (this.index as unknown as { delete?: () => void }).delete?.();
  }
}
