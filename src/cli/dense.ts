/**
 * Dense models in Node: the same src/lib/dense code as the embedding worker, on onnxruntime-node through
 * transformers.js (static tables: a lookup in TypeScript), with the same model files (public/models for the
 * project's own models, .cache/models for its reference models, the hub layout for the others). The CLI's
 * commands load models here and rank through node-search.ts; `denseRetrieve` is a standalone whole-run
 * helper for tests and benchmarks (its HNSW asks hnswlib for exactly topK, unlike the page's ranking).
 *
 *   denseRetrieve({ docs, queries, model })                 → exact top-k by the model's similarity
 *   denseRetrieve({ …, candidates })                        → only each query's candidate ids are scored (LEDR)
 *   denseRetrieve({ …, search: 'hnsw' })                    → HNSW top-k (hnswlib-wasm) instead of exact
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadEmbedder, type Embedder } from '../lib/dense/embedder.ts';
import { passageText, queryText } from '../lib/dense/embedding-text.ts';
import { exactTopKMany, rowIndex, scoreCandidates } from '../lib/dense/exact-search.ts';
import { HnswIndex, type HnswParams } from '../lib/dense/hnsw-index.ts';
import { configureModelSource } from '../lib/dense/model-source.ts';
import { resolveModelSpec, type EmbeddingDtype, type ModelSpec } from '../lib/dense/registry.ts';
import { matrixRow, type VectorMatrix } from '../lib/dense/vector-matrix.ts';
import type { EmbedProgress } from '../lib/dense/batching.ts';
import type { Doc, Query, Run } from '../lib/types.ts';
import { CliError } from './cli-error.ts';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** Where `npm run models` writes the models the app serves. */
export const MODELS_DIR = join(REPO, 'public', 'models');
/** Where `npm run models` writes the reference models (tests, benchmarks, CLI; never served). */
export const REFERENCE_MODELS_DIR = join(REPO, '.cache', 'models');

/** The CLI's dense model when none is named: the app's default (a static table, offline). */
export const DEFAULT_DENSE_MODEL = 'local/glove-100d-sif';

export interface NodeModel {
  spec: ModelSpec;
  /** The folder transformers.js reads `<id>/…` from. */
  localModelPath: string;
}

/**
 * A registry id (`local/glove-100d-sif`, `Xenova/bge-small-en-v1.5`), any hub id, or a model folder in the
 * transformers.js layout (config.json, tokenizer.json, onnx/model.onnx). A folder's settings come from the
 * registry entry of the same name if any, otherwise the sentence-transformers defaults; a `retrieval_playground`
 * object in its config.json may override them (pooling, normalize, prefixes…).
 */
export function resolveNodeModel(model: string, overrides: Partial<ModelSpec> = {}): NodeModel {
  const folder = resolve(model);
  if (existsSync(folder) && statSync(folder).isDirectory()) {
    if (!existsSync(join(folder, 'config.json'))) throw new CliError(`${model}: no config.json in this model folder`);
    const config = JSON.parse(readFileSync(join(folder, 'config.json'), 'utf8')) as { retrieval_playground?: Partial<ModelSpec> };
    const fromFolder = config.retrieval_playground ?? {};
    const kind = (fromFolder as { kind?: string }).kind;
    const pooled =
      kind === 'static-pooled'
        ? { kind: 'static-pooled' as const, pooling: 'none' as const }
        : kind === 'static-table'
          ? { kind: 'static-table' as const, pooling: 'none' as const, dtypes: ['q8' as const], defaultDtype: 'q8' as const, dim: 0 }
          : {};
    const spec = resolveModelSpec(basename(folder), { source: 'local', ...pooled, ...overrides });
    return { spec: { ...spec, id: basename(folder), source: 'local' }, localModelPath: dirname(folder) };
  }
  const spec = resolveModelSpec(model, overrides);
  if (spec.source === 'local') {
    const dir = [MODELS_DIR, REFERENCE_MODELS_DIR].find((d) => existsSync(join(d, spec.id, 'config.json')));
    if (dir === undefined) throw new CliError(`${spec.id} is not built: run npm run models`);
    return { spec, localModelPath: dir };
  }
  return { spec, localModelPath: MODELS_DIR };
}

/** Reads a model file of a local folder (static tables; transformers.js reads its own). */
async function readModelFile(path: string): Promise<Uint8Array> {
  try {
    return await readFile(path);
  } catch (error) {
    // The wording of transformers.js's own "not found", so the load failure names the file.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new Error(`Could not locate file: "${path}".`, { cause: error });
    throw error;
  }
}

/**
 * Loads an embedder on onnxruntime-node (a static table: in TypeScript). Hub models need network access to
 * huggingface.co (or a mirror). A dtype the model lacks falls back to its default only for static tables,
 * whose one dtype is q8 (old `--dtype fp32` command lines keep working).
 */
export async function loadNodeEmbedder(model: NodeModel, dtype?: EmbeddingDtype): Promise<Embedder> {
  configureModelSource(model.spec, { localModelPath: model.localModelPath });
  const wanted = dtype ?? model.spec.defaultDtype;
  const usable = model.spec.kind === 'static-table' && !model.spec.dtypes.includes(wanted) ? model.spec.defaultDtype : wanted;
  return loadEmbedder({ spec: model.spec, device: 'cpu', dtype: usable, readFile: readModelFile });
}

export interface DenseRetrieveOptions {
  docs: readonly Doc[];
  queries: readonly Query[];
  /** Registry id, hub id or model folder (see resolveNodeModel). */
  model: string;
  dtype?: EmbeddingDtype;
  /** Hits per query (default 1000, as BEIR/Pyserini runs). */
  topK?: number;
  /** Query id → candidate doc ids: only these are scored (LEDR). Queries without an entry get no hits. */
  candidates?: ReadonlyMap<string, readonly string[]>;
  search?: 'exact' | 'hnsw';
  hnsw?: Partial<HnswParams>;
  batchSize?: number | 'auto';
  onProgress?: (stage: 'corpus' | 'queries', progress: EmbedProgress) => void;
  /** Reuse an embedder (benchmarks, tests); otherwise one is loaded and disposed. */
  embedder?: Embedder;
}

export interface DenseTimings {
  loadMs: number;
  embedCorpusMs: number;
  embedQueriesMs: number;
  indexMs: number;
  searchMs: number;
}

export interface DenseInfo {
  model: string;
  dtype: EmbeddingDtype;
  device: string;
  dim: number;
  similarity: ModelSpec['similarity'];
  docs: number;
  queries: number;
  search: 'exact' | 'hnsw' | 'candidates';
  docsPerSecond: number;
}

export interface DenseResult {
  run: Run;
  timings: DenseTimings;
  info: DenseInfo;
  /** Kept for callers that want to reuse them (ANN recall, caching). */
  corpus: { ids: string[]; vectors: VectorMatrix };
  queryVectors: VectorMatrix;
}

/**
 * hnswlib-wasm mounts its Emscripten file system on IndexedDB when it loads; Node has none, so an
 * in-memory one (fake-indexeddb) stands in — the CLI never persists indexes.
 */
export async function provideIndexedDb(): Promise<void> {
  // A non-literal specifier: the 'fake-indexeddb/auto' entry (it installs the globals) ships no types.
  const installGlobals = 'fake-indexeddb/auto';
  if (!('indexedDB' in globalThis)) await import(installGlobals);
}

export async function denseRetrieve(options: DenseRetrieveOptions): Promise<DenseResult> {
  const topK = options.topK ?? 1000;
  const t0 = performance.now();
  const nodeModel = options.embedder ? undefined : resolveNodeModel(options.model);
  const embedder = options.embedder ?? (await loadNodeEmbedder(nodeModel!, options.dtype));
  const { spec } = embedder;
  const t1 = performance.now();
  try {
    const ids = options.docs.map((d) => d.id);
    const corpusVectors = await embedder.embed(
      options.docs.map((d) => passageText(d, spec)),
      { batchSize: options.batchSize, onProgress: (p) => options.onProgress?.('corpus', p) },
    );
    const t2 = performance.now();
    const queryVectors = await embedder.embed(
      options.queries.map((q) => queryText(q, spec)),
      { batchSize: options.batchSize, onProgress: (p) => options.onProgress?.('queries', p) },
    );
    const t3 = performance.now();
    const run: Run = new Map();
    let indexMs = 0;
    let searchMode: DenseInfo['search'] = options.candidates ? 'candidates' : (options.search ?? 'exact');
    if (options.candidates) {
      const rows = rowIndex(ids);
      options.queries.forEach((q, i) => {
        const candidates = options.candidates!.get(q.id) ?? [];
        run.set(q.id, scoreCandidates(corpusVectors, rows, matrixRow(queryVectors, i), candidates).slice(0, topK));
      });
    } else if (searchMode === 'hnsw') {
      await provideIndexedDb();
      const index = await HnswIndex.build(corpusVectors, options.hnsw);
      indexMs = performance.now() - t3;
      options.queries.forEach((q, i) => {
        run.set(q.id, index.search(matrixRow(queryVectors, i), topK).map(({ row, score }) => ({ docId: ids[row]!, score })));
      });
      index.dispose();
    } else {
      searchMode = 'exact';
      const found = exactTopKMany(corpusVectors, options.queries.map((_, i) => matrixRow(queryVectors, i)), topK);
      options.queries.forEach((q, i) => run.set(q.id, found[i]!.map(({ row, score }) => ({ docId: ids[row]!, score }))));
    }
    const t4 = performance.now();
    return {
      run,
      timings: {
        loadMs: t1 - t0,
        embedCorpusMs: t2 - t1,
        embedQueriesMs: t3 - t2,
        indexMs,
        searchMs: t4 - t3 - indexMs,
      },
      info: {
        model: spec.id,
        dtype: embedder.dtype,
        device: embedder.device,
        dim: corpusVectors.dim,
        similarity: spec.similarity,
        docs: ids.length,
        queries: options.queries.length,
        search: searchMode,
        docsPerSecond: ids.length / ((t2 - t1) / 1000),
      },
      corpus: { ids, vectors: corpusVectors },
      queryVectors,
    };
  } finally {
    if (!options.embedder) await embedder.dispose();
  }
}
