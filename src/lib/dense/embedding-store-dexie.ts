/**
 * The browser's whole-matrix embedding cache (the `EmbeddingStore` of embedding-store.ts), kept in the app's
 * one database: an entry is an `embeddingSets` row (keyed by the entry's key) with its vectors in
 * `embeddingChunks`, written in one transaction, so it is found whole or not at all. Entries keyed from a
 * dataset name (`<dataset>|<part>|<model>|…`, see `embeddingKey`) are filed under that dataset. The cache
 * used to have a database of its own (`retrieval-playground-embeddings`, dropped by `dropLegacyDatabases`).
 */
import { Dexie } from 'dexie';
import { database, PlaygroundDatabase, type EmbeddingChunkRow, type EmbeddingSetRow } from '../storage/db.ts';
import { fingerprintTexts, type EmbeddingStore, type StoredEmbeddings } from './embedding-store.ts';

/** Rows per chunk row (one IndexedDB value each). */
const CHUNK_ROWS = 4096;

const BYTES = { f32: 4, f16: 2, int8: 1 } as const;

function setFields(key: string): Pick<EmbeddingSetRow, 'collectionId' | 'part' | 'modelId' | 'dtype'> {
  const [dataset = key, part, model = '', dtype = ''] = key.split('|');
  return { collectionId: dataset, part: part === 'queries' ? 'queries' : 'corpus', modelId: model, dtype };
}

export class DexieEmbeddingStore implements EmbeddingStore {
  private readonly db: PlaygroundDatabase;
  private readonly owned: boolean;

  /** `name`: a database of its own (tests); default: the app's database of this realm. */
  constructor(name?: string) {
    this.owned = name !== undefined;
    this.db = name === undefined ? database() : new PlaygroundDatabase(name);
  }

  private chunks(key: string) {
    return this.db.embeddingChunks.where('[setKey+start]').between([key, Dexie.minKey], [key, Dexie.maxKey], true, true);
  }

  async get(key: string): Promise<StoredEmbeddings | undefined> {
    return this.db.transaction('r', this.db.embeddingSets, this.db.embeddingChunks, async () => {
      const set = await this.db.embeddingSets.get(key);
      if (set === undefined || set.done < set.docCount) return undefined;
      const chunks = await this.chunks(key).toArray();
      const perRow = set.dimensions * BYTES[set.encoding];
      const data = new Uint8Array(set.done * perRow);
      const scales = set.encoding === 'int8' ? new Float32Array(set.done) : undefined;
      const ids: string[] = [];
      for (const chunk of chunks) {
        data.set(new Uint8Array(chunk.data), chunk.start * perRow);
        if (scales !== undefined && chunk.scales !== undefined) scales.set(chunk.scales, chunk.start);
        ids.push(...chunk.ids);
      }
      if (ids.length !== set.done) return undefined;
      const matrix = { encoding: set.encoding, rows: set.done, dim: set.dimensions, data: data.buffer, ...(scales === undefined ? {} : { scales }) };
      return { key, ids, matrix, createdAt: set.createdAt };
    });
  }

  async put(entry: StoredEmbeddings): Promise<void> {
    const { matrix, ids } = entry;
    const perRow = matrix.dim * BYTES[matrix.encoding];
    const bytes = new Uint8Array(matrix.data);
    const chunks: EmbeddingChunkRow[] = [];
    for (let start = 0; start < matrix.rows; start += CHUNK_ROWS) {
      const count = Math.min(CHUNK_ROWS, matrix.rows - start);
      const chunk: EmbeddingChunkRow = { setKey: entry.key, start, count, ids: ids.slice(start, start + count), data: bytes.slice(start * perRow, (start + count) * perRow).buffer };
      if (matrix.scales !== undefined) chunk.scales = matrix.scales.slice(start, start + count);
      chunks.push(chunk);
    }
    const set: EmbeddingSetRow = {
      key: entry.key,
      ...setFields(entry.key),
      settings: {},
      encoding: matrix.encoding,
      fingerprint: fingerprintTexts(ids, []),
      dimensions: matrix.dim,
      docCount: matrix.rows,
      done: matrix.rows,
      device: '',
      embedMs: 0,
      createdAt: entry.createdAt,
      updatedAt: Date.now(),
    };
    await this.db.transaction('rw', this.db.embeddingSets, this.db.embeddingChunks, async () => {
      await this.chunks(entry.key).delete();
      await this.db.embeddingChunks.bulkPut(chunks);
      await this.db.embeddingSets.put(set);
    });
  }

  async delete(key: string): Promise<void> {
    await this.db.transaction('rw', this.db.embeddingSets, this.db.embeddingChunks, async () => {
      await this.chunks(key).delete();
      await this.db.embeddingSets.delete(key);
    });
  }

  async keys(): Promise<string[]> {
    const sets = await this.db.embeddingSets.toArray();
    return sets.filter((set) => set.done >= set.docCount).map((set) => set.key);
  }

  /** Closes a database opened for this store (the app's shared one stays open). */
  close(): void {
    if (this.owned) this.db.close();
  }
}
