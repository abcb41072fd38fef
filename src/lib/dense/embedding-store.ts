/**
 * The embedding cache of whole matrices: vectors of a dataset part (corpus or queries) stored under a key
 * that names everything they depend on — dataset content, model, dtype and every setting that changes a
 * vector — so a reload reuses them and a changed setting misses and recomputes. The store is an interface:
 * embedding-store-dexie.ts keeps entries in the app's database (the embedding tables of db.ts, where the
 * playground's checkpointed corpus embeddings live too, see src/lib/storage/embedding-sets.ts); the
 * in-memory one below serves tests and the CLI.
 */
import { Fingerprint } from '../storage/fingerprint.ts';
import type { EncodedMatrix, VectorEncoding } from './vector-codec.ts';
import type { EmbeddingDtype, ModelSpec } from './registry.ts';

export interface EmbeddingKeyParts {
  /** Dataset name plus a content fingerprint (see fingerprintTexts), e.g. `beir/scifact@1a2b3c4d`. */
  dataset: string;
  part: 'corpus' | 'queries';
  model: string;
  dtype: EmbeddingDtype;
  /** The spec fields that change vectors. */
  settings: Pick<ModelSpec, 'kind' | 'pooling' | 'normalize' | 'queryPrefix' | 'passagePrefix' | 'maxLength'>;
  encoding: VectorEncoding;
}

/** A deterministic string key: same parts → same key, any changed part → another key. */
export function embeddingKey(parts: EmbeddingKeyParts): string {
  const s = parts.settings;
  const settings = [s.kind, s.pooling, s.normalize ? 'norm' : 'raw', s.maxLength, JSON.stringify(s.passagePrefix), JSON.stringify(s.queryPrefix)];
  return [parts.dataset, parts.part, parts.model, parts.dtype, parts.encoding, ...settings].join('|');
}

/**
 * FNV-1a (32-bit) over ids and texts, as 8 hex digits: cheap enough for a whole corpus (SciFact's 7 MB in
 * tens of milliseconds) and enough to notice an edited or reordered dataset.
 */
export function fingerprintTexts(ids: readonly string[], texts: readonly string[]): string {
  const fingerprint = new Fingerprint();
  ids.forEach((id, i) => fingerprint.add(id).add(texts[i] ?? ''));
  return fingerprint.hex();
}

export interface StoredEmbeddings {
  key: string;
  /** Row r is the vector of ids[r]. */
  ids: string[];
  matrix: EncodedMatrix;
  createdAt: number;
}

export interface EmbeddingStore {
  get(key: string): Promise<StoredEmbeddings | undefined>;
  put(entry: StoredEmbeddings): Promise<void>;
  delete(key: string): Promise<void>;
  keys(): Promise<string[]>;
}

/** A Map-backed store (tests, CLI). Entries are structured-cloned so callers cannot alias stored data. */
export class MemoryEmbeddingStore implements EmbeddingStore {
  private readonly entries = new Map<string, StoredEmbeddings>();

  async get(key: string): Promise<StoredEmbeddings | undefined> {
    const entry = this.entries.get(key);
    return entry ? structuredClone(entry) : undefined;
  }

  async put(entry: StoredEmbeddings): Promise<void> {
    this.entries.set(entry.key, structuredClone(entry));
  }

  async delete(key: string): Promise<void> {
    this.entries.delete(key);
  }

  async keys(): Promise<string[]> {
    return [...this.entries.keys()];
  }
}
