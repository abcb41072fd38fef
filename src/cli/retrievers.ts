/**
 * The retrievers of the `eval` command, each producing a run over the same documents and queries with
 * the core's code: BM25 (Lucene-equal TypeScript reference), dense (transformers.js on onnxruntime-node),
 * and the fusions of the two (LEDR, RRF, convex combination).
 */
import type { Analyzer } from '../lib/analysis/analyzer.ts';
import { analyzeQuery, indexCorpus } from '../lib/bm25/bm25-corpus.ts';
import type { Bm25Index } from '../lib/bm25/bm25-index.ts';
import { bagOfTerms } from '../lib/bm25/bm25-query.ts';
import { searchBm25 } from '../lib/bm25/bm25-search.ts';
import type { Bm25Params } from '../lib/bm25/bm25-similarity.ts';
import type { EmbeddingDtype } from '../lib/dense/registry.ts';
import { convexCombination } from '../lib/fusion/convex.ts';
import { lexiconEnhancedDense } from '../lib/fusion/ledr.ts';
import type { Normalization } from '../lib/fusion/normalize.ts';
import { reciprocalRankFusion } from '../lib/fusion/rrf.ts';
import { searchBo1, TERRIER_BO1_PARAMS } from '../lib/prf/bo1.ts';
import { bm25FeedbackIndex } from '../lib/prf/feedback-index.ts';
import { ANSERINI_RM3_PARAMS, searchRm3 } from '../lib/prf/rm3.ts';
import type { Doc, Hit, Query, Run } from '../lib/types.ts';
import { loadAnalyzer, type CliAnalyzerName } from './analyzer.ts';
import { DEFAULT_DENSE_MODEL, denseRetrieve } from './dense.ts';
import { loadNodeCrossEncoder, rerankRun, resolveNodeReranker } from './rerank.ts';

export const RETRIEVERS = {
  bm25: 'BM25, Lucene 8.7 / Pyserini bm25-flat semantics',
  rm3: 'BM25 + RM3 pseudo-relevance feedback (Anserini Rm3Reranker; fbTerms 10, fbDocs 10, weight 0.5)',
  bo1: 'BM25 + Bo1 query expansion (Terrier/PyTerrier; 10 terms, 3 documents)',
  dense: 'dense embeddings (exact or HNSW search)',
  ledr: 'LaPraDoR LEDR: dense cosine × BM25 over the BM25 top K',
  rrf: 'reciprocal rank fusion of BM25 and dense',
  convex: 'alpha · BM25 + (1 − alpha) · dense over normalized scores',
  rerank: 'a cross-encoder re-ranks the first stage’s top depth (--first-stage, --depth, --model)',
} as const;

export type RetrieverName = keyof typeof RETRIEVERS;
/** Retrievers a re-ranker can follow. */
export type FirstStageName = Exclude<RetrieverName, 'rerank'>;
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
  /** LEDR's K: the BM25 candidates per query. */
  ledrK: number;
  /** LEDR: the lexical ranking whose top K the dense model scores (default bm25; rm3 and bo1 use `prf`). */
  lexical?: LexicalName;
  rrfK: number;
  alpha: number;
  normalization: Exclude<Normalization, 'none'>;
  /** RM3 / Bo1 settings; absent: the methods' defaults. */
  prf?: PrfSettings;
}

export interface RetrievalResult {
  run: Run;
  /** Milliseconds (and docs/s) by stage, snake_case keys as in the JSON output. */
  timings: Record<string, number>;
  /** The settings that shaped the run, for the report header. */
  description: Record<string, string | number>;
  /** rerank: the first stage's run (its recall@depth is the ceiling of the re-ranking). */
  firstStage?: Run;
}

type Progress = (message: string) => void;

interface Bm25Result {
  run: Run;
  timings: { index_ms: number; query_ms_mean: number };
}

async function buildIndex(docs: readonly Doc[], settings: RetrieverSettings, progress: Progress): Promise<{ analyzer: Analyzer; index: Bm25Index; indexMs: number }> {
  const analyzer = await loadAnalyzer(settings.analyzer);
  const indexStart = performance.now();
  const index = indexCorpus(docs, analyzer, {
    progressEvery: 5000,
    onProgress: (done, total) => progress(`bm25: indexed ${done}/${total} documents`),
  });
  return { analyzer, index, indexMs: performance.now() - indexStart };
}

async function bm25Run(docs: readonly Doc[], queries: readonly Query[], settings: RetrieverSettings, depth: number, progress: Progress): Promise<Bm25Result> {
  const { analyzer, index, indexMs } = await buildIndex(docs, settings, progress);
  const run: Run = new Map();
  const queryStart = performance.now();
  for (const query of queries) {
    run.set(query.id, searchBm25(index, analyzeQuery(query, analyzer), {
      k: depth,
      params: settings.bm25,
      ignoreIdenticalIds: settings.ignoreIdenticalIds,
    }));
  }
  const queryMs = (performance.now() - queryStart) / Math.max(1, queries.length);
  progress(`bm25: ${index.terms.length} terms; index ${indexMs.toFixed(0)} ms, ${queryMs.toFixed(3)} ms per query`);
  return { run, timings: { index_ms: indexMs, query_ms_mean: queryMs } };
}

/** BM25 then RM3 or Bo1, every query through the core's `searchRm3` / `searchBo1`. */
async function prfRun(docs: readonly Doc[], queries: readonly Query[], settings: RetrieverSettings, progress: Progress): Promise<RetrievalResult> {
  const { analyzer, index, indexMs } = await buildIndex(docs, settings, progress);
  const { retriever, topK } = settings;
  const prf = settings.prf ?? {};
  const run: Run = new Map();
  const queryStart = performance.now();
  for (const query of queries) {
    const feedbackIndex = bm25FeedbackIndex(index, { params: settings.bm25, ignoreIdenticalIds: settings.ignoreIdenticalIds, queryId: query.id });
    const bag = bagOfTerms(analyzer.analyze(query.text));
    const result =
      retriever === 'rm3'
        ? searchRm3(feedbackIndex, bag, { ...prf, k: topK })
        : searchBo1(feedbackIndex, bag, { fbTerms: prf.fbTerms, fbDocs: prf.fbDocs, k: topK });
    run.set(query.id, result.hits);
  }
  const queryMs = (performance.now() - queryStart) / Math.max(1, queries.length);
  progress(`${retriever}: index ${indexMs.toFixed(0)} ms, ${queryMs.toFixed(3)} ms per query (both passes)`);
  const defaults = retriever === 'rm3' ? ANSERINI_RM3_PARAMS : TERRIER_BO1_PARAMS;
  const description: Record<string, string | number> = {
    ...bm25Description(settings),
    fbTerms: prf.fbTerms ?? defaults.fbTerms,
    fbDocs: prf.fbDocs ?? defaults.fbDocs,
    ...(retriever === 'rm3' ? { originalQueryWeight: prf.originalQueryWeight ?? ANSERINI_RM3_PARAMS.originalQueryWeight } : {}),
  };
  return { run, timings: { index_ms: indexMs, query_ms_mean: queryMs }, description };
}

function withoutIdenticalIds(run: Run, enabled: boolean): Run {
  if (!enabled) return run;
  return new Map([...run].map(([qid, hits]) => [qid, hits.filter((hit) => hit.docId !== qid)]));
}

async function denseRun(docs: readonly Doc[], queries: readonly Query[], settings: RetrieverSettings, progress: Progress, candidates?: Map<string, string[]>) {
  let reported = '';
  const result = await denseRetrieve({
    docs,
    queries,
    model: settings.model,
    dtype: settings.dtype,
    // One more than needed, so that removing the query's own id still leaves topK hits.
    topK: settings.topK + 1,
    search: settings.search,
    candidates,
    onProgress: (stage, p) => {
      // About one line per thousand texts, and the last one.
      const step = p.done === p.total ? 'end' : String(Math.floor(p.done / 1000));
      if (`${stage}:${step}` === reported) return;
      reported = `${stage}:${step}`;
      const rate = p.docsPerSecond > 0 ? `, ${p.docsPerSecond.toFixed(0)}/s` : '';
      progress(`dense: embedded ${p.done}/${p.total} ${stage === 'corpus' ? 'documents' : 'queries'}${rate}`);
    },
  });
  const run = new Map([...withoutIdenticalIds(result.run, settings.ignoreIdenticalIds)].map(([qid, hits]) => [qid, hits.slice(0, settings.topK)]));
  const timings = {
    model_load_ms: result.timings.loadMs,
    embed_corpus_ms: result.timings.embedCorpusMs,
    embed_queries_ms: result.timings.embedQueriesMs,
    docs_per_s: result.info.docsPerSecond,
    ...(result.timings.indexMs > 0 ? { ann_index_ms: result.timings.indexMs } : {}),
    search_ms_mean: result.timings.searchMs / Math.max(1, queries.length),
  };
  const description = { model: result.info.model, dtype: result.info.dtype, device: result.info.device, search: result.info.search };
  return { run, timings, description };
}

function fuseRuns(queries: readonly Query[], fuse: (qid: string) => Hit[]): Run {
  return new Map(queries.map((query) => [query.id, fuse(query.id)]));
}

function bm25Description(settings: RetrieverSettings): Record<string, string | number> {
  return { k1: settings.bm25.k1, b: settings.bm25.b, analyzer: settings.analyzer };
}

/** Runs `settings.retriever` over `queries`; progress lines go to `progress` (stderr in the CLI). */
export async function retrieve(docs: readonly Doc[], queries: readonly Query[], settings: RetrieverSettings, progress: Progress): Promise<RetrievalResult> {
  const { retriever, topK } = settings;
  if (retriever === 'rerank') return rerankRetrieve(docs, queries, settings, progress);
  if (retriever === 'bm25') {
    const bm25 = await bm25Run(docs, queries, settings, topK, progress);
    return { ...bm25, description: bm25Description(settings) };
  }
  if (retriever === 'dense') return denseRun(docs, queries, settings, progress);
  if (retriever === 'rm3' || retriever === 'bo1') return prfRun(docs, queries, settings, progress);

  const bm25Depth = retriever === 'ledr' ? settings.ledrK : topK;
  const lexical = retriever === 'ledr' ? (settings.lexical ?? 'bm25') : 'bm25';
  const bm25 =
    lexical === 'bm25'
      ? { ...(await bm25Run(docs, queries, settings, bm25Depth, progress)), description: bm25Description(settings) }
      : await prfRun(docs, queries, { ...settings, retriever: lexical, topK: bm25Depth }, progress);
  const timings: Record<string, number> = { bm25_index_ms: bm25.timings.index_ms, bm25_query_ms_mean: bm25.timings.query_ms_mean };
  const emptyHits: Hit[] = [];
  if (retriever === 'ledr') {
    // LaPraDoR scores only each query's BM25 candidates with the dense model.
    const candidates = new Map([...bm25.run].map(([qid, hits]) => [qid, hits.map((hit) => hit.docId)]));
    const dense = await denseRun(docs, queries, { ...settings, topK: settings.ledrK }, progress, candidates);
    const run = fuseRuns(queries, (qid) => {
      const cosine = new Map((dense.run.get(qid) ?? emptyHits).map((hit) => [hit.docId, hit.score]));
      return lexiconEnhancedDense(bm25.run.get(qid) ?? emptyHits, cosine, { k: settings.ledrK, limit: topK });
    });
    const lexicalDescription = lexical === 'bm25' ? bm25.description : { lexical, ...bm25.description };
    return { run, timings: { ...timings, ...dense.timings }, description: { ...lexicalDescription, ...dense.description, K: settings.ledrK } };
  }

  const dense = await denseRun(docs, queries, settings, progress);
  const pair = (qid: string) => [bm25.run.get(qid) ?? emptyHits, dense.run.get(qid) ?? emptyHits] as const;
  const run =
    retriever === 'rrf'
      ? fuseRuns(queries, (qid) => reciprocalRankFusion(pair(qid), { k: settings.rrfK, limit: topK }))
      : fuseRuns(queries, (qid) => {
          const [a, b] = pair(qid);
          return convexCombination(a, b, { alpha: settings.alpha, normalization: settings.normalization, limit: topK });
        });
  const extra: Record<string, string | number> =
    retriever === 'rrf' ? { k: settings.rrfK } : { alpha: settings.alpha, normalization: settings.normalization };
  return { run, timings: { ...timings, ...dense.timings }, description: { ...bm25.description, ...dense.description, ...extra } };
}

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** The first stage at depth `depth`, then its top `depth` per query re-ranked by the cross-encoder. */
async function rerankRetrieve(docs: readonly Doc[], queries: readonly Query[], settings: RetrieverSettings, progress: Progress): Promise<RetrievalResult> {
  const depth = settings.depth ?? 100;
  const firstStage = settings.firstStage ?? 'bm25';
  const first = await retrieve(
    docs,
    queries,
    { ...settings, retriever: firstStage, topK: depth, model: settings.denseModel ?? DEFAULT_DENSE_MODEL, dtype: undefined },
    progress,
  );
  const loadStart = performance.now();
  const crossEncoder = await loadNodeCrossEncoder(resolveNodeReranker(settings.model), { dtype: settings.dtype });
  const loadMs = performance.now() - loadStart;
  progress(`rerank: ${crossEncoder.spec.id} (${crossEncoder.dtype}, ${crossEncoder.maxLength} tokens per pair) loaded in ${loadMs.toFixed(0)} ms`);
  try {
    let reported = -1;
    const started = performance.now();
    const { run, msPerQuery } = await rerankRun({
      docs,
      queries,
      firstStage: first.run,
      depth,
      crossEncoder,
      batchSize: settings.rerankBatch,
      onProgress: (done, total) => {
        const step = Math.floor((done * 10) / Math.max(1, total));
        if (step === reported) return;
        reported = step;
        progress(`rerank: ${done}/${total} queries`);
      },
    });
    const totalMs = performance.now() - started;
    const pairs = [...run.values()].reduce((n, hits) => n + hits.length, 0);
    const sorted = [...msPerQuery].sort((a, b) => a - b);
    const limited: Run = new Map([...run].map(([qid, hits]) => [qid, hits.slice(0, settings.topK).map(({ docId, score }) => ({ docId, score }))]));
    const prefixed = Object.fromEntries(Object.entries(first.timings).map(([k, v]) => [`first_stage_${k}`, v]));
    return {
      run: limited,
      firstStage: first.run,
      timings: {
        ...prefixed,
        rerank_model_load_ms: loadMs,
        rerank_ms_mean: totalMs / Math.max(1, queries.length),
        rerank_ms_p95: percentile(sorted, 95),
        rerank_pairs_per_s: pairs / (totalMs / 1000),
      },
      description: {
        first_stage: firstStage,
        ...Object.fromEntries(Object.entries(first.description).map(([k, v]) => [`first_stage_${k}`, v])),
        depth,
        model: crossEncoder.spec.id,
        dtype: crossEncoder.dtype,
        max_length: crossEncoder.maxLength,
      },
    };
  } finally {
    await crossEncoder.dispose();
  }
}
