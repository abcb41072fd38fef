/**
 * Embedding worker (comlink): one model on one device (workers/model-session.ts) that embeds texts, with
 * progress, cancel and the IndexedDB embedding cache (the app's embedding sets: src/lib/storage/embedding-sets.ts).
 * Used by the diagnostics page through src/app/workers/embedding-client.ts (WebGPU → WASM fallback in a fresh
 * worker).
 */
import * as Comlink from 'comlink';
import { probeDevices, type DeviceProbe } from '../src/lib/dense/device.ts';
import { vectorSettings } from '../src/lib/dense/embedding-text.ts';
import type { EmbedProgress } from '../src/lib/dense/batching.ts';
import { database } from '../src/lib/storage/db.ts';
import { embedThroughSets, type EmbeddingSetSpec } from '../src/lib/storage/embedding-sets.ts';
import type { VectorEncoding } from '../src/lib/dense/vector-codec.ts';
import type { VectorMatrix } from '../src/lib/dense/vector-matrix.ts';
import { ModelSession, type DownloadListener, type LoadRequest } from './model-session.ts';

export type { LoadedInfo, LoadRequest } from './model-session.ts';

export interface DatasetRequest {
  dataset: string;
  part: 'corpus' | 'queries';
  ids: string[];
  texts: string[];
  encoding: VectorEncoding;
  batchSize?: number | 'auto';
}

const session = new ModelSession();

function transferable(m: VectorMatrix): VectorMatrix {
  return Comlink.transfer(m, [m.data.buffer]);
}

const api = {
  /** Answers as soon as the worker's event loop is free (the page's liveness check). */
  ping: () => true,

  probe(): Promise<DeviceProbe> {
    return probeDevices();
  },

  load: (request: LoadRequest, onDownload?: DownloadListener) => session.load(request, onDownload),

  /** Embeds texts; concurrent calls run one after the other. */
  embed(texts: string[], options: { batchSize?: number | 'auto' } = {}, onProgress?: (p: EmbedProgress) => void): Promise<VectorMatrix> {
    return session.cancellable(async (signal) => transferable(await session.model.embed(texts, { batchSize: options.batchSize, signal, onProgress })));
  },

  /** The naive baseline: one pipeline call per text. */
  embedEach(texts: string[]): Promise<VectorMatrix> {
    return session.cancellable(async (signal) => transferable(await session.model.embedEach(texts, { signal })));
  },

  /** Embeds through the IndexedDB cache (an embedding set named by the dataset); `hit` tells whether the vectors came from it. */
  embedDataset(request: DatasetRequest, onProgress?: (p: EmbedProgress) => void): Promise<{ vectors: VectorMatrix; hit: boolean; key: string }> {
    const model = session.model;
    const spec: EmbeddingSetSpec = {
      collectionId: request.dataset,
      part: request.part,
      modelId: model.spec.id,
      dtype: model.dtype,
      encoding: request.encoding,
      settings: vectorSettings(model.spec, request.part),
    };
    return session.cancellable(async (signal) => {
      const embed = () => model.embed(request.texts, { batchSize: request.batchSize, signal, onProgress });
      const { vectors, hit, key } = await embedThroughSets(database(), spec, request, embed, model.device);
      return { vectors: transferable(vectors), hit, key };
    });
  },

  /** Stops the running and queued embeds between two batches; their promises reject with an AbortError. */
  cancel(): void {
    session.cancel();
  },

  async dispose(): Promise<void> {
    await session.dispose();
  },
};

export type EmbedWorkerApi = typeof api;

Comlink.expose(api);
