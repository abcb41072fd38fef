/**
 * In-memory backends for the engine's unit tests: BM25 is the real TypeScript reference (src/lib/bm25, equal
 * to Lucene 8.7), dense is a small hashed bag-of-trigrams model searched exactly with src/lib/dense — real
 * rankings, so fusion results can be compared with the fusion functions called directly. Builds can be
 * held open with a gate (to test sharing and cancel), and every call is counted.
 */
import { createAnalyzer, type AnalyzerName } from '../../../src/lib/analysis/analyzers.ts';
import type { IndexInfo, IndexProgress } from '../../../src/lib/services/bm25-service.ts';
import { indexCorpus } from '../../../src/lib/bm25/bm25-corpus.ts';
import { explainBm25, type Bm25Explanation } from '../../../src/lib/bm25/bm25-explain.ts';
import type { Bm25Index } from '../../../src/lib/bm25/bm25-index.ts';
import { searchBm25 } from '../../../src/lib/bm25/bm25-search.ts';
import type { Bm25Params } from '../../../src/lib/bm25/bm25-similarity.ts';
import { exactSearch, rowIndex } from '../../../src/lib/dense/exact-search.ts';
import { dot, matrixRow, normalizeInPlace, type VectorMatrix } from '../../../src/lib/dense/vector-matrix.ts';
import type { PrfRequest } from '../../../src/lib/prf/prf-request.ts';
import { bagOfTerms, type QueryTermWeight } from '../../../src/lib/bm25/bm25-query.ts';
import { searchBo1 } from '../../../src/lib/prf/bo1.ts';
import { bm25FeedbackIndex } from '../../../src/lib/prf/feedback-index.ts';
import type { PrfResult } from '../../../src/lib/prf/prf-result.ts';
import { searchRm3 } from '../../../src/lib/prf/rm3.ts';
import type { DenseSettings, RerankSettings } from '../../../src/lib/retrievers/config.ts';
import type { Doc, Hit, Run } from '../../../src/lib/types.ts';
import type { Candidates } from '../../../src/lib/hits/packed-hits.ts';
import { hitsOf, isRowRanking, type RowRanking } from '../../../src/lib/hits/row-ranking.ts';
import type {
  Bm25Backend,
  Bm25SearchParams,
  DenseBackend,
  DenseOpenInfo,
  DenseProgress,
  EngineJob,
  JobSink,
  RerankBackend,
  RerankerOpenInfo,
  RerankScoreProgress,
  RunBackend,
} from '../../../src/app/engine/backends.ts';
import type { RankQuery } from '../../../src/lib/retrievers/ranking.ts';

export const DOCS: Doc[] = [
  { id: 'd1', title: 'Stale bread', text: 'A loaf goes stale as starch retrogrades and the crumb turns firm.' },
  { id: 'd2', title: 'Hard water', text: 'Hard water changes how bread dough rises in the first few days of a starter.' },
  { id: 'd3', title: 'Boiled eggs', text: 'Eggs boiled hard keep a few days in the fridge.' },
  { id: 'd4', title: 'Toast', text: 'Toasting bread dries the surface and browns it.' },
  { id: 'd5', title: 'Sourdough', text: 'A sourdough starter needs feeding every few days.' },
  { id: 'd6', title: 'Brakes', text: 'Disc brakes squeal when the pads are contaminated.' },
  { id: 'd7', title: 'Supernova', text: 'A massive star explodes as a supernova and leaves a neutron star remnant.' },
  { id: 'd8', title: 'Bread flour', text: 'Bread flour has more protein than cake flour, so bread is chewier.' },
];

/** A gate: `wait()` resolves once `open()` is called. */
export class Gate {
  private release: (() => void) | undefined;
  private readonly promise = new Promise<void>((resolve) => (this.release = resolve));
  wait(): Promise<void> {
    return this.promise;
  }
  open(): void {
    this.release?.();
  }
}

/** The document ids of one query's candidates (hits, bare ids or rows). */
function candidateIds(list: Candidates[number]): string[] {
  return isRowRanking(list) ? hitsOf(list).map((hit) => hit.docId) : list.map((hit) => hit.docId);
}

function abortable(gate: Gate | undefined, signal: AbortSignal): Promise<void> {
  if (gate === undefined) return Promise.resolve();
  return new Promise((resolve, reject) => {
    signal.throwIfAborted();
    signal.addEventListener('abort', () => reject(signal.reason), { once: true });
    gate.wait().then(resolve);
  });
}

export class FakeBm25 implements Bm25Backend {
  opens: Array<{ collectionId: string; analyzer: AnalyzerName }> = [];
  warmed: AnalyzerName[] = [];

  warm(analyzer: AnalyzerName): void {
    this.warmed.push(analyzer);
  }

  searches: Array<{ queries: readonly RankQuery[]; params: Bm25SearchParams }> = [];
  /** Collections whose index is "stored": open only loads it. */
  stored = new Set<string>();
  gate: Gate | undefined;
  private readonly indexes = new Map<string, Bm25Index>();

  constructor(private readonly docs: readonly Doc[] = DOCS) {}

  async open(collectionId: string, analyzer: AnalyzerName, onProgress: (p: IndexProgress) => void, signal: AbortSignal): Promise<IndexInfo> {
    this.opens.push({ collectionId, analyzer });
    const key = `${collectionId}|${analyzer}`;
    onProgress({ phase: 'loading', docsDone: 0, docsTotal: this.docs.length, docsPerSecond: 0, elapsedMs: 0 });
    const stored = this.stored.has(key);
    if (!stored) {
      onProgress({ phase: 'indexing', docsDone: 4, docsTotal: this.docs.length, docsPerSecond: 0, elapsedMs: 1 });
      await abortable(this.gate, signal);
      onProgress({ phase: 'indexing', docsDone: this.docs.length, docsTotal: this.docs.length, docsPerSecond: 0, elapsedMs: 2 });
    }
    const index = indexCorpus(this.docs, createAnalyzer(analyzer));
    this.indexes.set(key, index);
    this.stored.add(key);
    return {
      collectionId,
      settings: { analyzer, field: 'title+text', collection: { docCount: this.docs.length, createdAt: 1 } },
      source: stored ? 'stored' : 'built',
      builtAt: 1,
      numDocs: this.docs.length,
      numTerms: index.terms.length,
      numPostings: 0,
      storedBytes: 0,
      memoryBytes: 0,
      buildMs: 1,
      openMs: 1,
    };
  }

  /** What a worker crash does: every open index is gone (stored ones stay stored). */
  lose(): void {
    this.indexes.clear();
  }

  private index(collectionId: string, analyzer: AnalyzerName): Bm25Index {
    const index = this.indexes.get(`${collectionId}|${analyzer}`);
    if (index === undefined) throw new Error('index not open');
    return index;
  }

  /** The reference ranking, for comparisons. */
  reference(collectionId: string, analyzer: AnalyzerName, query: RankQuery, params: Bm25SearchParams): Hit[] {
    const options = { k: params.k, params: { k1: params.k1, b: params.b } };
    const index = this.index(collectionId, analyzer);
    if (query.weighted !== undefined) return searchBm25(index, { id: query.id, weighted: query.weighted }, options);
    return searchBm25(index, { id: query.id, terms: createAnalyzer(analyzer).analyze(query.text) }, options);
  }

  async search(collectionId: string, analyzer: AnalyzerName, queries: readonly RankQuery[], params: Bm25SearchParams): Promise<Hit[][]> {
    this.searches.push({ queries, params });
    return queries.map((query) => this.reference(collectionId, analyzer, query, params));
  }

  /** The query of each explain call (text or weighted bag). */
  explains: Array<string | readonly QueryTermWeight[]> = [];

  async explain(collectionId: string, analyzer: AnalyzerName, query: string | readonly QueryTermWeight[], docId: string, params: Bm25Params): Promise<Bm25Explanation> {
    this.explains.push(query);
    const bm25 = typeof query === 'string' ? { terms: createAnalyzer(analyzer).analyze(query) } : { weighted: query };
    return explainBm25(this.index(collectionId, analyzer), bm25, docId, params);
  }

  prfSearches: Array<{ queries: readonly RankQuery[]; prf: PrfRequest; params: Bm25SearchParams }> = [];

  /** RM3 / Bo1 of src/lib/prf on the reference index, as the worker's Bm25Service.searchPrf does on its kernel. */
  prfReference(collectionId: string, analyzer: AnalyzerName, query: RankQuery, prf: PrfRequest, params: Bm25SearchParams): PrfResult {
    const index = bm25FeedbackIndex(this.index(collectionId, analyzer), { params: { k1: params.k1, b: params.b }, queryId: query.id });
    const bag = query.weighted !== undefined ? [...query.weighted] : bagOfTerms(createAnalyzer(analyzer).analyze(query.text));
    const { method, ...options } = prf;
    return method === 'rm3' ? searchRm3(index, bag, { ...options, k: params.k }) : searchBo1(index, bag, { ...options, k: params.k });
  }

  async searchPrf(collectionId: string, analyzer: AnalyzerName, queries: readonly RankQuery[], prf: PrfRequest, params: Bm25SearchParams): Promise<PrfResult[]> {
    this.prfSearches.push({ queries, prf, params });
    return queries.map((query) => this.prfReference(collectionId, analyzer, query, prf, params));
  }
}

/**
 * A cross-encoder stand-in: the score of (query, document) is the number of the query's distinct words in the
 * document's title and text, minus a thousandth of the document's length (so ties are rare and the order is
 * checkable by hand). Scores are cached per (model, query, document) as the worker's are.
 */
export class FakeRerank implements RerankBackend {
  opens: RerankSettings[] = [];
  /** Pairs actually scored (cache misses), per call. */
  scored: number[] = [];
  gate: Gate | undefined;
  private readonly cache = new Map<string, number>();

  constructor(private readonly docs: readonly Doc[] = DOCS) {}

  static score(query: string, doc: Doc): number {
    const words = (text: string) => text.toLowerCase().match(/[a-z]+/g) ?? [];
    const docWords = new Set(words(`${doc.title} ${doc.text}`));
    const shared = new Set(words(query).filter((w) => docWords.has(w))).size;
    return shared - `${doc.title} ${doc.text}`.length / 1000;
  }

  async open(settings: RerankSettings, onDownload: (p: { file: string; loaded: number; total: number }) => void): Promise<RerankerOpenInfo> {
    this.opens.push(settings);
    onDownload({ file: 'onnx/model.onnx', loaded: 1, total: 1 });
    return { model: settings.model, device: 'wasm', dtype: settings.dtype, maxLength: 512, loadMs: 1 };
  }

  async score(
    _collectionId: string,
    settings: RerankSettings,
    query: string,
    docIds: readonly string[],
    options: { signal?: AbortSignal; onProgress?: (p: RerankScoreProgress) => void } = {},
  ): Promise<Float32Array> {
    const key = (id: string) => `${settings.model}\u0000${query}\u0000${id}`;
    const cached = docIds.filter((id) => this.cache.has(key(id))).length;
    options.onProgress?.({ done: cached, total: docIds.length, cached });
    if (options.signal) await abortable(this.gate, options.signal);
    const scores = new Float32Array(docIds.length);
    docIds.forEach((id, i) => {
      let score = this.cache.get(key(id));
      if (score === undefined) {
        const doc = this.docs.find((d) => d.id === id);
        if (doc === undefined) throw new Error(`document ${id} is not in the collection`);
        score = Math.fround(FakeRerank.score(query, doc));
        this.cache.set(key(id), score);
      }
      scores[i] = score;
    });
    this.scored.push(docIds.length - cached);
    options.onProgress?.({ done: docIds.length, total: docIds.length, cached });
    return scores;
  }
}

const DIM = 64;

/** A deterministic unit vector of a text: hashed character trigrams of its lower-cased words. */
export function trigramVector(text: string): Float32Array {
  const v = new Float32Array(DIM);
  for (const word of text.toLowerCase().match(/[a-z]+/g) ?? []) {
    const padded = `^${word}$`;
    for (let i = 0; i + 3 <= padded.length; i++) {
      let h = 2166136261;
      for (const c of padded.slice(i, i + 3)) h = Math.imul(h ^ c.charCodeAt(0), 16777619) >>> 0;
      v[h % DIM] = (v[h % DIM] ?? 0) + 1;
    }
  }
  return normalizeInPlace(v);
}

export class FakeDense implements DenseBackend {
  opens: Array<{ collectionId: string; settings: DenseSettings }> = [];
  warmed: DenseSettings[] = [];
  /** Settings whose model was asked to load now (the person is about to type). */
  modelsLoaded: DenseSettings[] = [];

  loadModel(settings: DenseSettings): void {
    this.modelsLoaded.push(settings);
  }

  warm(settings: DenseSettings): void {
    this.warmed.push(settings);
  }

  searches = 0;
  scores = 0;
  gate: Gate | undefined;
  private matrix: VectorMatrix | undefined;
  private readonly ids: string[];

  constructor(private readonly docs: readonly Doc[] = DOCS) {
    this.ids = docs.map((d) => d.id);
  }

  async open(collectionId: string, settings: DenseSettings, onProgress: (p: DenseProgress) => void, signal: AbortSignal): Promise<DenseOpenInfo> {
    this.opens.push({ collectionId, settings });
    onProgress({ phase: 'embedding', done: 0, total: this.docs.length, docsPerSecond: 0 });
    await abortable(this.gate, signal);
    const data = new Float32Array(this.docs.length * DIM);
    this.docs.forEach((doc, r) => data.set(trigramVector(`${doc.title} ${doc.text}`), r * DIM));
    this.matrix = { rows: this.docs.length, dim: DIM, data };
    onProgress({ phase: 'embedding', done: this.docs.length, total: this.docs.length, docsPerSecond: 100 });
    return { model: settings.model, device: 'wasm', dtype: settings.dtype, dim: DIM, docs: this.docs.length, fromCache: false, embedMs: 1 };
  }

  /** What a worker crash does: the model and the corpus vectors are gone. */
  lose(): void {
    this.matrix = undefined;
  }

  private opened(): VectorMatrix {
    if (this.matrix === undefined) throw new Error('corpus not open');
    return this.matrix;
  }

  reference(text: string, k: number): Hit[] {
    return exactSearch(this.opened(), this.ids, trigramVector(text), k);
  }

  async search(_collectionId: string, _settings: DenseSettings, texts: readonly string[], k: number): Promise<Hit[][]> {
    this.searches += 1;
    return texts.map((text) => this.reference(text, k));
  }

  async score(_collectionId: string, _settings: DenseSettings, texts: readonly string[], candidates: Candidates): Promise<number[][]> {
    this.scores += 1;
    const rows = rowIndex(this.ids);
    return texts.map((text, i) => {
      const q = trigramVector(text);
      return candidateIds(candidates[i] ?? []).map((docId) => {
        const row = rows.get(docId);
        return row === undefined ? Number.NaN : dot(matrixRow(this.opened(), row), q);
      });
    });
  }
}

export class FakeRuns implements RunBackend {
  runs = new Map<string, Run>();
  async load(collectionId: string, runKey: string): Promise<Run | undefined> {
    return this.runs.get(`${collectionId}|${runKey}`);
  }
}

export interface RecordedJob {
  title: string;
  unit: string | undefined;
  status: 'running' | 'done' | 'failed' | 'cancelled';
  progress: Array<[number, number | undefined]>;
  cancel: () => void;
}

export class FakeJobs implements JobSink {
  list: RecordedJob[] = [];

  start(title: string, options: { unit?: string; total?: number; cancellable?: boolean } = {}): EngineJob {
    const controller = new AbortController();
    const job: RecordedJob = {
      title,
      unit: options.unit,
      status: 'running',
      progress: [],
      cancel: () => controller.abort(new DOMException(`${title}: cancelled`, 'AbortError')),
    };
    this.list.push(job);
    const settle = (status: RecordedJob['status']) => {
      if (job.status === 'running') job.status = status;
    };
    return {
      signal: controller.signal,
      progress: (done, total) => void job.progress.push([done, total]),
      finish: () => settle('done'),
      fail: () => settle(controller.signal.aborted ? 'cancelled' : 'failed'),
    };
  }
}

/** Hits as rows of `table` (what a worker's packed answer is on the page). */
export function rowsOfHits(table: readonly string[], hits: readonly Hit[]): RowRanking {
  const rowOf = rowIndex(table);
  return { table, rows: Uint32Array.from(hits, (hit) => rowOf.get(hit.docId)!), scores: Float64Array.from(hits, (hit) => hit.score) };
}

/** FakeBm25 that also answers as rows of its documents' ids, as the BM25 worker does (searchRows). */
export class FakeRowsBm25 extends FakeBm25 {
  async searchRows(collectionId: string, analyzer: AnalyzerName, queries: readonly RankQuery[], params: Bm25SearchParams): Promise<RowRanking[]> {
    const table = DOCS.map((doc) => doc.id);
    return (await this.search(collectionId, analyzer, queries, params)).map((hits) => rowsOfHits(table, hits));
  }
}

/** FakeDense that also answers as rows (searchRows). */
export class FakeRowsDense extends FakeDense {
  async searchRows(collectionId: string, settings: DenseSettings, texts: readonly string[], k: number): Promise<RowRanking[]> {
    const table = DOCS.map((doc) => doc.id);
    return (await this.search(collectionId, settings, texts, k)).map((hits) => rowsOfHits(table, hits));
  }

}
