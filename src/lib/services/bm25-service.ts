/**
 * What the BM25 worker does, as a plain class (so Node tests can drive it with fake-indexeddb): open the
 * index of a collection — load it from IndexedDB when one built with the same settings and format version
 * is stored, otherwise read the collection's documents from IndexedDB, analyze and index them with
 * progress and cancellation, and store the result — then search it with live k1, b and k.
 *
 * A query is either text (analyzed here, every term weighted by its count, as Pyserini does) or a weighted
 * bag of index terms (`{ id?, weighted: [{ term, weight }] }`): what `parseQuery` makes of the query syntax
 * (`term^2.5`, `+term^w`, src/lib/bm25/query-syntax.ts) or what pseudo-relevance feedback produces.
 */
import { bm25AnalyzerNames, isBm25AnalyzerName, type Bm25AnalyzerName } from '../analysis/analyzers.ts';
import { AnalyzerLoader } from '../analysis/analyzer-loader.ts';
import type { Analyzer } from '../analysis/analyzer.ts';
import { explainBm25, type Bm25Explanation } from '../bm25/bm25-explain.ts';
import type { Bm25Index } from '../bm25/bm25-index.ts';
import { queryTermWeights, type Bm25Query, type QueryTermWeight } from '../bm25/bm25-query.ts';
import { parseWeightedQuery, type ParsedQuery } from '../bm25/query-syntax.ts';
import type { Bm25SearchOptions } from '../bm25/bm25-search.ts';
import { ANSERINI_BM25_PARAMS, type Bm25Params } from '../bm25/bm25-similarity.ts';
import type { PlaygroundDatabase } from '../storage/db.ts';
import { countDocuments, readDocumentColumns } from '../storage/documents.ts';
import { findIndex, indexRowKey, saveIndex, type IndexLookup, type IndexSpec } from '../storage/index-store.ts';
import { defaultLocks, lockNames, withWorkLock, type WorkLocks } from '../storage/work-locks.ts';
import type { PackedHits } from '../hits/packed-hits.ts';
import { searchBo1 } from '../prf/bo1.ts';
import { feedbackIndexOf, type FeedbackIndex } from '../prf/feedback-index.ts';
import type { PrfRequest } from '../prf/prf-request.ts';
import type { PrfResult } from '../prf/prf-result.ts';
import type { RankQuery } from '../retrievers/ranking.ts';
import { searchRm3 } from '../prf/rm3.ts';
import type { Doc, Hit, Run } from '../types.ts';
import { BM25_INDEX_FORMAT_VERSION, bm25IndexLayout, decodeBm25Index, encodeBm25Index, encodeBm25IndexInSteps } from '../bm25-wasm/index-codec.ts';
import { Bm25WasmBuilder } from '../bm25-wasm/wasm-builder.ts';
import { Bm25WasmIndex } from '../bm25-wasm/wasm-index.ts';
import { PhaseTimes } from './phase-times.ts';

export const BM25_INDEX_KIND = 'bm25';

/**
 * Terms like those of real queries for `warmSearch`: mostly terms of 2 % of the documents or more, whose
 * long posting lists are where the kernel spends its time (rare terms alone left its loops in the baseline
 * tier), some rare ones. One pass, no sort: a large collection has hundreds of thousands of terms. A term
 * is its own analysis here (a stem, not a stopword).
 */
function queryLikeTerms(index: Bm25WasmIndex): string[] {
  const common: string[] = [];
  const rare: string[] = [];
  const threshold = Math.max(2, index.numDocs / 50);
  for (let ordinal = 0; ordinal < index.terms.length && common.length < 200; ordinal++) {
    if (index.docFreq(ordinal) >= threshold) common.push(index.terms[ordinal]!);
    else if (ordinal % 97 === 0 && rare.length < 50) rare.push(index.terms[ordinal]!);
  }
  return [...common, ...rare];
}

/** Made-up queries of `warmSearch`, ranked as deep as an evaluation's runs. */
const WARM_QUERIES = 64;
const WARM_DEPTH = 1000;

/** Everything the postings depend on; a stored index with other settings is rebuilt, never reused. */
export interface Bm25IndexSettings {
  analyzer: Bm25AnalyzerName;
  /** The indexed text of a document: title, a space, text (Pyserini's BEIR "contents" field). */
  field: 'title+text';
  /** Fingerprint of the collection's content when it was indexed. */
  collection: { docCount: number; createdAt: number | null };
}

export interface OpenIndexRequest {
  collectionId: string;
  /** Default `english` (Lucene EnglishAnalyzer, as Pyserini's BEIR baselines). */
  analyzer?: Bm25AnalyzerName;
  /** Build even when a stored index matches. */
  rebuild?: boolean;
}

export interface IndexProgress {
  phase: 'loading' | 'indexing' | 'saving';
  docsDone: number;
  docsTotal: number;
  /** Documents analyzed and indexed per second so far (0 while loading or before the first batch). */
  docsPerSecond: number;
  elapsedMs: number;
}

export interface IndexInfo {
  collectionId: string;
  settings: Bm25IndexSettings;
  /** `stored`: loaded from IndexedDB without re-indexing; `built`: indexed now. */
  source: 'stored' | 'built';
  /** Why a stored index was not used (when one existed but was stale or unreadable). */
  rebuildReason?: string;
  numDocs: number;
  numTerms: number;
  numPostings: number;
  /** Size of the stored form. */
  storedBytes: number;
  /** Kernel memory of the open index. */
  memoryBytes: number;
  /** Time of the original build (for a stored index: when it was built). */
  buildMs: number;
  /** When it was built (epoch ms). */
  builtAt: number;
  /** Time to load it now (stored) or to build and save it (built). */
  openMs: number;
}

/** k1 and b default to Anserini's. */
export interface SearchRequestOptions extends Partial<Bm25Params> {
  /** Hits to return; default 1000. */
  k?: number;
  /** Drop the document whose id equals the query id; default true (as `searchBm25`). */
  ignoreIdenticalIds?: boolean;
}

export interface Bm25ServiceOptions {
  db: PlaygroundDatabase;
  /** The compiled kernel (fetched in a worker, read from disk in Node). */
  loadKernel: () => Promise<WebAssembly.Module>;
  /** Documents read from IndexedDB per step (each step reports progress and checks for cancellation). */
  batchSize?: number;
  /**
   * Web Locks (default: the origin's, where there are any; `null`: none). A build holds the lock of its index
   * key, so a second tab opening the same index waits and then loads the stored one instead of building too.
   */
  locks?: WorkLocks | null;
  /**
   * Reads the data file of a loadable analyzer (`loadableAnalyzers[name].file`, a path under the app's base
   * URL): the WordPiece vocabulary. Without it only the built-in analyzers can be used.
   */
  loadAnalyzerFile?: (file: string) => Promise<string>;
  /**
   * `after-answer`: a built index answers `openIndex` as soon as it is built, then is stored in steps that
   * let searches in (its build's lock held until it is stored, so another tab still waits and loads it);
   * `stored()` says when. Default `before-answer`: stored, then answered.
   */
  store?: 'before-answer' | 'after-answer';
}

interface OpenIndex {
  info: IndexInfo;
  index: Bm25WasmIndex;
  analyzer: Analyzer;
  referenceForm?: Bm25Index;
}

/** The indexed text of a document. */
export function bm25DocText(doc: Pick<Doc, 'title' | 'text'>): string {
  return `${doc.title} ${doc.text}`;
}

export class Bm25Service {
  private readonly db: PlaygroundDatabase;
  private readonly loadKernel: () => Promise<WebAssembly.Module>;
  private readonly batchSize: number;
  private readonly locks: WorkLocks | undefined;
  private kernel: Promise<WebAssembly.Module> | undefined;
  private readonly open = new Map<string, OpenIndex>();
  private job: AbortController | undefined;
  /** Opens waiting for another tab's build of the same index (cancel stops the wait too). */
  private readonly waiting = new Set<AbortController>();
  private readonly analyzers: AnalyzerLoader;
  private readonly storeAfterAnswer: boolean;
  /** Built indexes being stored after their answer (`store: 'after-answer'`), by collection. */
  private readonly storing = new Map<string, Promise<void>>();

  constructor(options: Bm25ServiceOptions) {
    this.storeAfterAnswer = options.store === 'after-answer';
    this.db = options.db;
    this.loadKernel = options.loadKernel;
    this.batchSize = options.batchSize ?? 1000;
    this.locks = options.locks === null ? undefined : (options.locks ?? defaultLocks());
    this.analyzers = new AnalyzerLoader(options.loadAnalyzerFile, 'this BM25 service');
  }

  /** A fresh analyzer by name; a loadable one reads its data file first (once per service). */
  private analyzerFor(name: Bm25AnalyzerName): Promise<Analyzer> {
    return this.analyzers.analyzer(name);
  }

  /**
   * Fetches and compiles the kernel and opens the database connection ahead of the first index, while the
   * worker would otherwise sit idle.
   */
  async warm(): Promise<void> {
    await Promise.all([this.module(), this.db.open()]);
  }

  private module(): Promise<WebAssembly.Module> {
    this.kernel ??= this.loadKernel();
    return this.kernel;
  }

  /** The settings an index of this collection would be built with now. */
  async settingsFor(collectionId: string, analyzer: Bm25AnalyzerName = 'english'): Promise<Bm25IndexSettings> {
    if (!isBm25AnalyzerName(analyzer)) throw new RangeError(`unknown analyzer "${String(analyzer)}" (known: ${bm25AnalyzerNames.join(', ')})`);
    // A stored collection's row says how many documents it holds; counting them reads the directory of
    // every id, on a restart's path. A corpus stored without a ready row (tests, self-tests) is counted.
    const collection = await this.db.collections.get(collectionId);
    const docCount = collection?.status === 'ready' ? collection.docCount : await countDocuments(this.db, collectionId);
    return { analyzer, field: 'title+text', collection: { docCount, createdAt: collection?.createdAt ?? null } };
  }

  /**
   * Opens the collection's index: the stored one when its version and settings match, else a new build
   * (which is stored). Progress goes to `onProgress`; `cancel()` (or `signal`) stops a build with an
   * AbortError and keeps whatever index was open before.
   */
  async openIndex(
    request: OpenIndexRequest,
    onProgress?: (progress: IndexProgress) => void,
    signal?: AbortSignal,
  ): Promise<IndexInfo> {
    const started = performance.now();
    const settings = await this.settingsFor(request.collectionId, request.analyzer);
    const analyzer = await this.analyzerFor(settings.analyzer);
    const spec: IndexSpec = {
      collectionId: request.collectionId,
      kind: BM25_INDEX_KIND,
      version: BM25_INDEX_FORMAT_VERSION,
      settings: settings as unknown as Record<string, unknown>,
    };
    const tryStored = async (found: IndexLookup): Promise<IndexInfo | string | undefined> => {
      if (found.status === 'stale') return found.reason;
      if (found.status !== 'found') return undefined;
      try {
        const decoded = decodeBm25Index(found.row.data);
        if (JSON.stringify(decoded.settings) !== JSON.stringify(found.row.settings)) throw new Error('embedded settings differ from the row');
        const index = Bm25WasmIndex.fromParts(await this.module(), decoded.parts, { termOrder: decoded.termOrder });
        return this.keep(request.collectionId, index, settings, analyzer, {
          source: 'stored',
          storedBytes: found.row.bytes,
          buildMs: found.row.buildMs,
          builtAt: found.row.createdAt,
          openMs: performance.now() - started,
        });
      } catch (error) {
        return `stored index unreadable (${error instanceof Error ? error.message : String(error)})`;
      }
    };
    let rebuildReason: string | undefined;
    if (!request.rebuild) {
      onProgress?.({ phase: 'loading', docsDone: 0, docsTotal: settings.collection.docCount, docsPerSecond: 0, elapsedMs: 0 });
      const stored = await tryStored(await findIndex(this.db, spec));
      if (typeof stored === 'object') return stored;
      rebuildReason = stored;
    }

    let waited = false;
    const wait = new AbortController();
    const stopWaiting = () => wait.abort(signal?.reason);
    if (signal?.aborted) stopWaiting();
    signal?.addEventListener('abort', stopWaiting);
    this.waiting.add(wait);
    // Resolved with the answer; with `store: 'after-answer'` before the lock's work (the store) is done.
    let answer!: (info: IndexInfo) => void;
    const answered = new Promise<IndexInfo>((resolve) => (answer = resolve));
    const locked = withWorkLock(
      this.locks,
      lockNames.index(indexRowKey(spec)),
      async () => {
        // Another tab built and stored it while this one waited for the lock.
        if (waited && !request.rebuild) {
          const stored = await tryStored(await findIndex(this.db, spec));
          if (typeof stored === 'object') return answer(stored);
        }
        const phases = new PhaseTimes('bm25 build');
        const index = await this.build(request.collectionId, settings, analyzer, onProgress, signal, phases);
        const buildMs = performance.now() - started;
        const about = { source: 'built' as const, ...(rebuildReason === undefined ? {} : { rebuildReason }), buildMs, builtAt: Date.now() };
        if (this.storeAfterAnswer) {
          const layout = bm25IndexLayout(index.partsView(), spec.settings);
          const info = this.keep(request.collectionId, index, settings, analyzer, { ...about, storedBytes: layout.size, openMs: performance.now() - started });
          const storing = this.storeLater(spec, index, layout, buildMs, phases);
          this.storing.set(request.collectionId, storing);
          answer(info);
          await storing;
          return;
        }
        onProgress?.({ phase: 'saving', docsDone: index.numDocs, docsTotal: index.numDocs, docsPerSecond: 0, elapsedMs: buildMs });
        let since = performance.now();
        const data = encodeBm25Index(index.partsView(), spec.settings);
        since = phases.add('encode', since);
        await saveIndex(this.db, spec, data, buildMs);
        phases.add('store', since);
        phases.publish();
        answer(this.keep(request.collectionId, index, settings, analyzer, { ...about, storedBytes: data.byteLength, openMs: performance.now() - started }));
      },
      {
        signal: wait.signal,
        onWait: () => {
          waited = true;
        },
      },
    ).finally(() => {
      signal?.removeEventListener('abort', stopWaiting);
      this.waiting.delete(wait);
    });
    // A store after the answer that fails is `stored()`'s rejection, not this open's.
    return Promise.race([answered, locked.then(() => answered)]);
  }

  /**
   * Stores a built index after its answer, in steps that each copy one section and then let waiting
   * requests in (the first searches, the warm-up's slices). A failure is `stored()`'s: the index stays
   * open unstored (the next visit builds it again).
   */
  private async storeLater(spec: IndexSpec, index: Bm25WasmIndex, layout: ReturnType<typeof bm25IndexLayout>, buildMs: number, phases: PhaseTimes): Promise<void> {
    let since = performance.now();
    // Each section is copied on its own turn; the time between them is other requests', not the store's.
    let encodeMs = 0;
    const data = await encodeBm25IndexInSteps(
      () => index.partsView(),
      layout,
      async () => {
        encodeMs += performance.now() - since;
        await nextTask();
        since = performance.now();
      },
    );
    encodeMs += performance.now() - since;
    phases.add('encode (after the answer)', performance.now() - encodeMs);
    since = performance.now();
    await saveIndex(this.db, spec, data, buildMs);
    phases.add('store (after the answer)', since);
    phases.publish();
  }

  /**
   * Settles when the index built by the last `openIndex` of this collection is stored (at once when it
   * was stored before its answer, or loaded); rejects when that store failed.
   */
  async stored(collectionId: string): Promise<void> {
    await this.storing.get(collectionId);
  }

  /** The open index as the TypeScript reference's plain data, with its analyzer (query-augmentation training reads both). */
  reference(collectionId: string): { index: Bm25Index; analyzer: Analyzer } {
    const entry = this.opened(collectionId);
    entry.referenceForm ??= entry.index.toBm25Index();
    return { index: entry.referenceForm, analyzer: entry.analyzer };
  }

  /** Stops the build in progress (its `openIndex` rejects with an AbortError). */
  cancel(): void {
    this.job?.abort(new DOMException('indexing cancelled', 'AbortError'));
    for (const wait of this.waiting) wait.abort(new DOMException('indexing cancelled', 'AbortError'));
  }

  private async build(
    collectionId: string,
    settings: Bm25IndexSettings,
    analyzer: Analyzer,
    onProgress: ((progress: IndexProgress) => void) | undefined,
    signal: AbortSignal | undefined,
    phases: PhaseTimes,
  ): Promise<Bm25WasmIndex> {
    this.job?.abort(new DOMException('superseded by a new build', 'AbortError'));
    const job = new AbortController();
    this.job = job;
    const stop = () => job.abort(signal?.reason);
    signal?.addEventListener('abort', stop);
    try {
      const builder = new Bm25WasmBuilder(await this.module());
      const docsTotal = settings.collection.docCount;
      // Term numbers instead of term strings where the analyzer offers them: no string lookup per token.
      const numbering = analyzer.termNumbers !== undefined && analyzer.term !== undefined ? { termNumbers: analyzer.termNumbers.bind(analyzer), term: analyzer.term.bind(analyzer) } : undefined;
      const started = performance.now();
      let since = started;
      for await (const batch of readDocumentColumns(this.db, collectionId, { batchSize: this.batchSize, signal: job.signal })) {
        since = phases.add('read', since);
        job.signal.throwIfAborted();
        const { ids, titles, texts } = batch;
        for (let i = 0; i < ids.length; i++) {
          const text = bm25DocText({ title: titles[i]!, text: texts[i]! });
          if (numbering !== undefined) builder.addNumbered(ids[i]!, numbering.termNumbers(text), numbering);
          else builder.add(ids[i]!, analyzer.analyze(text));
        }
        since = phases.add('analyze+add', since);
        const elapsedMs = performance.now() - started;
        onProgress?.({
          phase: 'indexing',
          docsDone: builder.size,
          docsTotal,
          docsPerSecond: elapsedMs > 0 ? (builder.size * 1000) / elapsedMs : 0,
          elapsedMs,
        });
      }
      job.signal.throwIfAborted();
      if (builder.size !== docsTotal) throw new Error(`collection ${collectionId}: expected ${docsTotal} documents, found ${builder.size}`);
      return await phases.time('index build', () => builder.build());
    } finally {
      signal?.removeEventListener('abort', stop);
      if (this.job === job) this.job = undefined;
    }
  }

  private keep(
    collectionId: string,
    index: Bm25WasmIndex,
    settings: Bm25IndexSettings,
    analyzer: Analyzer,
    about: Pick<IndexInfo, 'source' | 'rebuildReason' | 'storedBytes' | 'buildMs' | 'builtAt' | 'openMs'>,
  ): IndexInfo {
    const info: IndexInfo = {
      collectionId,
      settings,
      ...about,
      numDocs: index.numDocs,
      numTerms: index.numTerms,
      numPostings: index.numPostings,
      memoryBytes: index.wasmMemoryBytes,
    };
    this.open.set(collectionId, { info, index, analyzer });
    return info;
  }

  private opened(collectionId: string): OpenIndex {
    const entry = this.open.get(collectionId);
    if (!entry) throw new Error(`no BM25 index is open for collection ${collectionId}: call openIndex first`);
    return entry;
  }

  /** Info on the open index of a collection, or undefined. */
  info(collectionId: string): IndexInfo | undefined {
    return this.open.get(collectionId)?.info;
  }

  /** The analyzed terms of a text, with the open index's analyzer. */
  analyze(collectionId: string, text: string): string[] {
    return this.opened(collectionId).analyzer.analyze(text);
  }

  /**
   * The weighted bag and parse report of a query written in the query syntax (`term^2.5`, `+term^w`),
   * analyzed with the open index's analyzer. Never throws on what a user types.
   */
  parseQuery(collectionId: string, text: string): ParsedQuery {
    return parseWeightedQuery(text, this.opened(collectionId).analyzer);
  }

  /** Top-k hits of one query (text analyzed here, in the worker; or a weighted bag). */
  search(collectionId: string, query: RankQuery, options: SearchRequestOptions = {}): Hit[] {
    const { index, analyzer } = this.opened(collectionId);
    return index.search(bm25Query(query, analyzer), searchOptions(options));
  }

  /** Runs many queries (an evaluation run); queries need ids. */
  searchMany(
    collectionId: string,
    queries: readonly (RankQuery & { id: string })[],
    options: SearchRequestOptions = {},
  ): Run {
    const { index, analyzer } = this.opened(collectionId);
    const bm25Options = searchOptions(options);
    const run: Run = new Map();
    for (const query of queries) run.set(query.id, index.search(bm25Query(query, analyzer), bm25Options));
    return run;
  }

  /**
   * Runs the search path (analysis, kernel, packing) on made-up queries of the open index's own terms, in
   * slices of a few ms that let waiting requests in between, so that the first real queries after an open
   * run compiled code: the kernel runs in WebAssembly's baseline tier until it is found hot, and the
   * analyzer is JavaScript seen for a handful of queries. Results are not affected; nothing is kept.
   */
  async warmSearch(collectionId: string, options: { queries?: number; sliceMs?: number } = {}): Promise<number> {
    const entry = this.open.get(collectionId);
    if (entry === undefined) return 0;
    const terms = queryLikeTerms(entry.index);
    const count = terms.length === 0 ? 0 : (options.queries ?? WARM_QUERIES);
    const sliceMs = options.sliceMs ?? 4;
    let ran = 0;
    while (ran < count) {
      const sliceStarted = performance.now();
      const texts: string[] = [];
      for (; ran < count && performance.now() - sliceStarted < sliceMs; ran++) {
        // Six terms picked with a prime stride, different for each query.
        const words = Array.from({ length: 6 }, (_, t) => terms[(ran * 7919 + t * 104729) % terms.length]!);
        texts.push(words.join(' '));
        if (texts.length === 4 || ran === count - 1) {
          this.searchManyPacked(collectionId, texts.map((text) => ({ text })), { k: WARM_DEPTH });
          texts.length = 0;
        }
      }
      // The index may be closed (or replaced) while the worker answers other requests meanwhile.
      await new Promise((resolve) => setTimeout(resolve, 0));
      if (this.open.get(collectionId) !== entry) return ran;
    }
    return ran;
  }

  /** The open index's document ids: the table the rows of `searchManyPacked` refer to. */
  docIds(collectionId: string): readonly string[] {
    return this.opened(collectionId).index.docIds;
  }

  /** `searchMany` as packed rows of `docIds` (an evaluation's chunk crosses the worker boundary as typed arrays). */
  searchManyPacked(collectionId: string, queries: readonly RankQuery[], options: SearchRequestOptions = {}): PackedHits {
    const { index, analyzer } = this.opened(collectionId);
    const bm25Options = searchOptions(options);
    // Each query's hits go straight from the kernel's buffers into the packed arrays, grown when a deep k
    // outgrows their first size.
    const room = Math.min(bm25Options.k ?? index.numDocs, index.numDocs);
    const offsets = new Uint32Array(queries.length + 1);
    let rows = new Uint32Array(Math.min(queries.length * room, PACKED_FIRST_SIZE));
    let scores = new Float64Array(rows.length);
    queries.forEach((query, q) => {
      const at = offsets[q]!;
      if (at + room > rows.length) {
        const size = Math.max(2 * rows.length, at + room);
        rows = grown(rows, size);
        scores = grown(scores, size);
      }
      offsets[q + 1] = at + index.searchInto(bm25Query(query, analyzer), bm25Options, rows, scores, at);
    });
    const total = offsets[queries.length]!;
    return { offsets, rows: rows.subarray(0, total), scores: scores.subarray(0, total) };
  }

  /**
   * Why `docId` scores what it scores for a query — text, or a weighted bag — term by term with each
   * term's weight and contribution (Lucene's arithmetic).
   */
  explain(
    collectionId: string,
    query: string | readonly QueryTermWeight[],
    docId: string,
    params: Partial<Bm25Params> = {},
  ): Bm25Explanation {
    const entry = this.opened(collectionId);
    entry.referenceForm ??= entry.index.toBm25Index();
    const bm25: Bm25Query = typeof query === 'string' ? { terms: entry.analyzer.analyze(query) } : { weighted: query };
    return explainBm25(entry.referenceForm, bm25, docId, {
      ...ANSERINI_BM25_PARAMS,
      ...params,
    });
  }

  /**
   * The open index as pseudo-relevance feedback sees it: searches on the WASM kernel (with `options`' k1, b
   * and identical-id rule, and `queryId`), term vectors and collection frequencies from the index's
   * reference form (copied out of the kernel once, as `explain` does).
   */
  feedbackIndex(collectionId: string, options: Omit<SearchRequestOptions, 'k'> & { queryId?: string } = {}): FeedbackIndex {
    const entry = this.opened(collectionId);
    entry.referenceForm ??= entry.index.toBm25Index();
    const bm25Options = searchOptions(options);
    return feedbackIndexOf(entry.referenceForm, (weighted, k) => entry.index.search({ id: options.queryId, weighted }, { ...bm25Options, k }));
  }

  /**
   * RM3 or Bo1 for one query (text, analyzed here, or a weighted bag): the expanded weighted query, the
   * feedback documents and the second pass's top k.
   */
  searchPrf(collectionId: string, query: RankQuery, prf: PrfRequest, options: SearchRequestOptions = {}): PrfResult {
    const { analyzer } = this.opened(collectionId);
    const bm25 = bm25Query(query, analyzer);
    const bag = queryTermWeights(bm25);
    const index = this.feedbackIndex(collectionId, { ...options, queryId: query.id });
    const k = options.k ?? 1000;
    const { method, ...params } = prf;
    return method === 'rm3' ? searchRm3(index, bag, { ...params, k }) : searchBo1(index, bag, { ...params, k });
  }

  /** `searchPrf` for many queries (an evaluation's chunk), in the order given. */
  searchPrfMany(collectionId: string, queries: readonly RankQuery[], prf: PrfRequest, options: SearchRequestOptions = {}): PrfResult[] {
    return queries.map((query) => this.searchPrf(collectionId, query, prf, options));
  }

  /** Forgets the open index of a collection (the stored one stays). */
  close(collectionId: string): void {
    this.open.delete(collectionId);
  }
}

/** A macrotask later: messages waiting in the worker's queue are answered first. */
function nextTask(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/** Hits the packed arrays of `searchManyPacked` hold before they grow (an evaluation's chunk: 50 × 1,000). */
const PACKED_FIRST_SIZE = 1 << 16;

function grown<T extends Uint32Array | Float64Array>(array: T, size: number): T {
  const larger = new (array.constructor as new (size: number) => T)(size);
  larger.set(array);
  return larger;
}

function bm25Query(query: RankQuery, analyzer: Analyzer): Bm25Query {
  return query.weighted !== undefined ? { id: query.id, weighted: query.weighted } : { id: query.id, terms: analyzer.analyze(query.text) };
}

function searchOptions(options: SearchRequestOptions): Bm25SearchOptions {
  return {
    k: options.k ?? 1000,
    params: { k1: options.k1 ?? ANSERINI_BM25_PARAMS.k1, b: options.b ?? ANSERINI_BM25_PARAMS.b },
    ignoreIdenticalIds: options.ignoreIdenticalIds ?? true,
  };
}
