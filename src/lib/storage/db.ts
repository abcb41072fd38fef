import { Dexie, type Table } from 'dexie';
import type { Language } from '../analysis/language.ts';
import type { PackedRun, StoredRun } from '../data/packed-run.ts';
import type { GradeLabel } from '../judging/grades.ts';
import { chunkDocumentRows, type DocumentChunkRow, type DocumentDirectoryRow } from './document-chunks.ts';

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
  /**
   * `<docCount>:<FNV-1a of every document's id, title and text in corpus order>` (fingerprint.ts), computed
   * as the corpus streams in; derived data (embeddings) is keyed by it. Absent on collections imported
   * before version 2.
   */
  fingerprint?: string;
  /**
   * The language of the texts: from the catalog entry, else detected on import (analysis/language.ts), and
   * changeable in the Datasets view. Absent on collections imported before languages existed: English.
   */
  language?: Language;
  /**
   * Labels and short guidelines of the grades 0–3 a person judges with (judging/grades.ts), editable per
   * collection. Absent: the defaults.
   */
  grades?: GradeLabel[];
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

/**
 * One change of one judgment of a judgment set (a qrels split), kept so that undo works across reloads and
 * a judgment's history can be shown (storage/judgments.ts). `before`/`after` null: no judgment.
 */
export interface JudgmentEditRow {
  /** Auto-increment: the order of the edits. */
  seq?: number;
  collectionId: string;
  split: string;
  queryId: string;
  docId: string;
  before: number | null;
  after: number | null;
  /** `judge`: a person set or changed the grade; `undo`: an earlier edit (`undoes`) was reverted. */
  kind: 'judge' | 'undo';
  /** The seq of the edit an `undo` reverted. */
  undoes?: number;
  /** A `judge` edit that an undo has reverted (it is not undone twice). */
  undone?: boolean;
  at: number;
}

/**
 * An Explore column's ranking of one query as it was last shown (saved-rankings.ts), so a returning visit
 * shows it before the workers have started. `value` is the column's result, stored as it was computed.
 */
export interface SavedRankingRow {
  /** Everything the ranking depends on (the app's build, the collection's content, settings, query). */
  key: string;
  collectionId: string;
  value: unknown;
  savedAt: number;
}

/**
 * A trained query-augmentation model (src/lib/augment), stored as its model file's text. Models are not rows
 * of a collection: one trained on one collection ranks any other with the same analyzer (the paper's transfer).
 */
export interface AugmentModelRow {
  /** fnv1a of `text` (the `key` of the AugmenterRef columns hold). */
  key: string;
  /** What the person called it (the file's name when imported). */
  name: string;
  /** The collection and judged split that trained it, its analyzer and encoder: listed without reading the file. */
  collection: string;
  split: string;
  analyzer: string;
  encoder: string;
  storedAt: number;
}

/** A stored model's file (model-file.ts), byte for byte as exported: megabytes, so apart from its summary row. */
export interface AugmentModelFileRow {
  key: string;
  text: string;
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

/**
 * One embedding matrix being built or built: which model and settings make it, of what content, and how
 * far it got. The vectors live in `embeddingChunks`, one row per checkpoint; the set counts as stored only
 * when `done === docCount` (readers never use a partial set, an embedding run resumes it).
 */
export interface EmbeddingSetRow {
  /** `${collectionId}|${part}|${modelId}|${dtype}|${encoding}|${settingsKey}` (embedding-sets.ts). */
  key: string;
  /** The collection (or, for the diagnostics page's ad-hoc datasets, the dataset name). */
  collectionId: string;
  part: 'corpus' | 'queries';
  modelId: string;
  dtype: string;
  /** The model settings that change vectors (pooling, normalization, prefixes, max length…). */
  settings: Record<string, unknown>;
  /** Storage encoding of the chunks' vectors. */
  encoding: 'f32' | 'f16' | 'int8';
  /** Fingerprint of the embedded texts: a set of another fingerprint is started over, never extended. */
  fingerprint: string;
  /** Vector length (0 until the first chunk is stored). */
  dimensions: number;
  docCount: number;
  /** Rows stored so far (chunks are checkpoints, in row order): equals docCount when complete. */
  done: number;
  device: string;
  docsPerSecond?: number;
  /** Time spent embedding, summed over the sessions that worked on the set. */
  embedMs: number;
  createdAt: number;
  updatedAt: number;
}

/** A checkpointed batch of vectors: rows `start .. start + count - 1` (document ords for a corpus). */
export interface EmbeddingChunkRow {
  setKey: string;
  start: number;
  count: number;
  /** The id of each row, so a stored set is read without the documents. */
  ids: string[];
  /** The rows' vectors in the set's encoding. */
  data: ArrayBuffer;
  /** int8 only: one scale per row. */
  scales?: Float32Array;
}

/** A stored ranking of every query of a split by one configured retriever (evaluation dashboard). */
export interface RunRow {
  /** `${collectionId}|${split}|${retrieverKey}` */
  key: string;
  collectionId: string;
  split: string;
  retriever: Record<string, unknown>;
  /**
   * TREC run text (qid Q0 docid rank score tag), as an imported run file was; evaluation rows made before
   * runs were packed hold it too.
   */
  trec?: string;
  /**
   * The run packed (evaluation rows), its hits in a Blob (StoredRun); rows stored before that hold the typed
   * arrays (PackedRun). TREC text is made from it only on export.
   */
  packed?: PackedRun | StoredRun;
  createdAt: number;
  timings: Record<string, number>;
}

const DATABASE_NAME = 'retrieval-playground';

export class PlaygroundDatabase extends Dexie {
  collections!: Table<CollectionRow, string>;
  documentChunks!: Table<DocumentChunkRow, [string, number]>;
  documentDirectories!: Table<DocumentDirectoryRow, string>;
  queries!: Table<QueryRow, [string, string]>;
  qrels!: Table<QrelsRow, [string, string]>;
  indexes!: Table<IndexRow, string>;
  embeddingSets!: Table<EmbeddingSetRow, string>;
  embeddingChunks!: Table<EmbeddingChunkRow, [string, number]>;
  runs!: Table<RunRow, string>;
  judgmentEdits!: Table<JudgmentEditRow, number>;
  savedRankings!: Table<SavedRankingRow, string>;
  augmentModels!: Table<AugmentModelRow, string>;
  augmentModelFiles!: Table<AugmentModelFileRow, string>;

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
    // Version 2: embedding sets carry their part, fingerprint and progress, and chunks their row ids (the
    // embedding cache moved here from its own database). Version-1 rows of these tables were never written
    // by the app, so they are dropped rather than converted.
    this.version(2)
      .stores({
        embeddingSets: 'key, collectionId',
        embeddingChunks: '[setKey+start], setKey',
      })
      .upgrade(async (transaction) => {
        await transaction.table('embeddingChunks').clear();
        await transaction.table('embeddingSets').clear();
      });
    // Version 3: the edit history of judgments made in the app (undo across reloads).
    this.version(3).stores({
      judgmentEdits: '++seq, [collectionId+split], [collectionId+split+queryId], [collectionId+split+queryId+docId], collectionId',
    });
    // Version 4: documents are stored in chunks with a directory per collection (documents.ts) instead of
    // one row each. Stored collections are converted; `ord`s, ids and texts stay the same, so indexes and
    // embeddings built from them stay valid.
    this.version(4)
      .stores({
        documents: null,
        documentChunks: '[collectionId+start], collectionId',
        documentDirectories: 'collectionId',
      })
      .upgrade((transaction) => chunkDocumentRows(transaction));
    // Version 5: the diagnostics page's whole-matrix embedding cache (embedding-store-dexie.ts, removed) wrote
    // sets of its own key format (`dataset|part|model|dtype|encoding|kind|pooling|…`) with empty settings and
    // a fingerprint of the ids only; it now writes ordinary embedding sets (embedding-sets.ts). Its rows are
    // never read again, so they and their chunks are deleted (a cache: recomputed when needed). The app's
    // sets always carry their model settings.
    this.version(5)
      .stores({})
      .upgrade(async (transaction) => {
        const sets = transaction.table<EmbeddingSetRow, string>('embeddingSets');
        const oldKeys = (await sets.toArray()).filter((set) => Object.keys(set.settings ?? {}).length === 0).map((set) => set.key);
        await transaction.table<EmbeddingChunkRow, [string, number]>('embeddingChunks').where('setKey').anyOf(oldKeys).delete();
        await sets.bulkDelete(oldKeys);
      });
    // Version 6: the Explore columns' last rankings (saved-rankings.ts).
    this.version(6).stores({ savedRankings: 'key, collectionId, savedAt' });
    // Version 7: trained query-augmentation models (augment-models.ts).
    this.version(7).stores({ augmentModels: 'key, storedAt', augmentModelFiles: 'key' });
  }
}

/** Databases of earlier versions of the app, removed on start-up (the embedding cache's own database). */
export const LEGACY_DATABASES = ['retrieval-playground-embeddings'] as const;

/** Names of the origin's databases, or undefined where the browser cannot list them. */
async function databaseNames(): Promise<Set<string> | undefined> {
  const factory = (globalThis as { indexedDB?: Partial<IDBFactory> }).indexedDB;
  if (factory?.databases === undefined) return undefined;
  try {
    return new Set((await factory.databases()).flatMap((info) => (info.name === undefined ? [] : [info.name])));
  } catch {
    return undefined;
  }
}

/**
 * Deletes the legacy databases (their content is a cache: it is recomputed when needed). Only those the
 * browser lists: deleting one that is not there still opens the browser's backing store, on a restart's path.
 */
export async function dropLegacyDatabases(): Promise<void> {
  const names = await databaseNames();
  const present = names === undefined ? LEGACY_DATABASES : LEGACY_DATABASES.filter((name) => names.has(name));
  await Promise.all(present.map((name) => Dexie.delete(name).catch(() => undefined)));
}

/** Told when another tab opens the database at a newer version (or deletes it): `newVersion` null for a delete. */
export type OutdatedListener = (newVersion: number | null) => void;

const outdatedListeners = new Set<OutdatedListener>();
let outdated = false;

/**
 * Registers `listener` for the moment this realm's connection is closed because another tab upgraded or
 * deleted the database; it is called at once when that has already happened. Returns an unsubscribe.
 */
export function onDatabaseOutdated(listener: OutdatedListener): () => void {
  outdatedListeners.add(listener);
  if (outdated) listener(null);
  return () => outdatedListeners.delete(listener);
}

/**
 * Closes `db` for good when another connection upgrades or deletes the database (IndexedDB's
 * `versionchange`), so the other tab is not blocked, and tells the listeners. Dexie's own handler (which
 * runs after this one unless it returns false) closes too but reopens on the next query, which would run
 * this tab's old schema against the new database.
 */
export function closeOnVersionChange(db: PlaygroundDatabase, onOutdated: OutdatedListener): void {
  db.on('versionchange', (event: IDBVersionChangeEvent) => {
    db.close();
    onOutdated(event.newVersion);
    return false;
  });
}

let shared: PlaygroundDatabase | undefined;

/** The database of this page or worker (one connection per realm, closed when another tab upgrades it). */
export function database(): PlaygroundDatabase {
  if (shared === undefined) {
    shared = new PlaygroundDatabase();
    closeOnVersionChange(shared, (newVersion) => {
      outdated = true;
      for (const listener of outdatedListeners) listener(newVersion);
    });
  }
  return shared;
}
