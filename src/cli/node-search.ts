/**
 * The CLI's side of `RankSearch` (src/lib/retrievers/rank.ts): the core's TypeScript BM25 index and a dense
 * corpus matrix in this process, opened on first use. The page's engine implements the same interface with
 * its workers, so both rank through `rankBatch` and write the same run for the same settings.
 */
import type { Analyzer } from '../lib/analysis/analyzer.ts';
import type { PrfRequest } from '../lib/prf/prf-request.ts';
import { indexCorpus } from '../lib/bm25/bm25-corpus.ts';
import type { Bm25Index } from '../lib/bm25/bm25-index.ts';
import { bagOfTerms } from '../lib/bm25/bm25-query.ts';
import { searchBm25 } from '../lib/bm25/bm25-search.ts';
import { denseTopKMany } from '../lib/dense/dense-top-k.ts';
import type { Embedder } from '../lib/dense/embedder.ts';
import { passageText, queryText } from '../lib/dense/embedding-text.ts';
import { rowIndex } from '../lib/dense/exact-search.ts';
import { HnswIndex } from '../lib/dense/hnsw-index.ts';
import type { EmbeddingDtype } from '../lib/dense/registry.ts';
import { dotWithRow, matrixRow, type VectorMatrix } from '../lib/dense/vector-matrix.ts';
import { searchBo1 } from '../lib/prf/bo1.ts';
import { bm25FeedbackIndex } from '../lib/prf/feedback-index.ts';
import type { PrfResult } from '../lib/prf/prf-result.ts';
import { searchRm3 } from '../lib/prf/rm3.ts';
import type { Augmenter } from '../lib/augment/augmenter.ts';
import type { AugmentModel } from '../lib/augment/model-file.ts';
import type { AugmenterRef, Bm25Settings, DenseSettings, RerankSettings } from '../lib/retrievers/config.ts';
import type { RankSearch } from '../lib/retrievers/rank.ts';
import type { ExpandedTerm, RankQuery } from '../lib/retrievers/ranking.ts';
import type { Doc, Hit } from '../lib/types.ts';
import { packCandidates, type Candidates } from '../lib/hits/packed-hits.ts';
import { loadAnalyzer, type CliAnalyzerName } from './analyzer.ts';
import { augmenterOf } from './augment-model.ts';
import { loadNodeEmbedder, provideIndexedDb, resolveNodeModel } from './dense.ts';
import { importedVectorsEmbedder, importedVectorsName, isImportedVectorsModel } from '../lib/dense/imported-vectors.ts';
import type { ImportedVectors } from './vector-files.ts';

type Progress = (message: string) => void;

export interface NodeSearchOptions {
  /** Leave a hit whose id equals the query id in BM25 rankings (the CLI's --keep-identical-ids). */
  keepIdenticalIds?: boolean;
  /** The dense model's weights (default: the model's). */
  dtype?: EmbeddingDtype;
  /** Progress lines (stderr in the CLI). */
  progress?: Progress;
  /** A cross-encoder's scores, for Re-rank (absent: such a retriever fails with a message). */
  rerank?: (settings: RerankSettings, query: RankQuery, docIds: readonly string[]) => Promise<ArrayLike<number>>;
  /** Query-augmentation models by their reference's key (Augmented BM25). */
  augmenters?: ReadonlyMap<string, AugmentModel>;
  /** Vectors from files, ranked as their `vectors/…` model (nothing is embedded). */
  importedVectors?: ImportedVectors;
}

interface Lexical {
  analyzer: Analyzer;
  index: Bm25Index;
}

interface DenseCorpus {
  embedder: Embedder;
  vectors: VectorMatrix;
  rowOf: Map<string, number>;
  /** Query vectors by text. */
  queries: Map<string, Float32Array>;
  graphs: Map<string, HnswIndex>;
}

/** Milliseconds (and docs/s) by stage, snake_case as in the JSON report; accumulated over calls. */
export type NodeSearchTimings = Record<string, number>;

export class NodeSearch implements RankSearch {
  readonly timings: NodeSearchTimings = {};
  /** What the dense side ran on, for the report header. */
  denseInfo: { model: string; dtype: string; device: string } | undefined;
  private readonly lexical = new Map<string, Promise<Lexical>>();
  private readonly corpora = new Map<string, Promise<DenseCorpus>>();
  private readonly augmenters = new Map<string, Promise<Augmenter>>();
  private readonly ids: string[];
  private readonly progress: Progress;

  constructor(
    private readonly docs: readonly Doc[],
    private readonly options: NodeSearchOptions = {},
  ) {
    this.ids = docs.map((doc) => doc.id);
    this.progress = options.progress ?? (() => {});
    if (options.rerank) this.rerank = options.rerank;
  }

  rerank?: (settings: RerankSettings, query: RankQuery, docIds: readonly string[]) => Promise<ArrayLike<number>>;

  private add(name: string, ms: number): void {
    this.timings[name] = (this.timings[name] ?? 0) + ms;
  }

  /** The BM25 index of an analyzer, built on first use. */
  openLexical(analyzerName: string): Promise<Lexical> {
    let opened = this.lexical.get(analyzerName);
    if (opened === undefined) {
      opened = (async () => {
        const analyzer = await loadAnalyzer(analyzerName as CliAnalyzerName);
        const started = performance.now();
        const index = indexCorpus(this.docs, analyzer, {
          progressEvery: 5000,
          onProgress: (done, total) => this.progress(`bm25: indexed ${done}/${total} documents`),
        });
        const ms = performance.now() - started;
        this.add('bm25_index_ms', ms);
        this.progress(`bm25: ${index.terms.length} terms; index ${ms.toFixed(0)} ms`);
        return { analyzer, index };
      })();
      this.lexical.set(analyzerName, opened);
    }
    return opened;
  }

  private bag(lexical: Lexical, query: RankQuery) {
    return query.weighted !== undefined ? [...query.weighted] : bagOfTerms(lexical.analyzer.analyze(query.text));
  }

  async bm25(settings: Bm25Settings, queries: readonly RankQuery[], k: number): Promise<Hit[][]> {
    const lexical = await this.openLexical(settings.analyzer);
    const started = performance.now();
    const options = { k, params: { k1: settings.k1, b: settings.b }, ignoreIdenticalIds: !this.options.keepIdenticalIds };
    const hits = queries.map((query) =>
      query.weighted !== undefined
        ? searchBm25(lexical.index, { id: query.id, weighted: query.weighted }, options)
        : searchBm25(lexical.index, { id: query.id, terms: lexical.analyzer.analyze(query.text) }, options),
    );
    this.add('bm25_query_ms', performance.now() - started);
    return hits;
  }

  /** The weighted bag each model makes of each query, its encoder loaded on first use with the index's analyzer. */
  async augment(ref: AugmenterRef, bm25: Bm25Settings, queries: readonly RankQuery[]): Promise<ExpandedTerm[][]> {
    let opened = this.augmenters.get(ref.key);
    if (opened === undefined) {
      const model = this.options.augmenters?.get(ref.key);
      if (model === undefined) throw new Error(`the model ${ref.name} is not loaded`);
      opened = this.openLexical(bm25.analyzer).then((lexical) => augmenterOf(model, lexical.analyzer));
      this.augmenters.set(ref.key, opened);
    }
    const augmenter = await opened;
    const started = performance.now();
    const bags = await augmenter.expandBatch(queries.map((query) => query.text));
    this.add('augment_ms', performance.now() - started);
    return bags;
  }

  async prf(settings: Bm25Settings, request: PrfRequest, queries: readonly RankQuery[], k: number): Promise<PrfResult[]> {
    const lexical = await this.openLexical(settings.analyzer);
    const started = performance.now();
    const { method, ...options } = request;
    const results = queries.map((query) => {
      const index = bm25FeedbackIndex(lexical.index, { params: { k1: settings.k1, b: settings.b }, ignoreIdenticalIds: !this.options.keepIdenticalIds, queryId: query.id });
      const bag = this.bag(lexical, query);
      return method === 'rm3' ? searchRm3(index, bag, { ...options, k }) : searchBo1(index, bag, { ...options, k });
    });
    this.add('bm25_query_ms', performance.now() - started);
    return results;
  }

  /** The corpus vectors of a model, embedded on first use (from files: as they were read). */
  private openDense(model: string): Promise<DenseCorpus> {
    let opened = this.corpora.get(model);
    if (opened === undefined && isImportedVectorsModel(model)) {
      const imported = this.options.importedVectors;
      if (imported?.model !== model) return Promise.reject(new Error(`the vectors of ${model} are not loaded`));
      const { texts, vectors } = imported.queries;
      const queries = new Map(texts.map((text, i) => [text, matrixRow(vectors, i)]));
      this.denseInfo = { model: importedVectorsName(model), dtype: 'fp32', device: 'file' };
      opened = Promise.resolve({ embedder: importedVectorsEmbedder(model), vectors: imported.corpus, rowOf: rowIndex(this.ids), queries, graphs: new Map() });
      this.corpora.set(model, opened);
    }
    if (opened === undefined) {
      opened = (async () => {
        const t0 = performance.now();
        const embedder = await loadNodeEmbedder(resolveNodeModel(model), this.options.dtype);
        const t1 = performance.now();
        let reported = '';
        const vectors = await embedder.embed(
          this.docs.map((doc) => passageText(doc, embedder.spec)),
          {
            onProgress: (p) => {
              // About one line per thousand documents, and the last one.
              const step = p.done === p.total ? 'end' : String(Math.floor(p.done / 1000));
              if (step === reported) return;
              reported = step;
              const rate = p.docsPerSecond > 0 ? `, ${p.docsPerSecond.toFixed(0)}/s` : '';
              this.progress(`dense: embedded ${p.done}/${p.total} documents${rate}`);
            },
          },
        );
        const embedMs = performance.now() - t1;
        this.add('model_load_ms', t1 - t0);
        this.add('embed_corpus_ms', embedMs);
        this.timings.docs_per_s = this.docs.length / (embedMs / 1000);
        this.denseInfo = { model: embedder.spec.id, dtype: embedder.dtype, device: embedder.device };
        return { embedder, vectors, rowOf: rowIndex(this.ids), queries: new Map(), graphs: new Map() };
      })();
      this.corpora.set(model, opened);
    }
    return opened;
  }

  /** Query vectors of texts, embedded once per text (as the model card prefixes them). */
  private async queryVectors(corpus: DenseCorpus, texts: readonly string[]): Promise<Float32Array[]> {
    const missing = [...new Set(texts.filter((text) => !corpus.queries.has(text)))];
    if (missing.length > 0) {
      const started = performance.now();
      const matrix = await corpus.embedder.embed(missing.map((text) => queryText({ id: '', text }, corpus.embedder.spec)));
      missing.forEach((text, i) => corpus.queries.set(text, matrixRow(matrix, i).slice()));
      this.add('embed_queries_ms', performance.now() - started);
    }
    return texts.map((text) => corpus.queries.get(text)!);
  }

  private async graph(corpus: DenseCorpus, settings: DenseSettings): Promise<HnswIndex | undefined> {
    if (settings.search !== 'hnsw') return undefined;
    const { M, efConstruction, efSearch } = settings.hnsw;
    const key = `${M}|${efConstruction}`;
    let graph = corpus.graphs.get(key);
    if (graph === undefined) {
      await provideIndexedDb();
      const started = performance.now();
      graph = await HnswIndex.build(corpus.vectors, { M, efConstruction, efSearch });
      this.add('ann_index_ms', performance.now() - started);
      corpus.graphs.set(key, graph);
    }
    graph.setEfSearch(efSearch);
    return graph;
  }

  async dense(settings: DenseSettings, texts: readonly string[], k: number): Promise<Hit[][]> {
    const corpus = await this.openDense(settings.model);
    const vectors = await this.queryVectors(corpus, texts);
    const graph = await this.graph(corpus, settings);
    const started = performance.now();
    const found = denseTopKMany(corpus.vectors, vectors.map((vector, i) => (texts[i]!.trim() === '' ? undefined : vector)), k, graph);
    const hits = found.map(({ rows, scores }) => Array.from(rows, (row, i): Hit => ({ docId: this.ids[row]!, score: scores[i]! })));
    this.add('search_ms', performance.now() - started);
    return hits;
  }

  async denseScores(settings: DenseSettings, texts: readonly string[], candidates: Candidates): Promise<number[][]> {
    const corpus = await this.openDense(settings.model);
    const vectors = await this.queryVectors(corpus, texts);
    const started = performance.now();
    const { offsets, rows } = packCandidates(candidates, corpus.rowOf);
    const scores = vectors.map((vector, q) => Array.from(rows.subarray(offsets[q]!, offsets[q + 1]!), (row) => (row < 0 ? Number.NaN : dotWithRow(corpus.vectors, row, vector))));
    this.add('search_ms', performance.now() - started);
    return scores;
  }

  /** Frees the models and the HNSW graphs' wasm memory. */
  async dispose(): Promise<void> {
    for (const opened of this.corpora.values()) {
      const corpus = await opened.catch(() => undefined);
      if (corpus === undefined) continue;
      for (const graph of corpus.graphs.values()) graph.dispose();
      await corpus.embedder.dispose();
    }
    this.corpora.clear();
    for (const opened of this.augmenters.values()) {
      const augmenter = await opened.catch(() => undefined);
      await augmenter?.encoder.dispose?.();
    }
    this.augmenters.clear();
  }
}
