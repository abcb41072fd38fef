/**
 * What a column's indexes cost, read when its run is made from the engine's report of how they were opened:
 * the BM25 index (built now or loaded from storage, its stored size and build time) and the dense model and
 * corpus vectors (device, embedding time and speed, HNSW graph).
 */
import type { IndexInfo } from '../../lib/services/bm25-service.ts';
import type { DenseSettings } from '../../lib/retrievers/config.ts';
import type { DenseOpenInfo, RerankerOpenInfo } from '../engine/backends.ts';
import type { Bm25Efficiency, DenseEfficiency, RerankEfficiency } from '../../lib/storage/evaluation-runs.ts';

export function bm25Efficiency(info: IndexInfo, analyzer: string): Bm25Efficiency {
  return { analyzer, source: info.source, buildMs: info.buildMs, bytes: info.storedBytes, builtAt: info.builtAt };
}

export function denseEfficiency(info: DenseOpenInfo, settings: DenseSettings): DenseEfficiency {
  return {
    model: settings.model,
    device: info.device,
    dtype: info.dtype,
    dim: info.dim,
    docs: info.docs,
    source: info.fromCache ? 'stored' : 'embedded',
    embedMs: info.embedMs,
    ...(info.docsPerSecond === undefined ? {} : { docsPerSecond: info.docsPerSecond }),
    vectorBytes: info.docs * info.dim * Float32Array.BYTES_PER_ELEMENT,
    ...(info.hnsw === undefined ? {} : { hnsw: info.hnsw }),
    ...(info.fallbackReason === undefined ? {} : { fallbackReason: info.fallbackReason }),
  };
}

export function rerankEfficiency(info: RerankerOpenInfo, depth: number): RerankEfficiency {
  return {
    model: info.model,
    device: info.device,
    dtype: info.dtype,
    maxLength: info.maxLength,
    loadMs: info.loadMs,
    depth,
    ...(info.fallbackReason === undefined ? {} : { fallbackReason: info.fallbackReason }),
  };
}
