/**
 * What a column's indexes cost, read when its run is made: the BM25 index row of its analyzer in IndexedDB
 * (build time and stored size, saved by the BM25 worker) and the engine's report of how its dense model and
 * corpus vectors were opened (device, embedding time and speed, HNSW graph). An index counts as "built"
 * when it was written during this page session, as "stored" when an earlier session left it.
 */
import { BM25_INDEX_KIND } from '../../lib/bm25-wasm/bm25-service.ts';
import type { DenseSettings } from '../../lib/retrievers/config.ts';
import type { IndexRow, PlaygroundDatabase } from '../../lib/storage/db.ts';
import type { DenseOpenInfo } from '../engine/backends.ts';
import type { Bm25Efficiency, DenseEfficiency } from './evaluation-store.ts';

interface Bm25RowSettings {
  analyzer?: unknown;
  collection?: { createdAt?: unknown };
}

/** The newest BM25 index row of this analyzer built on this import of the collection. */
export async function bm25IndexRow(db: PlaygroundDatabase, collectionId: string, collectionVersion: number, analyzer: string): Promise<IndexRow | undefined> {
  const rows = await db.indexes
    .where('collectionId')
    .equals(collectionId)
    .filter((row) => {
      const settings = row.settings as Bm25RowSettings;
      return row.kind === BM25_INDEX_KIND && settings.analyzer === analyzer && settings.collection?.createdAt === collectionVersion;
    })
    .toArray();
  return rows.sort((a, b) => b.createdAt - a.createdAt)[0];
}

/** `pageStartedAt`: epoch ms of the page load (performance.timeOrigin). */
export function bm25Efficiency(row: IndexRow, analyzer: string, pageStartedAt: number): Bm25Efficiency {
  return {
    analyzer,
    source: row.createdAt >= pageStartedAt ? 'built' : 'stored',
    buildMs: row.buildMs,
    bytes: row.bytes,
    builtAt: row.createdAt,
  };
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
