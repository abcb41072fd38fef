/**
 * The retrievers of the `eval` command. Its flags become the configuration a page column holds
 * (`retrieverConfig`), ranked by the one ranking of src/lib/retrievers/rank.ts over this process's indexes
 * (node-search.ts: the Lucene-equal TypeScript BM25, dense models on onnxruntime-node or static tables), so a
 * run file equals the dashboard's exported run for the same settings. Re-ranking's cross-encoder runs here
 * (rerank.ts) over that first stage.
 */
import type { Bm25AnalyzerName } from '../lib/analysis/analyzers.ts';
import type { PrfRequest } from '../lib/prf/prf-request.ts';
import type { Bm25Params } from '../lib/bm25/bm25-similarity.ts';
import type { EmbeddingDtype } from '../lib/dense/registry.ts';
import type { Normalization } from '../lib/fusion/normalize.ts';
import { TERRIER_BO1_PARAMS } from '../lib/prf/bo1.ts';
import { ANSERINI_RM3_PARAMS } from '../lib/prf/rm3.ts';
import { DEFAULT_HNSW, type Bm25Settings, type DenseSettings, type HnswSettings, type RetrieverConfig } from '../lib/retrievers/config.ts';
import { rankBatch, type RankForm } from '../lib/retrievers/rank.ts';
import { plainHits } from '../lib/retrievers/ranking.ts';
import { docScorerFor, rerankDocText } from '../lib/rerank/rerank.ts';
import type { Doc, Query, Run } from '../lib/types.ts';
import type { CliAnalyzerName } from './analyzer.ts';
import { DEFAULT_DENSE_MODEL, resolveNodeModel } from './dense.ts';
import { isImportedVectorsModel } from '../lib/dense/imported-vectors.ts';
import type { ImportedVectors } from './vector-files.ts';
import { NodeSearch } from './node-search.ts';
import { loadNodeCrossEncoder, resolveNodeReranker } from './rerank.ts';
import type { LoadedModel } from './augment-model.ts';
import { CliError } from './cli-error.ts';

export const RETRIEVERS = {
  bm25: 'BM25, Lucene 8.7 / Pyserini bm25-flat semantics',
  rm3: 'BM25 + RM3 pseudo-relevance feedback (Anserini Rm3Reranker; fbTerms 10, fbDocs 10, weight 0.5)',
  bo1: 'BM25 + Bo1 query expansion (Terrier/PyTerrier; 10 terms, 3 documents)',
  dense: 'dense embeddings (exact or HNSW search)',
  ledr: 'LaPraDoR LEDR: dense cosine × BM25 over the BM25 top K',
  rrf: 'reciprocal rank fusion of BM25 and dense',
  convex: 'alpha · BM25 + (1 − alpha) · dense over normalized scores',
  rerank: 'a cross-encoder re-ranks the first stage’s top depth (--first-stage, --depth, --model)',
  augmented: 'BM25 over the weighted bag a trained query-augmentation model makes of each query (--augmenter model.json)',
} as const;

export type RetrieverName = keyof typeof RETRIEVERS;
/** Retrievers a re-ranker can follow (on the command line). */
export type FirstStageName = Exclude<RetrieverName, 'rerank' | 'augmented'>;
export type LexicalName = 'bm25' | 'rm3' | 'bo1';
export const LEXICAL_STAGES: readonly LexicalName[] = ['bm25', 'rm3', 'bo1'];

export const FIRST_STAGES: readonly FirstStageName[] = ['bm25', 'rm3', 'bo1', 'dense', 'ledr', 'rrf', 'convex'];

/** Pseudo-relevance feedback settings; an absent count takes the method's default. */
export interface PrfSettings {
  fbTerms?: number;
  fbDocs?: number;
  /** RM3 only. */
  originalQueryWeight?: number;
}

export interface RetrieverSettings {
  retriever: RetrieverName;
  analyzer: CliAnalyzerName;
  bm25: Bm25Params;
  /** Hits per query in the run. */
  topK: number;
  /** Drop hits whose document id equals the query id (BEIR `ignore_identical_ids`, Pyserini `--remove-query`). */
  ignoreIdenticalIds: boolean;
  /** The dense model; with `rerank`, the cross-encoder (the first stage's dense model is `denseModel`). */
  model: string;
  dtype: EmbeddingDtype | undefined;
  /** rerank: the first stage's dense model (default local/glove-100d-sif). */
  denseModel?: string;
  /** rerank: the retriever whose top `depth` is re-ranked. */
  firstStage?: FirstStageName;
  /** rerank: first-stage hits re-ranked per query. */
  depth?: number;
  /** rerank: pairs per model call. */
  rerankBatch?: number;
  search: 'exact' | 'hnsw';
  /** HNSW graph and search settings (default M 16, efConstruction 200, efSearch 128, as the page's). */
  hnsw?: Partial<HnswSettings>;
  /** LEDR's K: the BM25 candidates per query. */
  ledrK: number;
  /** LEDR: the lexical ranking whose top K the dense model scores (default bm25; rm3 and bo1 use `prf`). */
  lexical?: LexicalName;
  rrfK: number;
  alpha: number;
  normalization: Exclude<Normalization, 'none'>;
  /** RM3 / Bo1 settings; absent: the methods' defaults. */
  prf?: PrfSettings;
  /** augmented: the model (--augmenter). */
  augmenter?: LoadedModel;
  /** Vectors from files (--vectors, --query-vectors): the dense side ranks with these, `model` is theirs. */
  vectors?: ImportedVectors;
}

export interface RetrievalResult {
  run: Run;
  /** Milliseconds (and docs/s) by stage, snake_case keys as in the JSON output. */
  timings: Record<string, number>;
  /** The settings that shaped the run, for the report header. */
  description: Record<string, string | number>;
  /** rerank: the first stage's run (its recall@depth is the ceiling of the re-ranking). */
  firstStage?: Run;
  /** augmented: terms per query and the latency of plain BM25 over the same queries, for the JSON report. */
  efficiency?: AugmentedEfficiency;
}

/** Milliseconds are per query: the search of the weighted bag, making the bag, and plain BM25's search. */
export interface AugmentedEfficiency {
  terms_per_query: number;
  query_ms_mean: number;
  augment_ms_mean: number;
  bm25_query_ms_mean: number;
}

type Progress = (message: string) => void;

function bm25Description(settings: RetrieverSettings): Record<string, string | number> {
  return { k1: settings.bm25.k1, b: settings.bm25.b, analyzer: settings.analyzer };
}

function bm25Settings(settings: RetrieverSettings): Bm25Settings {
  return { k1: settings.bm25.k1, b: settings.bm25.b, analyzer: settings.analyzer as Bm25AnalyzerName };
}

function denseSettings(settings: RetrieverSettings, model: string): DenseSettings {
  return {
    model,
    device: 'auto',
    dtype: isImportedVectorsModel(model) ? 'fp32' : (settings.dtype ?? resolveNodeModel(model).spec.defaultDtype),
    search: settings.search,
    hnsw: { ...DEFAULT_HNSW, ...settings.hnsw },
  };
}

/** RM3 or Bo1 as the ranking asks for it, the methods' defaults for counts not given. */
function prfOf(method: 'rm3' | 'bo1', prf: PrfSettings = {}): PrfRequest {
  return method === 'rm3'
    ? {
        method,
        fbTerms: prf.fbTerms ?? ANSERINI_RM3_PARAMS.fbTerms,
        fbDocs: prf.fbDocs ?? ANSERINI_RM3_PARAMS.fbDocs,
        originalQueryWeight: prf.originalQueryWeight ?? ANSERINI_RM3_PARAMS.originalQueryWeight,
      }
    : { method, fbTerms: prf.fbTerms ?? TERRIER_BO1_PARAMS.fbTerms, fbDocs: prf.fbDocs ?? TERRIER_BO1_PARAMS.fbDocs };
}

/**
 * The command line's settings as the configuration a page column holds (src/lib/retrievers/config.ts): the
 * CLI and the page rank the same configuration with the same code (src/lib/retrievers/rank.ts).
 */
export function retrieverConfig(settings: RetrieverSettings, name: Exclude<RetrieverName, 'rerank'> = settings.retriever === 'rerank' ? 'bm25' : settings.retriever): RetrieverConfig {
  const bm25 = bm25Settings(settings);
  const model = settings.retriever === 'rerank' ? (settings.denseModel ?? DEFAULT_DENSE_MODEL) : settings.model;
  const dense = () => denseSettings(settings.retriever === 'rerank' ? { ...settings, dtype: undefined } : settings, model);
  switch (name) {
    case 'bm25':
      return { kind: 'bm25', bm25 };
    case 'rm3': {
      const { fbTerms, fbDocs, originalQueryWeight } = prfOf('rm3', settings.prf) as Extract<PrfRequest, { method: 'rm3' }>;
      return { kind: 'rm3', bm25, fbTerms: fbTerms!, fbDocs: fbDocs!, originalQueryWeight: originalQueryWeight! };
    }
    case 'bo1': {
      const { fbTerms, fbDocs } = prfOf('bo1', settings.prf);
      return { kind: 'bo1', bm25, fbTerms: fbTerms!, fbDocs: fbDocs! };
    }
    case 'dense':
      return { kind: 'dense', dense: dense() };
    case 'ledr':
      return { kind: 'ledr', bm25, dense: dense(), k: settings.ledrK };
    case 'rrf':
      return { kind: 'rrf', bm25, dense: dense(), k: settings.rrfK };
    case 'convex':
      return { kind: 'convex', bm25, dense: dense(), alpha: settings.alpha, normalization: settings.normalization };
    case 'augmented':
      if (settings.augmenter === undefined) throw new CliError('--retriever augmented needs --augmenter <model.json> (made by train-augment)');
      return { kind: 'augmented', bm25, augmenter: settings.augmenter.ref };
  }
}

/** What shaped a run, for the report header. */
function describe(settings: RetrieverSettings, config: RetrieverConfig, search: NodeSearch): Record<string, string | number> {
  const dense = search.denseInfo === undefined ? {} : { ...search.denseInfo, search: config.kind === 'ledr' ? 'candidates' : settings.search };
  switch (config.kind) {
    case 'bm25':
      return bm25Description(settings);
    case 'rm3':
    case 'bo1':
      return {
        ...bm25Description(settings),
        fbTerms: config.fbTerms,
        fbDocs: config.fbDocs,
        ...(config.kind === 'rm3' ? { originalQueryWeight: config.originalQueryWeight } : {}),
      };
    case 'dense':
      return dense;
    case 'ledr': {
      const lexical = settings.lexical ?? 'bm25';
      const lexicalDescription = lexical === 'bm25' ? bm25Description(settings) : { lexical, ...describe(settings, retrieverConfig(settings, lexical), search) };
      return { ...lexicalDescription, ...dense, K: config.k };
    }
    case 'rrf':
      return { ...bm25Description(settings), ...dense, k: config.k };
    case 'convex':
      return { ...bm25Description(settings), ...dense, alpha: config.alpha, normalization: config.normalization };
    case 'augmented':
      return { ...bm25Description(settings), augmenter: config.augmenter.name, trained_on: `${config.augmenter.collection} ${config.augmenter.split}` };
    default:
      return {};
  }
}

/** The search's stage times, per query where they are per query, with the report's names. */
function timingsOf(search: NodeSearch, config: RetrieverConfig, queries: number): Record<string, number> {
  const t = search.timings;
  const perQuery = (ms: number | undefined) => (ms ?? 0) / Math.max(1, queries);
  const lexicalOnly = config.kind === 'bm25' || config.kind === 'rm3' || config.kind === 'bo1' || config.kind === 'augmented';
  const lexical: Record<string, number> =
    config.kind === 'dense'
      ? {}
      : lexicalOnly
        ? { index_ms: t.bm25_index_ms ?? 0, query_ms_mean: perQuery(t.bm25_query_ms) }
        : { bm25_index_ms: t.bm25_index_ms ?? 0, bm25_query_ms_mean: perQuery(t.bm25_query_ms) };
  const dense: Record<string, number> = lexicalOnly
    ? {}
    : {
        model_load_ms: t.model_load_ms ?? 0,
        embed_corpus_ms: t.embed_corpus_ms ?? 0,
        embed_queries_ms: t.embed_queries_ms ?? 0,
        docs_per_s: t.docs_per_s ?? 0,
        ...(t.ann_index_ms !== undefined ? { ann_index_ms: t.ann_index_ms } : {}),
        search_ms_mean: perQuery(t.search_ms),
      };
  return { ...lexical, ...dense };
}

/** Every query's ranking with `config` (LEDR's candidates from RM3 / Bo1 with --lexical), through the one ranking the page runs too. */
function rankRankings<F extends RankForm>(search: NodeSearch, config: RetrieverConfig, lexicalStage: RetrieverConfig, queries: readonly Query[], settings: RetrieverSettings, depth: number, form: F) {
  const lexical = lexicalStage.kind === 'ledr' ? ledrLexical(settings) : undefined;
  return rankBatch(search, config, queries, {
    form,
    depth,
    keepIdenticalIds: !settings.ignoreIdenticalIds,
    ...(lexical === undefined ? {} : { ledrLexical: lexical }),
  });
}

/** LEDR's lexical stage when it is RM3 or Bo1 (--lexical), as `rankBatch` takes it. */
export function ledrLexical(settings: RetrieverSettings): PrfRequest | undefined {
  return settings.lexical !== undefined && settings.lexical !== 'bm25' ? prfOf(settings.lexical, settings.prf) : undefined;
}

/** A run of every query with `config`: plain hits, as a run file holds them. */
export async function rankRun(search: NodeSearch, config: RetrieverConfig, queries: readonly Query[], settings: RetrieverSettings, depth: number): Promise<Run> {
  const rankings = await rankRankings(search, config, config, queries, settings, depth, 'hits');
  return new Map(queries.map((query, i) => [query.id, rankings[i] ?? []]));
}

/** Runs `settings.retriever` over `queries`; progress lines go to `progress` (stderr in the CLI). */
export async function retrieve(docs: readonly Doc[], queries: readonly Query[], settings: RetrieverSettings, progress: Progress): Promise<RetrievalResult> {
  if (settings.retriever === 'rerank') return rerankRetrieve(docs, queries, settings, progress);
  const augmenters = settings.augmenter === undefined ? undefined : new Map([[settings.augmenter.ref.key, settings.augmenter.model]]);
  const search = new NodeSearch(docs, {
    keepIdenticalIds: !settings.ignoreIdenticalIds,
    dtype: settings.dtype,
    progress,
    ...(augmenters === undefined ? {} : { augmenters }),
    ...(settings.vectors === undefined ? {} : { importedVectors: settings.vectors }),
  });
  try {
    const config = retrieverConfig(settings);
    if (config.kind === 'augmented') return await augmentedRetrieve(search, config, queries, settings);
    const run = await rankRun(search, config, queries, settings, settings.topK);
    return { run, timings: timingsOf(search, config, queries.length), description: describe(settings, config, search) };
  } finally {
    await search.dispose();
  }
}

/**
 * Augmented BM25's run with what the paper compares: terms per query, and the per-query latency of its
 * search against plain BM25's over the same queries and index (making the weighted bag is timed apart).
 */
async function augmentedRetrieve(search: NodeSearch, config: Extract<RetrieverConfig, { kind: 'augmented' }>, queries: readonly Query[], settings: RetrieverSettings): Promise<RetrievalResult> {
  await search.openLexical(config.bm25.analyzer);
  const rankings = await rankRankings(search, config, config, queries, settings, settings.topK, 'parts');
  const run: Run = new Map(queries.map((query, i) => [query.id, plainHits(rankings[i]?.hits ?? [])]));
  const terms = rankings.reduce((sum, ranking) => sum + (ranking?.kind === 'augmented' ? ranking.expanded.length : 0), 0);
  const timings = timingsOf(search, config, queries.length);
  const augmentMs = (search.timings.augment_ms ?? 0) / Math.max(1, queries.length);
  const before = search.timings.bm25_query_ms ?? 0;
  await rankRun(search, { kind: 'bm25', bm25: config.bm25 }, queries, settings, settings.topK);
  const bm25Ms = ((search.timings.bm25_query_ms ?? 0) - before) / Math.max(1, queries.length);
  const efficiency: AugmentedEfficiency = { terms_per_query: terms / Math.max(1, queries.length), query_ms_mean: timings.query_ms_mean!, augment_ms_mean: augmentMs, bm25_query_ms_mean: bm25Ms };
  return { run, timings: { ...timings, augment_ms_mean: augmentMs }, description: describe(settings, config, search), efficiency };
}

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/**
 * The first stage at depth `depth`, then its top `depth` per query re-ranked by the cross-encoder: the page's
 * Re-rank column, through the same ranking, the cross-encoder scoring in this process.
 */
async function rerankRetrieve(docs: readonly Doc[], queries: readonly Query[], settings: RetrieverSettings, progress: Progress): Promise<RetrievalResult> {
  const depth = settings.depth ?? 100;
  const firstStageName = settings.firstStage ?? 'bm25';
  const loadStart = performance.now();
  const crossEncoder = await loadNodeCrossEncoder(resolveNodeReranker(settings.model), { dtype: settings.dtype });
  const loadMs = performance.now() - loadStart;
  progress(`rerank: ${crossEncoder.spec.id} (${crossEncoder.dtype}, ${crossEncoder.maxLength} tokens per pair) loaded in ${loadMs.toFixed(0)} ms`);
  const docsById = new Map(docs.map((doc) => [doc.id, doc]));
  const textOf = (id: string) => {
    const doc = docsById.get(id);
    return doc === undefined ? undefined : rerankDocText(doc);
  };
  /** Milliseconds of re-ranking per query (tokenizing and scoring its pairs). */
  const msPerQuery: number[] = [];
  let reported = -1;
  const search = new NodeSearch(docs, {
    keepIdenticalIds: !settings.ignoreIdenticalIds,
    progress,
    rerank: async (_settings, query, docIds) => {
      const started = performance.now();
      const scores = await docScorerFor(crossEncoder, query.text, textOf, { batchSize: settings.rerankBatch })(docIds);
      msPerQuery.push(performance.now() - started);
      const step = Math.floor((msPerQuery.length * 10) / Math.max(1, queries.length));
      if (step !== reported) {
        reported = step;
        progress(`rerank: ${msPerQuery.length}/${queries.length} queries`);
      }
      return scores;
    },
  });
  try {
    const firstConfig = retrieverConfig(settings, firstStageName);
    if (firstConfig.kind === 'rerank') throw new Error('a re-ranker cannot be its own first stage');
    const config: RetrieverConfig = { kind: 'rerank', firstStage: firstConfig, depth, rerank: { model: crossEncoder.spec.id, dtype: crossEncoder.dtype, device: 'auto' } };
    const rankings = await rankRankings(search, config, firstConfig, queries, settings, settings.topK, 'parts');
    const run: Run = new Map();
    const firstStage: Run = new Map();
    let pairs = 0;
    queries.forEach((query, i) => {
      const ranking = rankings[i];
      run.set(query.id, ranking === undefined ? [] : plainHits(ranking.hits));
      const candidates = ranking?.kind === 'rerank' ? ranking.firstStage : [];
      firstStage.set(query.id, candidates);
      pairs += candidates.length;
    });
    const totalMs = msPerQuery.reduce((sum, ms) => sum + ms, 0);
    const sorted = [...msPerQuery].sort((a, b) => a - b);
    const prefix = (record: Record<string, string | number>) => Object.fromEntries(Object.entries(record).map(([k, v]) => [`first_stage_${k}`, v]));
    return {
      run,
      firstStage,
      timings: {
        ...(prefix(timingsOf(search, firstConfig, queries.length)) as Record<string, number>),
        rerank_model_load_ms: loadMs,
        rerank_ms_mean: totalMs / Math.max(1, queries.length),
        rerank_ms_p95: percentile(sorted, 95),
        rerank_pairs_per_s: pairs / (totalMs / 1000),
      },
      description: {
        first_stage: firstStageName,
        ...prefix(describe(settings, firstConfig, search)),
        depth,
        model: crossEncoder.spec.id,
        dtype: crossEncoder.dtype,
        max_length: crossEncoder.maxLength,
      },
    };
  } finally {
    await search.dispose();
    await crossEncoder.dispose();
  }
}
