/**
 * What a dense column's worker does once its model is loaded (workers/dense.worker.ts), as a plain class so Node
 * tests can drive it with a fake embedder and fake-indexeddb:
 *
 * - `open` gets the corpus vectors of a collection: from the database's embedding tables when a complete set
 *   of this model, dtype, settings and corpus content is stored (src/lib/storage/embedding-sets.ts),
 *   otherwise it reads the documents from IndexedDB itself (the page never holds the corpus) and embeds them
 *   chunk by chunk, storing each chunk as a checkpoint together with the set's progress. A reload, a closed
 *   tab, a cancel or a full disk therefore loses at most the chunk in flight: the next `open` resumes at the
 *   stored `done`. For HNSW search it loads the saved graph of these vectors and build settings, or builds
 *   and saves it (and records it in the `indexes` table, so the storage panel counts it and deleting the
 *   collection removes it).
 * - Two tabs (or two workers) on the same set: the embedding run and each graph build hold a Web Lock
 *   (work-locks.ts); the second waits — reporting the first one's stored progress meanwhile — then loads
 *   what the first stored instead of computing it again.
 * - `search` ranks query texts by the model's similarity (exact, or HNSW with a live efSearch); `score`
 *   gives the similarity of given candidates (LEDR scores BM25's candidates only).
 *
 * The set is named by the collection's content fingerprint (computed at import), so a re-imported or
 * changed corpus is embedded again, while a reload finds the vectors without reading a document.
 */
import type { EmbedProgress } from '../dense/batching.ts';
import type { Embedder } from '../dense/embedder.ts';
import { passageText, queryText, vectorSettings } from '../dense/embedding-text.ts';
import type { ShippedVectors } from '../dense/shipped-vectors.ts';
import { denseTopKMany } from '../dense/dense-top-k.ts';
import { exactPassSizes, rowIndex } from '../dense/exact-search.ts';
import { HnswIndex } from '../dense/hnsw-index.ts';
import { dotWithRow, matrixRow, type VectorMatrix } from '../dense/vector-matrix.ts';
import type { HnswSettings } from '../retrievers/config.ts';
import {
  packCandidates,
  packHits,
  unpackHits,
  unpackScores,
  type PackedCandidates,
  type Candidates,
  type PackedHits,
} from '../hits/packed-hits.ts';
import { loadQueries } from '../storage/collections.ts';
import { readDocumentColumns } from '../storage/documents.ts';
import type { EmbeddingSetRow, PlaygroundDatabase } from '../storage/db.ts';
import {
  appendEmbeddingChunk,
  beginEmbeddingSet,
  corpusContent,
  embeddingSetKey,
  findEmbeddingSet,
  queriesFingerprint,
  readEmbeddingSet,
  type EmbeddingContent,
  type EmbeddingSetSpec,
} from '../storage/embedding-sets.ts';
import { graphFileName } from '../storage/hnsw-files.ts';
import { findIndex, indexRowKey, saveIndex, type IndexSpec } from '../storage/index-store.ts';
import { defaultLocks, lockNames, withWorkLock, type WorkLocks } from '../storage/work-locks.ts';
import type { Hit } from '../types.ts';
import { PhaseTimes } from './phase-times.ts';

/** Depth of `warmSearch`'s searches: an evaluation's (a run's 1,000 hits, one more for the query's own id). */
const WARM_DEPTH = 1001;
/** How long the warm-up waits for the corpus's first search before it begins without one. */
const WARM_WAIT_FOR_SEARCH_MS = 2000;

/** Progress of opening a dense corpus: model files, reading documents, embedding, HNSW. */
export type DenseProgress =
  | { phase: 'model'; file: string; loaded: number; total: number }
  | { phase: 'reading'; done: number; total: number }
  | { phase: 'embedding'; done: number; total: number; docsPerSecond: number }
  | { phase: 'hnsw'; done: number; total: number };

export interface DenseCorpusRequest {
  collectionId: string;
  search: 'exact' | 'hnsw';
  hnsw: HnswSettings;
}

export interface DenseCorpusInfo {
  dim: number;
  docs: number;
  /** Every vector came from the database (nothing embedded now). */
  fromCache: boolean;
  /** The vectors came with the app (shipped-vectors.ts) and were stored now. */
  shipped?: boolean;
  /** Vectors found stored from an interrupted run, when this one went on from there. */
  resumedFrom?: number;
  /** Another tab or worker held the embedding run; this one waited for it and loaded its vectors. */
  waitedForOther?: boolean;
  embedMs: number;
  docsPerSecond?: number;
  hnsw?: { source: 'stored' | 'built'; ms: number };
}

export interface DenseSearchOptions {
  search: 'exact' | 'hnsw';
  hnsw: HnswSettings;
}

/** Saved HNSW graphs (hnswlib-wasm's IndexedDB-backed file system); absent: graphs are rebuilt per worker. */
export interface HnswFiles {
  load(filename: string, dim: number, params: HnswSettings): Promise<HnswIndex | undefined>;
  save(index: HnswIndex, filename: string): Promise<void>;
}

export interface DenseCorpusServiceOptions {
  db: PlaygroundDatabase;
  embedder: Embedder;
  hnswFiles?: HnswFiles;
  /** Documents embedded per step (default 512); each step is stored as a checkpoint, see `checkpointMs`. */
  chunkSize?: number;
  /**
   * Least time between two checkpoints (default 0: one per step). A fast model's steps are gathered into
   * fewer, larger checkpoints (a resumed run then loses at most this much work), and each checkpoint is
   * written while the next steps embed.
   */
  checkpointMs?: number;
  /** Web Locks (default: the origin's, where there are any); `null` runs without. */
  locks?: WorkLocks | null;
  /** How often a run waiting for another tab's run reads its progress (default 500 ms). */
  waitPollMs?: number;
  /** Query vectors kept (default 512). */
  queryCacheSize?: number;
  /** Vectors the app ships for a collection (the starter), read when its corpus has no stored set. */
  shipped?: (collectionId: string) => Promise<ShippedVectors | undefined>;
  /** The model embeds nothing (vectors from files): a collection without a stored set is this error, named by the collection. */
  storedOnly?: (collection: string) => Error;
}

/** Collections with more distinct query texts than this get no stored query set (their queries are embedded when asked). */
const MAX_STORED_QUERIES = 50_000;

interface Corpus {
  /** The embedding set of the vectors (names collection content, model and settings). */
  key: string;
  collectionId: string;
  ids: string[];
  /** Row of each id, made when first needed (`score`): half a million ids take a while, and ranking needs none. */
  rowOf?: Map<string, number>;
  vectors: VectorMatrix;
  graphs: Map<string, HnswIndex>;
  /** Settles after the first search on it (whose time is published, phase-times.ts). */
  searched: Promise<void>;
  markSearched: () => void;
  /** Set by the first search, whose time alone is published. */
  firstSearchDone?: true;
}

/** The set a collection's corpus vectors go to, and what it must contain. */
interface CorpusSet {
  spec: EmbeddingSetSpec;
  key: string;
  content: EmbeddingContent;
  /** For messages: the collection's name. */
  label: string;
}

/** Format version of the `hnsw` rows of the `indexes` table (the graph itself is hnswlib's file format). */
const HNSW_GRAPH_ROW_VERSION = 1;

/** Concatenates matrices of one width. */
function concatRows(parts: readonly VectorMatrix[], dim: number): VectorMatrix {
  const rows = parts.reduce((sum, part) => sum + part.rows, 0);
  const data = new Float32Array(rows * dim);
  let offset = 0;
  for (const part of parts) {
    data.set(part.data.subarray(0, part.rows * dim), offset);
    offset += part.rows * dim;
  }
  return { rows, dim, data };
}

/**
 * hnswlib's file size for `rows` vectors (level 0 dominates: per element 2M links of 4 bytes, a link count,
 * the vector and a label), used as the graph's size in the storage panel; upper levels add about 1/M more.
 */
function graphBytes(rows: number, dim: number, M: number): number {
  return Math.round(rows * (2 * M * 4 + 4 + dim * 4 + 8) * (1 + 1 / M));
}

export class DenseCorpusService {
  private readonly corpora = new Map<string, Corpus>();
  private readonly loading = new Map<string, Promise<{ corpus: Corpus; info: DenseCorpusInfo }>>();
  private readonly queryVectors = new Map<string, Float32Array>();
  /**
   * Vectors of the open collections' own query texts, from their stored query sets: a collection's queries
   * rank without the model (after a restart the page ranks before the model has loaded).
   */
  private readonly storedQueries = new Map<string, Float32Array>();
  /** Query sets read or being filled, by set key. */
  private readonly querySets = new Map<string, Promise<void>>();
  private readonly running = new Set<AbortController>();
  private readonly locks: WorkLocks | undefined;

  constructor(private readonly options: DenseCorpusServiceOptions) {
    this.locks = options.locks === null ? undefined : (options.locks ?? defaultLocks());
  }

  private get embedder(): Embedder {
    return this.options.embedder;
  }

  private get db(): PlaygroundDatabase {
    return this.options.db;
  }

  /** The embedding set of a collection's corpus vectors with this model. */
  private async corpusSet(collectionId: string): Promise<CorpusSet> {
    const row = await this.db.collections.get(collectionId);
    if (row === undefined || row.status !== 'ready') throw new Error(`collection "${collectionId}" is not stored in this browser`);
    const { spec, dtype } = this.embedder;
    const setSpec: EmbeddingSetSpec = {
      collectionId,
      part: 'corpus',
      modelId: spec.id,
      dtype,
      encoding: 'f32',
      settings: vectorSettings(spec, 'corpus'),
    };
    return { spec: setSpec, key: embeddingSetKey(setSpec), content: corpusContent(row), label: `"${row.name}"` };
  }

  /**
   * The set of a collection's query vectors (part `queries`): its row ids are the query texts, since a
   * query vector depends on its text only. Named by the collection's import (`createdAt`), so a re-import
   * with other queries starts it over.
   */
  private async querySet(collectionId: string): Promise<CorpusSet> {
    const row = await this.db.collections.get(collectionId);
    if (row === undefined || row.status !== 'ready') throw new Error(`collection "${collectionId}" is not stored in this browser`);
    const { spec, dtype } = this.embedder;
    const setSpec: EmbeddingSetSpec = {
      collectionId,
      part: 'queries',
      modelId: spec.id,
      dtype,
      encoding: 'f32',
      settings: vectorSettings(spec, 'queries'),
    };
    return { spec: setSpec, key: embeddingSetKey(setSpec), content: { docCount: row.queryCount ?? 0, fingerprint: queriesFingerprint(row) }, label: `"${row.name}"` };
  }

  /** Loads or computes the corpus vectors (and the HNSW graph when asked). */
  async open(request: DenseCorpusRequest, onProgress?: (progress: DenseProgress) => void, signal?: AbortSignal): Promise<DenseCorpusInfo> {
    const controller = new AbortController();
    this.running.add(controller);
    const stop = () => controller.abort(signal?.reason);
    if (signal?.aborted) stop();
    signal?.addEventListener('abort', stop);
    try {
      const { corpus, info } = await this.corpusOf(request.collectionId, onProgress, controller.signal);
      const result = { ...info };
      if (request.search === 'hnsw') result.hnsw = await this.openGraph(corpus, request.hnsw, onProgress, controller.signal);
      return result;
    } finally {
      signal?.removeEventListener('abort', stop);
      this.running.delete(controller);
    }
  }

  /** Stops every embedding and graph build in progress (their `open` rejects with an AbortError). */
  cancel(): void {
    for (const controller of this.running) controller.abort(new DOMException('embedding cancelled', 'AbortError'));
  }

  /**
   * The open corpus of a collection, or one loading now (two columns of the same model share the work;
   * the first caller's progress and signal drive it).
   */
  private async corpusOf(
    collectionId: string,
    onProgress: ((progress: DenseProgress) => void) | undefined,
    signal: AbortSignal,
  ): Promise<{ corpus: Corpus; info: DenseCorpusInfo }> {
    const set = await this.corpusSet(collectionId);
    const open = this.corpora.get(collectionId);
    const fingerprint = `${set.key}#${set.content.fingerprint}`;
    if (open?.key === fingerprint) return { corpus: open, info: { dim: open.vectors.dim, docs: open.ids.length, fromCache: true, embedMs: 0 } };
    let loading = this.loading.get(fingerprint);
    if (loading === undefined) {
      loading = this.loadOrEmbed(set, onProgress, signal).then(({ ids, vectors, info }) => {
        let markSearched!: () => void;
        const searched = new Promise<void>((resolve) => (markSearched = resolve));
        const corpus: Corpus = { key: fingerprint, collectionId, ids, vectors, graphs: new Map(), searched, markSearched };
        this.corpora.set(collectionId, corpus);
        return { corpus, info };
      });
      const forget = () => this.loading.delete(fingerprint);
      loading.then(forget, forget);
      this.loading.set(fingerprint, loading);
    }
    return loading;
  }

  /** A complete stored set, read whole; undefined when there is none for this content. */
  private async storedVectors(set: CorpusSet): Promise<{ ids: string[]; vectors: VectorMatrix } | undefined> {
    const found = await findEmbeddingSet(this.db, set.key, set.content);
    return found.status === 'complete' ? readEmbeddingSet(this.db, found.row) : undefined;
  }

  /**
   * The corpus vectors (stored, shipped with the app, or embedded now), and the collection's query vectors
   * into `storedQueries`: both sets are read from the database at once, neither needs the model.
   */
  private async loadOrEmbed(
    set: CorpusSet,
    onProgress: ((progress: DenseProgress) => void) | undefined,
    signal: AbortSignal,
  ): Promise<{ ids: string[]; vectors: VectorMatrix; info: DenseCorpusInfo }> {
    const querySet = await this.querySet(set.spec.collectionId);
    const queriesFound = this.readQueries(querySet).catch(() => false);
    const corpus = await this.loadOrEmbedCorpus(set, querySet, onProgress, signal);
    if (!(await queriesFound) && corpus.info.shipped !== true) {
      // Embedded now: the model is here, so its queries are stored with it (a restart right after finds
      // them); vectors stored before query sets existed get theirs in the background.
      if (corpus.info.fromCache) this.fillQueriesLater(querySet);
      else {
        const phases = new PhaseTimes('dense open');
        await phases.time('query vectors', () => this.fillQueries(querySet));
        phases.publish();
      }
    }
    return corpus;
  }

  private async loadOrEmbedCorpus(
    set: CorpusSet,
    querySet: CorpusSet,
    onProgress: ((progress: DenseProgress) => void) | undefined,
    signal: AbortSignal,
  ): Promise<{ ids: string[]; vectors: VectorMatrix; info: DenseCorpusInfo }> {
    const cached = await this.storedVectors(set);
    if (cached !== undefined) return { ...cached, info: { dim: cached.vectors.dim, docs: cached.ids.length, fromCache: true, embedMs: 0 } };
    let waited = false;
    let stopWatching = () => {};
    try {
      return await withWorkLock(
        this.locks,
        lockNames.embedding(set.key),
        async () => {
          stopWatching();
          // Another tab may have finished the set while this one waited.
          const found = await this.storedVectors(set);
          if (found !== undefined) {
            return { ...found, info: { dim: found.vectors.dim, docs: found.ids.length, fromCache: true, waitedForOther: waited, embedMs: 0 } };
          }
          const shipped = await this.shippedVectors(set);
          const stored = shipped === undefined ? undefined : await this.storeShipped(set, querySet, shipped);
          if (stored === undefined && this.options.storedOnly !== undefined) throw this.options.storedOnly(set.label);
          return stored ?? this.embedRest(set, onProgress, signal);
        },
        {
          signal,
          onWait: () => {
            waited = true;
            stopWatching = this.watchOtherRun(set, onProgress);
          },
        },
      );
    } finally {
      stopWatching();
    }
  }

  /** Vectors shipped with the app for this corpus, when they were made from exactly its documents. */
  private async shippedVectors(set: CorpusSet): Promise<ShippedVectors | undefined> {
    const shipped = await this.options.shipped?.(set.spec.collectionId).catch(() => undefined);
    if (shipped === undefined) return undefined;
    const { header } = shipped;
    const fits = header.modelId === this.embedder.spec.id && header.fingerprint === set.content.fingerprint && header.docIds.length === set.content.docCount;
    return fits ? shipped : undefined;
  }

  /**
   * Stores shipped corpus and query vectors as complete sets (the corpus set's lock is held); undefined
   * when an interrupted run already began the corpus set (it is finished by embedding, as before).
   */
  private async storeShipped(set: CorpusSet, querySet: CorpusSet, shipped: ShippedVectors): Promise<{ ids: string[]; vectors: VectorMatrix; info: DenseCorpusInfo } | undefined> {
    const { header } = shipped;
    const device = this.embedder.device;
    const row = await beginEmbeddingSet(this.db, set.spec, set.content, device);
    if (row.done !== 0) return undefined;
    await appendEmbeddingChunk(this.db, row, { ids: header.docIds, vectors: shipped.corpus, embedMs: 0, device }, set.label);
    await this.storeQueries(querySet, header.queryTexts, shipped.queries).catch(() => undefined);
    return { ids: [...header.docIds], vectors: shipped.corpus, info: { dim: shipped.corpus.dim, docs: header.docIds.length, fromCache: true, shipped: true, embedMs: 0 } };
  }

  /** Reads a complete stored query set into `storedQueries`; false when there is none for this import. */
  private async readQueries(querySet: CorpusSet): Promise<boolean> {
    const row = await this.db.embeddingSets.get(querySet.key);
    if (row === undefined || row.fingerprint !== querySet.content.fingerprint || row.done !== row.docCount || row.done === 0) return false;
    const { ids, vectors } = await readEmbeddingSet(this.db, row);
    ids.forEach((text, i) => this.storedQueries.set(text, matrixRow(vectors, i)));
    return true;
  }

  /** Stores query vectors (rows named by their texts) as a complete set, and keeps them for `embedQueries`. */
  private async storeQueries(querySet: CorpusSet, texts: readonly string[], vectors: VectorMatrix): Promise<void> {
    texts.forEach((text, i) => this.storedQueries.set(text, matrixRow(vectors, i)));
    const content = { docCount: texts.length, fingerprint: querySet.content.fingerprint };
    const row = await beginEmbeddingSet(this.db, querySet.spec, content, this.embedder.device);
    if (row.done === 0) await appendEmbeddingChunk(this.db, row, { ids: texts, vectors, embedMs: 0, device: this.embedder.device }, querySet.label);
  }

  /**
   * Embeds and stores the collection's query texts once the model is there, so the next visit ranks them
   * without it. Only for static tables, which embed a thousand queries in milliseconds; nothing waits for
   * it, and a failure only means the queries are embedded when asked, as before.
   */
  private fillQueriesLater(querySet: CorpusSet): void {
    void this.fillQueries(querySet);
  }

  /** `fillQueriesLater`, awaited (once per set and worker; never rejects). */
  private fillQueries(querySet: CorpusSet): Promise<void> {
    if (this.embedder.device !== 'cpu-lookup') return Promise.resolve();
    const running = this.querySets.get(querySet.key);
    if (running !== undefined) return running;
    const fill = async () => {
      const queries = await loadQueries(this.db, querySet.spec.collectionId);
      const texts = [...new Set([...queries.values()].map((query) => query.text))];
      if (texts.length === 0 || texts.length > MAX_STORED_QUERIES) return;
      const { spec } = this.embedder;
      const vectors = await this.embedder.embed(texts.map((text) => queryText({ id: '', text }, spec)));
      await withWorkLock(this.locks, lockNames.embedding(querySet.key), async () => {
        // Another tab may have stored it meanwhile.
        if (!(await this.readQueries(querySet))) await this.storeQueries(querySet, texts, vectors);
      });
    };
    const filling = fill().catch(() => undefined);
    this.querySets.set(querySet.key, filling);
    return filling;
  }

  /** While another realm embeds the set, reports its stored progress; returns the function that stops it. */
  private watchOtherRun(set: CorpusSet, onProgress: ((progress: DenseProgress) => void) | undefined): () => void {
    if (onProgress === undefined) return () => {};
    let stopped = false;
    const poll = async () => {
      if (stopped) return;
      const row = await this.db.embeddingSets.get(set.key).catch(() => undefined);
      if (stopped) return;
      const done = row !== undefined && row.fingerprint === set.content.fingerprint ? row.done : 0;
      onProgress({ phase: 'embedding', done, total: set.content.docCount, docsPerSecond: row?.docsPerSecond ?? 0 });
    };
    void poll();
    const timer = setInterval(() => void poll(), this.options.waitPollMs ?? 500);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }

  /**
   * Embeds what the set lacks, from its stored `done` on, one checkpoint chunk at a time (holding the set's
   * lock). Returns every vector: the stored ones and the new ones.
   */
  private async embedRest(
    set: CorpusSet,
    onProgress: ((progress: DenseProgress) => void) | undefined,
    signal: AbortSignal,
  ): Promise<{ ids: string[]; vectors: VectorMatrix; info: DenseCorpusInfo }> {
    const { spec } = this.embedder;
    const total = set.content.docCount;
    let row: EmbeddingSetRow = await beginEmbeddingSet(this.db, set.spec, set.content, this.embedder.device);
    const resumedFrom = row.done;
    const parts: VectorMatrix[] = [];
    const ids: string[] = [];
    if (resumedFrom > 0) {
      onProgress?.({ phase: 'reading', done: 0, total: resumedFrom });
      const stored = await readEmbeddingSet(this.db, row);
      parts.push(stored.vectors);
      for (const id of stored.ids) ids.push(id);
    }
    onProgress?.({ phase: 'embedding', done: row.done, total, docsPerSecond: 0 });
    let embedMs = 0;
    const chunkSize = this.options.chunkSize ?? 512;
    const checkpointMs = this.options.checkpointMs ?? 0;
    // Steps embedded since the last checkpoint, and the checkpoint being written (one at a time: each needs
    // the set row the previous one left).
    let pending: { ids: string[]; vectors: VectorMatrix[]; embedMs: number } = { ids: [], vectors: [], embedMs: 0 };
    let writing: Promise<EmbeddingSetRow> | undefined;
    let lastCheckpoint = performance.now();
    let embedded = row.done;
    const checkpoint = async () => {
      if (pending.ids.length === 0) return;
      const chunk = pending;
      pending = { ids: [], vectors: [], embedMs: 0 };
      lastCheckpoint = performance.now();
      const previous = writing === undefined ? row : await writing;
      const vectors = chunk.vectors.length === 1 ? chunk.vectors[0]! : concatRows(chunk.vectors, chunk.vectors[0]!.dim);
      writing = appendEmbeddingChunk(this.db, previous, { ids: chunk.ids, vectors, embedMs: chunk.embedMs, device: this.embedder.device }, set.label);
      // Awaited at the next checkpoint or at the end; until then a failure must not go unhandled.
      writing.catch(() => undefined);
    };
    // Each chunk starts at the batch size the previous one ended with, not at the sizer's first guess.
    let batchSize: number | undefined;
    const phases = new PhaseTimes('dense embed');
    let since = performance.now();
    // Columns, not a row object per document: only each text is made.
    for await (const columns of readDocumentColumns(this.db, set.spec.collectionId, { batchSize: chunkSize, fromOrd: row.done, signal })) {
      since = phases.add('read', since);
      const chunkIds = columns.ids;
      const texts = chunkIds.map((id, i) => passageText({ id, title: columns.titles[i]!, text: columns.texts[i]! }, spec));
      since = phases.add('passage text', since);
      const chunkStart = performance.now();
      const base = embedded;
      const vectors = await this.embedder.embed(texts, {
        signal,
        ...(batchSize === undefined ? {} : { initialBatchSize: batchSize }),
        onProgress: (p: EmbedProgress) => {
          batchSize = p.batchSize;
          const seconds = (embedMs + performance.now() - chunkStart) / 1000;
          const done = base + p.done;
          onProgress?.({ phase: 'embedding', done, total, docsPerSecond: seconds > 0 ? (done - resumedFrom) / seconds : p.docsPerSecond });
        },
      });
      const ms = performance.now() - chunkStart;
      since = phases.add('embed', since);
      embedMs += ms;
      signal.throwIfAborted();
      pending.ids.push(...chunkIds);
      pending.vectors.push(vectors);
      pending.embedMs += ms;
      embedded += chunkIds.length;
      parts.push(vectors);
      for (const id of chunkIds) ids.push(id);
      if (performance.now() - lastCheckpoint >= checkpointMs) await checkpoint();
      since = phases.add('checkpoint', since);
    }
    await checkpoint();
    if (writing !== undefined) row = await writing;
    since = phases.add('last checkpoint', since);
    if (row.done < total) throw new Error(`${set.label} changed while it was embedded: ${row.done} of ${total} documents found (was it deleted?)`);
    const dim = row.dimensions;
    const vectors = concatRows(parts, dim);
    phases.add('concat', since);
    phases.publish();
    const newDocs = total - resumedFrom;
    const docsPerSecond = embedMs > 0 ? (newDocs * 1000) / embedMs : undefined;
    return {
      ids,
      vectors,
      info: {
        dim,
        docs: total,
        fromCache: false,
        ...(resumedFrom > 0 ? { resumedFrom } : {}),
        embedMs,
        ...(docsPerSecond === undefined ? {} : { docsPerSecond }),
      },
    };
  }

  private graphSpec(corpus: Corpus, hnsw: HnswSettings): IndexSpec {
    return {
      collectionId: corpus.collectionId,
      kind: 'hnsw',
      version: HNSW_GRAPH_ROW_VERSION,
      settings: { vectors: corpus.key, M: hnsw.M, efConstruction: hnsw.efConstruction, rows: corpus.ids.length },
    };
  }

  /** Loads a saved graph (under the file-system lock); undefined when none of the right size is saved. */
  private async loadGraph(filename: string, corpus: Corpus, hnsw: HnswSettings): Promise<HnswIndex | undefined> {
    const files = this.options.hnswFiles;
    if (files === undefined) return undefined;
    const stored = await withWorkLock(this.locks, lockNames.hnswFiles, () => files.load(filename, corpus.vectors.dim, hnsw));
    if (stored !== undefined && stored.size === corpus.ids.length) return stored;
    stored?.dispose();
    return undefined;
  }

  private async openGraph(
    corpus: Corpus,
    hnsw: HnswSettings,
    onProgress: ((progress: DenseProgress) => void) | undefined,
    signal: AbortSignal,
  ): Promise<{ source: 'stored' | 'built'; ms: number }> {
    const started = performance.now();
    const spec = this.graphSpec(corpus, hnsw);
    const key = indexRowKey(spec);
    if (corpus.graphs.has(key)) return { source: 'stored', ms: 0 };
    const filename = graphFileName(corpus.collectionId, key, corpus.ids.length);
    const stored = await this.loadGraph(filename, corpus, hnsw);
    if (stored !== undefined) {
      corpus.graphs.set(key, stored);
      // A tab closed between saving the file and recording it: record it now, so the storage panel counts it.
      if ((await findIndex(this.db, spec)).status !== 'found') {
        await saveIndex(this.db, spec, new ArrayBuffer(0), 0, graphBytes(corpus.ids.length, corpus.vectors.dim, hnsw.M));
      }
      return { source: 'stored', ms: performance.now() - started };
    }
    return withWorkLock(
      this.locks,
      lockNames.index(key),
      async () => {
        // Built and saved by another tab while this one waited?
        const saved = (await findIndex(this.db, spec)).status === 'found' ? await this.loadGraph(filename, corpus, hnsw) : undefined;
        if (saved !== undefined) {
          corpus.graphs.set(key, saved);
          return { source: 'stored' as const, ms: performance.now() - started };
        }
        signal.throwIfAborted();
        // hnswlib builds in one wasm call: progress can only say it started and ended.
        onProgress?.({ phase: 'hnsw', done: 0, total: corpus.ids.length });
        const index = await HnswIndex.build(corpus.vectors, { M: hnsw.M, efConstruction: hnsw.efConstruction, efSearch: hnsw.efSearch });
        onProgress?.({ phase: 'hnsw', done: corpus.ids.length, total: corpus.ids.length });
        corpus.graphs.set(key, index);
        const files = this.options.hnswFiles;
        const buildMs = performance.now() - started;
        if (files !== undefined) {
          await withWorkLock(this.locks, lockNames.hnswFiles, () => files.save(index, filename));
          // Recorded after the file exists: the storage panel counts it, deleting the collection removes it.
          await saveIndex(this.db, spec, new ArrayBuffer(0), buildMs, graphBytes(corpus.ids.length, corpus.vectors.dim, hnsw.M));
        }
        return { source: 'built' as const, ms: performance.now() - started };
      },
      { signal },
    );
  }

  private corpus(collectionId: string): Corpus {
    const corpus = this.corpora.get(collectionId);
    if (corpus === undefined) throw new Error(`no corpus vectors are open for collection ${collectionId}: call open first`);
    return corpus;
  }

  /** Query vectors (prefixed as the model card says): a collection's own from its stored set, others cached by text. */
  async embedQueries(texts: readonly string[]): Promise<Float32Array[]> {
    const { spec } = this.embedder;
    const vectorOf = (text: string) => this.storedQueries.get(text) ?? this.queryVectors.get(text);
    const missing = [...new Set(texts.filter((text) => vectorOf(text) === undefined))];
    if (missing.length > 0) {
      const matrix = await this.embedder.embed(missing.map((text) => queryText({ id: '', text }, spec)));
      missing.forEach((text, i) => this.queryVectors.set(text, matrixRow(matrix, i).slice()));
      const limit = this.options.queryCacheSize ?? 512;
      while (this.queryVectors.size > limit) this.queryVectors.delete(this.queryVectors.keys().next().value!);
    }
    return texts.map((text) => vectorOf(text) ?? this.queryVectors.get(text)!);
  }

  /** The open corpus's document ids: the table the rows of `searchPacked` and `scoreRows` refer to. */
  docIds(collectionId: string): readonly string[] {
    return this.corpus(collectionId).ids;
  }

  /**
   * Runs exact search on a few of the corpus's own rows as queries, in batches of each size that takes its
   * own kind of pass (exactPassSizes: all get compiled, none runs twice for nothing) between other requests,
   * and LEDR's fusion of what they find, once the corpus is open: the matrix's WebAssembly kernel is made (a
   * copy of the matrix) and the code compiled before real queries come, so an evaluation's first chunk is
   * not the slowest. Nothing is kept; HNSW search is not warmed. It begins after the corpus's first search
   * (the columns' first ranking, which makes the kernel too, goes first) or `waitForSearchMs` (WARM_WAIT_FOR_SEARCH_MS).
   */
  async warmSearch(collectionId: string, options: { queries?: number; k?: number; waitForSearchMs?: number } = {}): Promise<number> {
    const corpus = this.corpora.get(collectionId);
    if (corpus === undefined) return 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([corpus.searched, new Promise((resolve) => (timer = setTimeout(resolve, options.waitForSearchMs ?? WARM_WAIT_FOR_SEARCH_MS)))]);
    clearTimeout(timer);
    if (this.corpora.get(collectionId) !== corpus) return 0;
    const { vectors } = corpus;
    const count = Math.min(vectors.rows, options.queries ?? 16);
    let ran = 0;
    let step = 0;
    const sizes = exactPassSizes(vectors.rows);
    const phases = new PhaseTimes('dense warm-up');
    while (ran < count) {
      const since = performance.now();
      const size = sizes[step++ % sizes.length]!;
      const queries = Array.from({ length: Math.min(size, count - ran) }, (_, i) => matrixRow(vectors, ran + i));
      const found = denseTopKMany(vectors, queries, options.k ?? WARM_DEPTH);
      packHits(found);
      // LEDR's candidates are scored by scoreRows' dot products.
      const { rows } = found[0]!;
      Float64Array.from(rows, (row) => dotWithRow(vectors, row, queries[0]!));
      phases.add(`pass of ${queries.length} (${step})`, since);
      ran += queries.length;
      await new Promise((resolve) => setTimeout(resolve, 0));
      if (this.corpora.get(collectionId) !== corpus) break;
    }
    phases.publish();
    return ran;
  }

  /** Top-k rows of each query text, by the rules the CLI shares (dense-top-k.ts); a blank text gets none. */
  async searchPacked(collectionId: string, texts: readonly string[], k: number, options: DenseSearchOptions): Promise<PackedHits> {
    const corpus = this.corpus(collectionId);
    const vectors = await this.embedQueries(texts);
    let graph: HnswIndex | undefined;
    if (options.search === 'hnsw') {
      graph = corpus.graphs.get(indexRowKey(this.graphSpec(corpus, options.hnsw)));
      if (graph === undefined) throw new Error('no HNSW index is open for these settings: call open first');
      graph.setEfSearch(options.hnsw.efSearch);
    }
    const since = performance.now();
    const found = denseTopKMany(corpus.vectors, vectors.map((vector, i) => (texts[i]!.trim() === '' ? undefined : vector)), k, graph);
    const packed = packHits(found);
    this.searchedOnce(corpus, since, texts.length);
    return packed;
  }

  /** Marks the corpus searched; the first search's time is published (phase-times.ts). */
  private searchedOnce(corpus: Corpus, since: number, queries: number): void {
    if (corpus.firstSearchDone) return;
    corpus.firstSearchDone = true;
    const phases = new PhaseTimes('dense first search');
    phases.add(`${queries} queries`, since);
    phases.publish();
    corpus.markSearched();
  }

  /** `searchPacked` with document ids. */
  async search(collectionId: string, texts: readonly string[], k: number, options: DenseSearchOptions): Promise<Hit[][]> {
    return unpackHits(await this.searchPacked(collectionId, texts, k, options), this.docIds(collectionId));
  }

  /** Similarity of each text to each of its candidate rows (NaN for row -1: an id without a vector). */
  async scoreRows(collectionId: string, texts: readonly string[], candidates: PackedCandidates): Promise<Float64Array> {
    const corpus = this.corpus(collectionId);
    const vectors = await this.embedQueries(texts);
    const { offsets, rows } = candidates;
    const scores = new Float64Array(rows.length);
    vectors.forEach((vector, q) => {
      for (let p = offsets[q]!; p < offsets[q + 1]!; p++) {
        const row = rows[p]!;
        scores[p] = row < 0 ? Number.NaN : dotWithRow(corpus.vectors, row, vector);
      }
    });
    return scores;
  }

  /** Similarity of each text to each of its candidates (NaN for ids without a vector). */
  async score(collectionId: string, texts: readonly string[], candidates: Candidates): Promise<Float64Array[]> {
    const corpus = this.corpus(collectionId);
    corpus.rowOf ??= rowIndex(corpus.ids);
    const packed = packCandidates(candidates, corpus.rowOf);
    return unpackScores(packed.offsets, await this.scoreRows(collectionId, texts, packed));
  }

  /** Frees the HNSW graphs' wasm memory. */
  dispose(): void {
    for (const corpus of this.corpora.values()) for (const graph of corpus.graphs.values()) graph.dispose();
    this.corpora.clear();
  }
}
