/**
 * What the diagnostics page can do, as plain async functions: the page's buttons call them, and browser
 * tests and the in-browser benchmark call them through `window.rpDiagnostics`. Every call uses the real
 * workers (embedding and search) exactly as the playground will, hosted the same way (src/app/workers).
 */
import type { SearchWorkerApi } from '../../workers/hnsw.worker.ts';
import { probeDevices, type DeviceProbe } from '../lib/dense/device.ts';
import type { EmbeddingDevice } from '../lib/dense/embedder.ts';
import type { ModelSourceConfig } from '../lib/dense/model-source.ts';
import { resolveModelSpec, type EmbeddingDtype } from '../lib/dense/registry.ts';
import { clusteredVectors } from '../lib/dense/synthetic-vectors.ts';
import { openEmbeddingWorker, type EmbeddingWorkerHandle } from '../app/workers/embedding-client.ts';
import { WorkerHost } from '../app/workers/worker-host.ts';
import { createEmbedWorker, createSearchWorker } from '../app/workers/worker-scripts.ts';
import { strideSample } from './stride-sample.ts';
import type { HnswParams } from '../lib/dense/hnsw-index.ts';
import type { VectorEncoding } from '../lib/dense/vector-codec.ts';
import type { VectorMatrix } from '../lib/dense/vector-matrix.ts';

/** The app's own models live at <base>/models/; `?remoteHost=` points hub ids at a mirror with the hub layout. */
export function modelSource(): ModelSourceConfig {
  const remoteHost = new URLSearchParams(location.search).get('remoteHost') ?? undefined;
  return { localModelPath: `${import.meta.env.BASE_URL}models/`, remoteHost };
}

export interface EmbedRequest {
  model: string;
  device: EmbeddingDevice | 'auto';
  dtype?: EmbeddingDtype;
}

async function withEmbedder<T>(request: EmbedRequest, work: (handle: EmbeddingWorkerHandle) => Promise<T>): Promise<T> {
  const handle = await openEmbeddingWorker(createEmbedWorker, {
    spec: resolveModelSpec(request.model),
    device: request.device,
    dtype: request.dtype,
    source: modelSource(),
  });
  try {
    return await work(handle);
  } finally {
    await handle.close();
  }
}

function rowsOf(m: VectorMatrix): number[][] {
  return Array.from({ length: m.rows }, (_, r) => Array.from(m.data.subarray(r * m.dim, (r + 1) * m.dim)));
}

export interface EmbedResult {
  vectors: number[][];
  device: EmbeddingDevice;
  dtype: EmbeddingDtype;
  fallbackReason?: string;
  loadMs: number;
  embedMs: number;
}

export function embedTexts(request: EmbedRequest & { texts: string[]; batchSize?: number | 'auto' }): Promise<EmbedResult> {
  return withEmbedder(request, async (handle) => {
    const t0 = performance.now();
    const vectors = await handle.host.call((api) => api.embed(request.texts, { batchSize: request.batchSize }));
    return {
      vectors: rowsOf(vectors),
      device: handle.info.device,
      dtype: handle.info.dtype,
      fallbackReason: handle.fallbackReason,
      loadMs: handle.info.loadMs,
      embedMs: performance.now() - t0,
    };
  });
}

export interface DatasetResult {
  hit: boolean;
  key: string;
  rows: number;
  dim: number;
  first: number[];
  device: EmbeddingDevice;
}

/** Embeds a small dataset through the IndexedDB cache (an embedding set named by the dataset, src/lib/storage/embedding-sets.ts). */
export function embedDataset(
  request: EmbedRequest & { dataset: string; ids: string[]; texts: string[]; encoding: VectorEncoding },
): Promise<DatasetResult> {
  return withEmbedder(request, async (handle) => {
    const { vectors, hit, key } = await handle.host.call((api) =>
      api.embedDataset({
        dataset: request.dataset,
        part: 'corpus',
        ids: request.ids,
        texts: request.texts,
        encoding: request.encoding,
      }),
    );
    return { hit, key, rows: vectors.rows, dim: vectors.dim, first: Array.from(vectors.data.subarray(0, vectors.dim)), device: handle.info.device };
  });
}

/** One HNSW worker for `work`; its calls reject if it crashes (no pings: the search worker has no `ping`). */
async function withSearchWorker<T>(work: (host: WorkerHost<SearchWorkerApi>) => Promise<T>): Promise<T> {
  const host = new WorkerHost<SearchWorkerApi>({ label: 'The HNSW worker', create: createSearchWorker, restart: false });
  try {
    return await work(host);
  } finally {
    await host.close();
  }
}

export interface HnswRoundTripRequest {
  phase: 'save' | 'load';
  filename: string;
  rows: number;
  dim: number;
  queries: number;
  k: number;
  params: Partial<HnswParams>;
}

export interface HnswRoundTripResult {
  found: boolean;
  efSearch: number;
  size: number;
  neighbours: number[][];
  recall: number;
}

/**
 * 'save': builds an HNSW index over seeded synthetic vectors and saves it to IndexedDB; 'load' (after a
 * page reload) reads it back for the same vectors. Both return the neighbours of the same queries.
 */
export function hnswRoundTrip(request: HnswRoundTripRequest): Promise<HnswRoundTripResult> {
  const corpus = clusteredVectors(request.rows, request.dim, { seed: 11 });
  const queries = clusteredVectors(request.queries, request.dim, { seed: 12 });
  return withSearchWorker(async (host) => {
    await host.call((api) => api.setCorpus(corpus));
    let found = true;
    let size = request.rows;
    if (request.phase === 'save') {
      await host.call((api) => api.buildHnsw(request.params));
      await host.call((api) => api.saveHnsw(request.filename));
    } else {
      const loaded = await host.call((api) => api.loadHnsw(request.filename, request.params));
      found = loaded.found;
      size = loaded.size;
      if (!found) return { found, efSearch: 0, size: 0, neighbours: [], recall: 0 };
    }
    const { results } = await host.call((api) => api.ann(queries, request.k));
    const recall = await host.call((api) => api.annRecall(queries, request.k));
    return { found, efSearch: recall.efSearch, size, neighbours: results.map((hits) => hits.map((h) => h.row)), recall: recall.recall };
  });
}

export interface EmbedBenchRow {
  mode: 'naive' | 'batched';
  batchSize: number | 'auto';
  docs: number;
  ms: number;
  docsPerSecond: number;
}

export interface EmbedBenchResult {
  model: string;
  device: EmbeddingDevice;
  dtype: EmbeddingDtype;
  fallbackReason?: string;
  /** The model's load in a fresh worker, onnxruntime's start included (the worker's own figure). */
  loadMs: number;
  /** First batch on a cold session (shader compilation on WebGPU). */
  coldMs: number;
  rows: EmbedBenchRow[];
}

/** Warm timings of one model on one device: naive loop, adaptive batching and a fixed-size sweep. */
export function benchEmbed(
  request: EmbedRequest & { texts: string[]; batchSizes: number[]; naiveDocs: number },
): Promise<EmbedBenchResult> {
  return withEmbedder(request, async (handle) => {
    const { host } = handle;
    const t0 = performance.now();
    await host.call((api) => api.embed(request.texts.slice(0, 8), { batchSize: 8 }));
    const coldMs = performance.now() - t0;
    const rows: EmbedBenchRow[] = [];
    const time = async (mode: EmbedBenchRow['mode'], batchSize: number | 'auto', texts: string[], run: () => Promise<unknown>) => {
      const start = performance.now();
      await run();
      const ms = performance.now() - start;
      rows.push({ mode, batchSize, docs: texts.length, ms, docsPerSecond: texts.length / (ms / 1000) });
    };
    const naiveTexts = strideSample(request.texts, request.naiveDocs);
    // Untimed passes of every mode over a sample as large as the largest batch, for at least 3 s: V8
    // compiles onnxruntime's WebAssembly to optimized code in the background over its first seconds of use,
    // and onnxruntime grows its buffers on the first run of each batch size.
    // After an 8-text warm-up alone, the first timed rows (naive, auto) ran on slower code than the sweep.
    const warm = strideSample(request.texts, Math.max(64, ...request.batchSizes));
    const warmUntil = performance.now() + 3000;
    do {
      await host.call((api) => api.embedEach(warm.slice(0, 8)));
      await host.call((api) => api.embed(warm, { batchSize: 'auto' }));
      for (const size of request.batchSizes) await host.call((api) => api.embed(warm, { batchSize: size }));
    } while (performance.now() < warmUntil);
    await time('naive', 1, naiveTexts, () => host.call((api) => api.embedEach(naiveTexts)));
    await time('batched', 'auto', request.texts, () => host.call((api) => api.embed(request.texts, { batchSize: 'auto' })));
    for (const size of request.batchSizes) {
      await time('batched', size, request.texts, () => host.call((api) => api.embed(request.texts, { batchSize: size })));
    }
    return { model: request.model, device: handle.info.device, dtype: handle.info.dtype, fallbackReason: handle.fallbackReason, loadMs: handle.info.loadMs, coldMs, rows };
  });
}

export const diagnosticsApi = { probe: probeDevices, embedTexts, embedDataset, hnswRoundTrip, benchEmbed };
export type DiagnosticsApi = typeof diagnosticsApi;

export type { DeviceProbe };
