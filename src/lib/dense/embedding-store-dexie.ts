/**
 * The browser's embedding cache: one IndexedDB table (through Dexie) holding StoredEmbeddings by key.
 * Vectors are ArrayBuffers, which IndexedDB stores natively (structured clone), so nothing is serialized by
 * hand. Kept in its own database until the app's schema (a later issue) takes the table over.
 */
import Dexie, { type Table } from 'dexie';
import type { EmbeddingStore, StoredEmbeddings } from './embedding-store.ts';

export const EMBEDDING_DB_NAME = 'retrieval-playground-embeddings';

class EmbeddingDb extends Dexie {
  embeddings!: Table<StoredEmbeddings, string>;

  constructor(name: string) {
    super(name);
    this.version(1).stores({ embeddings: 'key, createdAt' });
  }
}

export class DexieEmbeddingStore implements EmbeddingStore {
  private readonly db: EmbeddingDb;

  constructor(name = EMBEDDING_DB_NAME) {
    this.db = new EmbeddingDb(name);
  }

  async get(key: string): Promise<StoredEmbeddings | undefined> {
    return this.db.embeddings.get(key);
  }

  async put(entry: StoredEmbeddings): Promise<void> {
    await this.db.embeddings.put(entry);
  }

  async delete(key: string): Promise<void> {
    await this.db.embeddings.delete(key);
  }

  async keys(): Promise<string[]> {
    return (await this.db.embeddings.toCollection().primaryKeys()) as string[];
  }

  close(): void {
    this.db.close();
  }
}
