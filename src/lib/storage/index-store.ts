import { settingsKey } from '../settings-key.ts';
import type { IndexRow, PlaygroundDatabase } from './db.ts';

/**
 * Built indexes in IndexedDB (`indexes` table of db.ts), found by what they were built from. A row is keyed
 * `${collectionId}|${kind}|${settingsKey}`, so indexes built with different settings (two analyzers, say)
 * live side by side, and a rebuild with the same settings replaces its row. The format version is not part
 * of the key: a row of another version is found, reported stale, and overwritten by the rebuild — never
 * read as if it were current.
 */

/** Identifies a stored index: which collection, what kind (`bm25`, `hnsw`, …) and how it was built. */
export interface IndexSpec {
  collectionId: string;
  kind: string;
  /** Format version of the data the caller can read. */
  version: number;
  /** Everything the index's content depends on (analyzer, fields, collection fingerprint, …). Plain JSON. */
  settings: Record<string, unknown>;
}

export type IndexLookup =
  | { status: 'found'; row: IndexRow }
  | { status: 'missing' }
  | { status: 'stale'; row: IndexRow; reason: string };

export function indexRowKey(spec: Pick<IndexSpec, 'collectionId' | 'kind' | 'settings'>): string {
  return `${spec.collectionId}|${spec.kind}|${settingsKey(spec.settings)}`;
}

/** The stored index for `spec`, or why there is none that can be used. */
export async function findIndex(db: PlaygroundDatabase, spec: IndexSpec): Promise<IndexLookup> {
  const row = await db.indexes.get(indexRowKey(spec));
  if (row === undefined) return { status: 'missing' };
  if (row.version !== spec.version) {
    return { status: 'stale', row, reason: `format version ${row.version}, expected ${spec.version}` };
  }
  if (row.kind !== spec.kind || row.collectionId !== spec.collectionId || settingsKey(row.settings) !== settingsKey(spec.settings)) {
    return { status: 'stale', row, reason: 'built with other settings' };
  }
  return { status: 'found', row };
}

/**
 * Stores (or replaces) the index for `spec`. `bytes` defaults to the data's size; an index kept elsewhere
 * (an HNSW graph in hnswlib's file system) stores empty data and says what it occupies there.
 */
export async function saveIndex(
  db: PlaygroundDatabase,
  spec: IndexSpec,
  data: ArrayBuffer,
  buildMs: number,
  bytes = data.byteLength,
): Promise<IndexRow> {
  const row: IndexRow = {
    key: indexRowKey(spec),
    collectionId: spec.collectionId,
    kind: spec.kind,
    version: spec.version,
    settings: spec.settings,
    data,
    bytes,
    buildMs,
    createdAt: Date.now(),
  };
  await db.indexes.put(row);
  return row;
}
