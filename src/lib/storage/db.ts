import { Dexie, type Table } from 'dexie';

/**
 * The one IndexedDB database of the playground (dexie). Every table is keyed by collection so that deleting a
 * collection is a range delete, and no row holds more than one collection's data.
 *
 * Imports are atomic for readers: a collection row is written with `status: 'importing'` first, its documents,
 * queries and qrels follow in batches, and the row flips to `'ready'` last. Lists show ready collections only;
 * an `'importing'` row left behind by a closed tab is resumed or rolled back on the next start.
 */

export type CollectionStatus = 'importing' | 'ready';

export interface CollectionRow {
  /** Stable id, e.g. `starter`, `beir/scifact`, `local/<uuid>`. */
  id: string;
  name: string;
  status: CollectionStatus;
  /** Where it came from, for the storage panel and for re-downloading. */
  source: { kind: 'starter' | 'hub' | 'local'; detail: string };
  docCount: number;
  queryCount: number;
  /** Split names with judgments, e.g. ['test', 'train']. */
  splits: string[];
  createdAt: number;
  /** Approximate bytes of stored documents, queries and qrels. */
  bytes: number;
  /** The validation report of the import (plain data). */
  report?: unknown;
}

export interface DocumentRow {
  collectionId: string;
  /** Position in the corpus file: the internal document number every index refers to. */
  ord: number;
  id: string;
  title: string;
  text: string;
  metadata?: Record<string, unknown>;
}

export interface QueryRow {
  collectionId: string;
  id: string;
  text: string;
  metadata?: Record<string, unknown>;
}

export interface QrelsRow {
  collectionId: string;
  split: string;
  /** [queryId, docId, grade] triples in file order. */
  judgments: Array<[string, string, number]>;
}

/** A built index (BM25 postings, HNSW graph, …) serialized to bytes with the settings it was built with. */
export interface IndexRow {
  /** `${collectionId}|${kind}|${settingsKey}` */
  key: string;
  collectionId: string;
  kind: string;
  /** Format version of `data`; a mismatch means rebuild, never a wrong result. */
  version: number;
  settings: Record<string, unknown>;
  data: ArrayBuffer;
  bytes: number;
  buildMs: number;
  createdAt: number;
}

/** Describes one embedding matrix: which model and settings made it, and how far it got. */
export interface EmbeddingSetRow {
  /** `${collectionId}|${modelId}|${dtype}|${settingsKey}` */
  key: string;
  collectionId: string;
  modelId: string;
  dtype: string;
  settings: Record<string, unknown>;
  dimensions: number;
  /** Storage encoding of the chunks' vectors. */
  encoding: 'f32' | 'f16' | 'int8';
  docCount: number;
  /** Documents embedded so far (chunks are checkpoints): equals docCount when complete. */
  done: number;
  device: string;
  docsPerSecond?: number;
  createdAt: number;
}

/** A checkpointed batch of document vectors: rows `start .. start + count - 1` by document ord. */
export interface EmbeddingChunkRow {
  setKey: string;
  start: number;
  count: number;
  data: ArrayBuffer;
}

/** A stored ranking of every query of a split by one configured retriever (evaluation dashboard). */
export interface RunRow {
  /** `${collectionId}|${split}|${retrieverKey}` */
  key: string;
  collectionId: string;
  split: string;
  retriever: Record<string, unknown>;
  /** TREC run text (qid Q0 docid rank score tag), the portable form. */
  trec: string;
  createdAt: number;
  timings: Record<string, number>;
}

export const DATABASE_NAME = 'retrieval-playground';

export class PlaygroundDatabase extends Dexie {
  collections!: Table<CollectionRow, string>;
  documents!: Table<DocumentRow, [string, number]>;
  queries!: Table<QueryRow, [string, string]>;
  qrels!: Table<QrelsRow, [string, string]>;
  indexes!: Table<IndexRow, string>;
  embeddingSets!: Table<EmbeddingSetRow, string>;
  embeddingChunks!: Table<EmbeddingChunkRow, [string, number]>;
  runs!: Table<RunRow, string>;

  constructor(name = DATABASE_NAME) {
    super(name);
    this.version(1).stores({
      collections: 'id, status',
      documents: '[collectionId+ord], [collectionId+id], collectionId',
      queries: '[collectionId+id], collectionId',
      qrels: '[collectionId+split], collectionId',
      indexes: 'key, collectionId',
      embeddingSets: 'key, collectionId',
      embeddingChunks: '[setKey+start], setKey',
      runs: 'key, collectionId',
    });
  }
}

let shared: PlaygroundDatabase | undefined;

/** The database of this page or worker (one connection per realm; dexie handles cross-tab versioning). */
export function database(): PlaygroundDatabase {
  shared ??= new PlaygroundDatabase();
  return shared;
}
