import { Dexie } from 'dexie';
import { isImportedVectorsModel } from '../dense/imported-vectors.ts';
import { decodeMatrix, encodeMatrix, type EncodedMatrix, type VectorEncoding } from '../dense/vector-codec.ts';
import type { VectorMatrix } from '../dense/vector-matrix.ts';
import { settingsKey } from '../settings-key.ts';
import type { CollectionRow, EmbeddingChunkRow, EmbeddingSetRow, PlaygroundDatabase } from './db.ts';
import { fingerprintTexts } from '../data/fingerprint.ts';
import { EmbeddingStorageFullError, isQuotaError } from './quota.ts';

/**
 * Embedding matrices in IndexedDB (`embeddingSets` + `embeddingChunks` of db.ts), written as checkpoints:
 * an embedding run stores each chunk of vectors it finishes in one transaction together with the set's new
 * `done`, so a reload, a closed tab or a full disk loses at most the chunk in flight, and the next run goes on
 * from `done`. A set is used for search only once complete (`done === docCount`): partial sets are resumed,
 * never read as if they were whole.
 *
 * A set is keyed by what its vectors depend on — collection, part, model, dtype, storage encoding and the
 * model settings that change vectors — and carries a fingerprint of the embedded texts: a set found with
 * another fingerprint or size (the corpus changed) is started over, not extended.
 */

/** What a set's vectors depend on, besides the texts. */
export interface EmbeddingSetSpec {
  collectionId: string;
  part: 'corpus' | 'queries';
  modelId: string;
  dtype: string;
  encoding: VectorEncoding;
  /** Model settings that change vectors (plain JSON). */
  settings: Record<string, unknown>;
}

/** The texts a run embeds: how many, and their fingerprint. */
export interface EmbeddingContent {
  docCount: number;
  fingerprint: string;
}

export type EmbeddingSetLookup =
  | { status: 'missing' }
  | { status: 'complete'; row: EmbeddingSetRow }
  /** Same content, `done < docCount`: an interrupted run to resume. */
  | { status: 'partial'; row: EmbeddingSetRow }
  /** Made from other texts (or another encoding): to start over. */
  | { status: 'stale'; row: EmbeddingSetRow; reason: string };

/** A chunk no longer fits the set: another run restarted or deleted it meanwhile. */
export class EmbeddingSetChangedError extends Error {
  override readonly name = 'EmbeddingSetChangedError';
}

const ENCODING_BYTES = { f32: 4, f16: 2, int8: 1 } as const;

export function embeddingSetKey(spec: EmbeddingSetSpec): string {
  return [spec.collectionId, spec.part, spec.modelId, spec.dtype, spec.encoding, settingsKey(spec.settings)].join('|');
}

/** Bytes the stored vectors take (int8 adds one 4-byte scale per row). */
export function embeddingSetBytes(row: Pick<EmbeddingSetRow, 'done' | 'dimensions' | 'encoding'>): number {
  const perRow = row.dimensions * ENCODING_BYTES[row.encoding] + (row.encoding === 'int8' ? 4 : 0);
  return row.done * perRow;
}

function chunkRange(db: PlaygroundDatabase, setKey: string) {
  return db.embeddingChunks.where('[setKey+start]').between([setKey, Dexie.minKey], [setKey, Dexie.maxKey], true, true);
}

function lookup(row: EmbeddingSetRow | undefined, content: EmbeddingContent, encoding?: VectorEncoding): EmbeddingSetLookup {
  if (row === undefined) return { status: 'missing' };
  if (row.fingerprint !== content.fingerprint || row.docCount !== content.docCount) {
    return { status: 'stale', row, reason: `made from other texts (${row.docCount} texts, fingerprint ${row.fingerprint})` };
  }
  if (encoding !== undefined && row.encoding !== encoding) return { status: 'stale', row, reason: `stored as ${row.encoding}` };
  return row.done >= row.docCount ? { status: 'complete', row } : { status: 'partial', row };
}

/** The stored set under `key`, and whether it is complete, resumable or stale for `content`. */
export async function findEmbeddingSet(db: PlaygroundDatabase, key: string, content: EmbeddingContent): Promise<EmbeddingSetLookup> {
  return lookup(await db.embeddingSets.get(key), content);
}

/**
 * The set to work on: the stored one when it holds these texts (complete or partial), otherwise a new empty
 * one (a stale set and its chunks are deleted first). One transaction.
 */
export async function beginEmbeddingSet(db: PlaygroundDatabase, spec: EmbeddingSetSpec, content: EmbeddingContent, device: string): Promise<EmbeddingSetRow> {
  const key = embeddingSetKey(spec);
  return db.transaction('rw', db.embeddingSets, db.embeddingChunks, async () => {
    const found = lookup(await db.embeddingSets.get(key), content, spec.encoding);
    if (found.status === 'complete' || found.status === 'partial') return found.row;
    await chunkRange(db, key).delete();
    const now = Date.now();
    const row: EmbeddingSetRow = {
      key,
      collectionId: spec.collectionId,
      part: spec.part,
      modelId: spec.modelId,
      dtype: spec.dtype,
      settings: spec.settings,
      encoding: spec.encoding,
      fingerprint: content.fingerprint,
      dimensions: 0,
      docCount: content.docCount,
      done: 0,
      device,
      embedMs: 0,
      createdAt: now,
      updatedAt: now,
    };
    await db.embeddingSets.put(row);
    return row;
  });
}

export interface ChunkToStore {
  /** Ids of the chunk's rows, which are rows `set.done …` of the set. */
  ids: readonly string[];
  vectors: VectorMatrix;
  /** Time it took to embed them. */
  embedMs: number;
  /** The device they were embedded on. */
  device?: string;
}

/**
 * Stores the next checkpoint: the chunk's vectors become rows `set.done … set.done + count − 1`, and the set's
 * `done` moves past them, in one transaction (both or neither). `set` must be the row as last returned by
 * `beginEmbeddingSet` or this function; resolves with the updated row. Rejects with
 * `EmbeddingSetChangedError` when the stored set is no longer that row (deleted, or restarted by another run),
 * and with `EmbeddingStorageFullError` when the browser refuses to store more (the earlier checkpoints stay).
 */
export async function appendEmbeddingChunk(db: PlaygroundDatabase, set: EmbeddingSetRow, chunk: ChunkToStore, label = set.collectionId): Promise<EmbeddingSetRow> {
  const count = chunk.vectors.rows;
  if (chunk.ids.length !== count) throw new RangeError(`a chunk of ${count} vectors with ${chunk.ids.length} ids`);
  if (set.dimensions !== 0 && chunk.vectors.dim !== set.dimensions) throw new RangeError(`vectors of ${chunk.vectors.dim} dimensions for a set of ${set.dimensions}`);
  if (set.done + count > set.docCount) throw new RangeError(`rows ${set.done}–${set.done + count - 1} past the set's ${set.docCount}`);
  const encoded = encodeMatrix(chunk.vectors, set.encoding);
  const row: EmbeddingChunkRow = { setKey: set.key, start: set.done, count, ids: [...chunk.ids], data: encoded.data };
  if (encoded.scales !== undefined) row.scales = encoded.scales;
  const embedMs = set.embedMs + chunk.embedMs;
  const done = set.done + count;
  const next: EmbeddingSetRow = {
    ...set,
    dimensions: chunk.vectors.dim,
    done,
    device: chunk.device ?? set.device,
    embedMs,
    updatedAt: Date.now(),
    ...(embedMs > 0 ? { docsPerSecond: (done * 1000) / embedMs } : {}),
  };
  try {
    await db.transaction('rw', db.embeddingSets, db.embeddingChunks, async () => {
      const current = await db.embeddingSets.get(set.key);
      if (current === undefined || current.createdAt !== set.createdAt || current.done !== set.done) {
        throw new EmbeddingSetChangedError(`the embeddings of ${label} were ${current === undefined ? 'deleted' : 'changed by another run'} while this one ran`);
      }
      await db.embeddingChunks.put(row);
      await db.embeddingSets.put(next);
    });
  } catch (error) {
    if (isQuotaError(error)) throw new EmbeddingStorageFullError(label, set.done, set.docCount, { cause: error });
    throw error;
  }
  return next;
}

/**
 * Rows `0 … done − 1` of a set: ids and vectors (decoded to float32), read chunk by chunk in row order.
 * Throws when the chunks do not tile the rows (a damaged set: delete it and embed again).
 */
export async function readEmbeddingSet(db: PlaygroundDatabase, set: EmbeddingSetRow): Promise<{ ids: string[]; vectors: VectorMatrix }> {
  const dim = set.dimensions;
  const data = new Float32Array(set.done * dim);
  const ids: string[] = [];
  let next = 0;
  await chunkRange(db, set.key).each((chunk) => {
    if (next >= set.done) return;
    if (chunk.start !== next || chunk.ids.length !== chunk.count) throw new Error(`the stored embeddings of ${set.collectionId} are damaged (a chunk at row ${chunk.start}, expected ${next})`);
    const encoded: EncodedMatrix = { encoding: set.encoding, rows: chunk.count, dim, data: chunk.data, ...(chunk.scales === undefined ? {} : { scales: chunk.scales }) };
    data.set(decodeMatrix(encoded).data, next * dim);
    for (const id of chunk.ids) ids.push(id);
    next += chunk.count;
  });
  if (next < set.done) throw new Error(`the stored embeddings of ${set.collectionId} are damaged (${next} of ${set.done} rows found)`);
  return { ids, vectors: { rows: set.done, dim, data } };
}

/** Rows per chunk when a whole matrix is stored at once (one IndexedDB value each). */
const WHOLE_SET_CHUNK_ROWS = 4096;

export interface CachedEmbeddings {
  vectors: VectorMatrix;
  /** The vectors came from the stored set. */
  hit: boolean;
  key: string;
}

/**
 * Embeds texts as one whole matrix through the sets (the diagnostics page's embedding cache): the complete
 * set of `spec` holding these ids and texts is read back (`hit`); otherwise `compute` embeds all of them and
 * the rows the set lacks are stored. The result is read back from the set either way, so a lossy encoding
 * gives the same vectors on the first run as after a reload.
 */
export async function embedThroughSets(
  db: PlaygroundDatabase,
  spec: EmbeddingSetSpec,
  rows: { ids: readonly string[]; texts: readonly string[] },
  compute: () => Promise<VectorMatrix>,
  device = '',
): Promise<CachedEmbeddings> {
  const key = embeddingSetKey(spec);
  const content: EmbeddingContent = { docCount: rows.ids.length, fingerprint: fingerprintTexts(rows.ids, rows.texts) };
  const found = lookup(await db.embeddingSets.get(key), content, spec.encoding);
  if (found.status === 'complete') return { vectors: (await readEmbeddingSet(db, found.row)).vectors, hit: true, key };
  let set = await beginEmbeddingSet(db, spec, content, device);
  const started = performance.now();
  const computed = await compute();
  const embedMs = performance.now() - started;
  if (computed.rows !== content.docCount) throw new RangeError(`${computed.rows} vectors for ${content.docCount} texts`);
  while (set.done < computed.rows) {
    const end = Math.min(set.done + WHOLE_SET_CHUNK_ROWS, computed.rows);
    const vectors = { rows: end - set.done, dim: computed.dim, data: computed.data.slice(set.done * computed.dim, end * computed.dim) };
    set = await appendEmbeddingChunk(db, set, { ids: rows.ids.slice(set.done, end), vectors, embedMs: (embedMs * vectors.rows) / computed.rows });
  }
  return { vectors: (await readEmbeddingSet(db, set)).vectors, hit: false, key };
}

/** What a collection's corpus set must hold: its documents' count and content fingerprint (import time for collections imported before fingerprints). */
export function corpusContent(row: Pick<CollectionRow, 'docCount' | 'fingerprint' | 'createdAt'>): EmbeddingContent {
  return { docCount: row.docCount, fingerprint: row.fingerprint ?? `${row.docCount}@${row.createdAt}` };
}

/** The fingerprint of a collection's query set (rows named by query texts): its import, so a re-import starts it over. */
export function queriesFingerprint(row: Pick<CollectionRow, 'createdAt'>): string {
  return `queries@${row.createdAt}`;
}

/** A whole set to store at once: its spec, what it holds, and its rows. */
export interface CompleteSet {
  spec: EmbeddingSetSpec;
  content: EmbeddingContent;
  ids: readonly string[];
  vectors: VectorMatrix;
}

/**
 * Stores whole sets (vectors imported from files) in one transaction: every set complete, or none of them
 * changed (a set stored before under the same key is replaced). Rejects with `EmbeddingStorageFullError`
 * when the browser refuses the space.
 */
export async function putCompleteSets(db: PlaygroundDatabase, sets: readonly CompleteSet[], label: string): Promise<void> {
  const now = Date.now();
  try {
    await db.transaction('rw', db.embeddingSets, db.embeddingChunks, async () => {
      for (const set of sets) {
        const key = embeddingSetKey(set.spec);
        await chunkRange(db, key).delete();
        const { vectors } = set;
        for (let start = 0; start < vectors.rows; start += WHOLE_SET_CHUNK_ROWS) {
          const end = Math.min(start + WHOLE_SET_CHUNK_ROWS, vectors.rows);
          const part = { rows: end - start, dim: vectors.dim, data: vectors.data.slice(start * vectors.dim, end * vectors.dim) };
          const encoded = encodeMatrix(part, set.spec.encoding);
          const chunk: EmbeddingChunkRow = { setKey: key, start, count: part.rows, ids: set.ids.slice(start, end), data: encoded.data };
          if (encoded.scales !== undefined) chunk.scales = encoded.scales;
          await db.embeddingChunks.put(chunk);
        }
        await db.embeddingSets.put({
          key,
          collectionId: set.spec.collectionId,
          part: set.spec.part,
          modelId: set.spec.modelId,
          dtype: set.spec.dtype,
          settings: set.spec.settings,
          encoding: set.spec.encoding,
          fingerprint: set.content.fingerprint,
          dimensions: vectors.dim,
          docCount: set.content.docCount,
          done: vectors.rows,
          device: 'file',
          embedMs: 0,
          createdAt: now,
          updatedAt: now,
        });
      }
    });
  } catch (error) {
    if (isQuotaError(error)) throw new EmbeddingStorageFullError(label, 0, sets[0]?.content.docCount ?? 0, { cause: error });
    throw error;
  }
}

/** The `vectors/…` models stored for a collection (their corpus sets), newest first. */
export async function listImportedVectors(db: PlaygroundDatabase, collectionId: string): Promise<Array<{ model: string; docs: number; dim: number; createdAt: number }>> {
  const rows = await db.embeddingSets.where('collectionId').equals(collectionId).toArray();
  return rows
    .filter((row) => row.part === 'corpus' && isImportedVectorsModel(row.modelId) && row.done === row.docCount)
    .sort((a, b) => b.createdAt - a.createdAt)
    .map((row) => ({ model: row.modelId, docs: row.docCount, dim: row.dimensions, createdAt: row.createdAt }));
}
