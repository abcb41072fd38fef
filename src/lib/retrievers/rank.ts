/**
 * The one ranking of the project: a retriever's configuration (config.ts) applied to a batch of queries over
 * a small search interface. The page's engine (src/app/engine) implements that interface with its workers and
 * memo, the CLI (src/cli) with in-process indexes; both call `rankBatch`, so a column's run in the dashboard
 * and the CLI's run file are the same ranking, hit for hit.
 *
 * What the rules are, in one place:
 * - a blank query ranks nothing, whatever the retriever;
 * - a stored query (with an id) never gets its own id as a hit (BEIR `ignore_identical_ids`, Pyserini
 *   `--remove-query`): the BM25 search drops it itself, the dense search is asked one hit more and drops it
 *   here (unless `keepIdenticalIds`);
 * - RRF and convex fuse the BM25 and dense top max(depth, RUN_DEPTH); LEDR scores the BM25 top K only;
 * - a dense search gives no hits for a query vector of zeros (a static model that knows none of the words).
 */
import type { PrfRequest } from '../prf/prf-request.ts';
import { convexCombination } from '../fusion/convex.ts';
import { ledrCandidateRows, lexiconEnhancedDense, lexiconEnhancedDenseHits } from '../fusion/ledr.ts';
import { cutRows, filterRows, type RankedList, type RowRanking } from '../hits/row-ranking.ts';
import { reciprocalRankFusion } from '../fusion/rrf.ts';
import type { PrfResult } from '../prf/prf-result.ts';
import { rerank } from '../rerank/rerank.ts';
import type { Hit, Run } from '../types.ts';
import type { Candidates } from '../hits/packed-hits.ts';
import { preparedSettings, RUN_DEPTH, type Bm25Settings, type DenseSettings, type RerankSettings, type RetrieverConfig } from './config.ts';
import { cutHits, withoutDoc } from '../hits/hit-rows.ts';
import { emptyRanking, plainHits, type ColumnRanking, type RankQuery } from './ranking.ts';

/** What ranking needs from the indexes and models; every list is aligned with the queries or texts given. */
export interface RankSearch {
  /** BM25 top-k of each query (its `weighted` bag, when given, instead of its text); drops a hit equal to the query id. */
  bm25(settings: Bm25Settings, queries: readonly RankQuery[], k: number): Promise<Hit[][]>;
  /**
   * Dense top-k of each text by the model's similarity, exact or HNSW as `settings.search` says (HNSW returns
   * at most efSearch hits); no hits for a blank text or a zero query vector.
   */
  dense(settings: DenseSettings, texts: readonly string[], k: number): Promise<Hit[][]>;
  /** The model's similarity of each text to each of its candidates (NaN for a document without a vector). */
  denseScores(settings: DenseSettings, texts: readonly string[], candidates: Candidates): Promise<ArrayLike<number>[]>;
  /** RM3 or Bo1 of each query, its second pass's top k (absent: such retrievers fail with a message). */
  prf?(settings: Bm25Settings, request: PrfRequest, queries: readonly RankQuery[], k: number): Promise<PrfResult[]>;
  /** A cross-encoder's scores of (query text, document), aligned with `docIds`. */
  rerank?(settings: RerankSettings, query: RankQuery, docIds: readonly string[]): Promise<ArrayLike<number>>;
  /** An imported run (undefined: not held here). */
  importedRun?(runKey: string): Promise<Run | undefined>;
  /** The searches above answered as rows, where answers cross from workers packed (rankBatchLists). */
  rows?: RowSearch;
}

/** BM25, dense and LEDR answers as rankings of rows (row-ranking.ts): same documents, scores and order as the hits. */
export interface RowSearch {
  bm25(settings: Bm25Settings, queries: readonly RankQuery[], k: number): Promise<RowRanking[]>;
  dense(settings: DenseSettings, texts: readonly string[], k: number): Promise<RowRanking[]>;
  /**
   * LEDR's first `limit` fused rows of each text from its candidates (BM25's top K, distinct): what
   * lexiconEnhancedDenseHits makes of them and their `denseScores`, made where the vectors are (absent:
   * fused on the page, as hits).
   */
  ledr?(settings: DenseSettings, texts: readonly string[], candidates: readonly RowRanking[], limit: number): Promise<RowRanking[]>;
}

export interface RankBatchOptions {
  /** Hits per query (default RUN_DEPTH). */
  depth?: number;
  /** Leave a document whose id equals the query id in the dense ranking (the CLI's --keep-identical-ids). */
  keepIdenticalIds?: boolean;
  /** LEDR's candidates from RM3 or Bo1 instead of BM25 (the CLI's --lexical). */
  ledrLexical?: PrfRequest;
  /** Checked between queries of a re-ranking. */
  signal?: AbortSignal;
}

/** What RM3 or Bo1 is asked to do, from a retriever's settings. */
export function prfRequest(retriever: Extract<RetrieverConfig, { kind: 'rm3' | 'bo1' }>): PrfRequest {
  return retriever.kind === 'rm3'
    ? { method: 'rm3', fbTerms: retriever.fbTerms, fbDocs: retriever.fbDocs, originalQueryWeight: retriever.originalQueryWeight }
    : { method: 'bo1', fbTerms: retriever.fbTerms, fbDocs: retriever.fbDocs };
}

export function isBlank(text: string): boolean {
  return text.trim() === '';
}

/** Fails with a message when the search lacks an optional part (called as a method after, so `this` holds). */
function need(search: RankSearch, part: 'prf' | 'rerank' | 'importedRun', what: string): void {
  if (search[part] === undefined) throw new Error(`${what} is not available here`);
}

/** The id a dense ranking of `query` leaves out: its own (unless kept). */
function ownId(query: RankQuery, keepIdenticalIds: boolean): string | undefined {
  return keepIdenticalIds ? undefined : query.id;
}

/** Hits a dense search is asked for: one more than k when a query's own id may take a place. */
function denseDepth(queries: readonly RankQuery[], k: number, keepIdenticalIds: boolean): number {
  return queries.some((query) => ownId(query, keepIdenticalIds) !== undefined) ? k + 1 : k;
}

/** `denseRanking` as rows, for non-blank queries. */
async function denseRows(rows: RowSearch, settings: DenseSettings, queries: readonly RankQuery[], k: number, keepIdenticalIds: boolean): Promise<RowRanking[]> {
  const found = await rows.dense(settings, queries.map((query) => query.text), denseDepth(queries, k, keepIdenticalIds));
  return queries.map((query, i) => {
    const id = ownId(query, keepIdenticalIds);
    const list = found[i]!;
    return cutRows(id === undefined ? list : filterRows(list, (docId) => docId !== id), k);
  });
}

/** Dense top-k without the query's own id (asked one more so k remain) and nothing for blank texts. */
export async function denseRanking(search: RankSearch, settings: DenseSettings, queries: readonly RankQuery[], k: number, keepIdenticalIds = false): Promise<Hit[][]> {
  const dropId = (query: RankQuery) => ownId(query, keepIdenticalIds);
  const found = await search.dense(settings, queries.map((query) => query.text), denseDepth(queries, k, keepIdenticalIds));
  return queries.map((query, i) => {
    if (isBlank(query.text)) return [];
    const id = dropId(query);
    const hits = found[i] ?? [];
    return id === undefined ? cutHits(hits, k) : withoutDoc(hits, id, k);
  });
}

/** The rankings of the non-blank queries (in order) spread back over all `queries`, `empty()` for each blank one. */
function overQueries<T, E>(queries: readonly RankQuery[], rankings: readonly T[], empty: () => E): Array<T | E | undefined> {
  let next = 0;
  return queries.map((query) => (isBlank(query.text) ? empty() : rankings[next++]));
}

/** LEDR's lexical rankings of each query: BM25's top K, or RM3's or Bo1's. */
async function ledrLexical(
  search: RankSearch,
  retriever: Extract<RetrieverConfig, { kind: 'ledr' }>,
  asked: readonly RankQuery[],
  options: RankBatchOptions,
): Promise<Hit[][]> {
  if (options.ledrLexical) need(search, 'prf', 'RM3 / Bo1');
  return options.ledrLexical
    ? (await search.prf!(retriever.bm25, options.ledrLexical, asked, retriever.k)).map((result) => result.hits)
    : await search.bm25(retriever.bm25, asked, retriever.k);
}

/** LEDR's candidates and their dense similarities, in the candidates' order. */
async function ledrInputs(
  search: RankSearch,
  retriever: Extract<RetrieverConfig, { kind: 'ledr' }>,
  asked: readonly RankQuery[],
  options: RankBatchOptions,
): Promise<{ candidates: Hit[][]; scores: ArrayLike<number>[] }> {
  const candidates = await ledrLexical(search, retriever, asked, options);
  const scores = await search.denseScores(
    preparedSettings(retriever).dense!,
    asked.map((query) => query.text),
    candidates,
  );
  return { candidates, scores };
}

/**
 * Ranks `queries` with `retriever`, each ranking with its parts (fusion formulas, RM3's expanded query, a
 * re-ranking's first-stage ranks). The result is aligned with `queries`; undefined is an imported run without
 * that query. Blank queries get empty rankings.
 */
export async function rankBatch(
  search: RankSearch,
  retriever: RetrieverConfig,
  queries: readonly RankQuery[],
  options: RankBatchOptions = {},
): Promise<Array<ColumnRanking | undefined>> {
  const depth = options.depth ?? RUN_DEPTH;
  const keep = options.keepIdenticalIds ?? false;
  const blank = queries.map((query) => isBlank(query.text));
  // Searches skip blank queries; their rankings are filled in empty at the end.
  const asked = queries.filter((_, i) => !blank[i]);
  const spread = <T>(rankings: readonly T[]) => overQueries(queries, rankings, () => emptyRanking(retriever));
  if (asked.length === 0 && retriever.kind !== 'run') return queries.map(() => emptyRanking(retriever));
  switch (retriever.kind) {
    case 'run': {
      need(search, 'importedRun', 'an imported run');
      const run = await search.importedRun!(retriever.runKey);
      if (run === undefined) throw new Error(`The run "${retriever.name}" is not stored here for this collection.`);
      return queries.map((query) => {
        const hits = query.id === undefined ? undefined : run.get(query.id);
        return hits === undefined ? undefined : { kind: 'run', hits: hits.slice(0, depth) };
      });
    }
    case 'bm25': {
      const found = await search.bm25(retriever.bm25, asked, depth);
      return spread(found.map((hits): ColumnRanking => ({ kind: 'bm25', hits })));
    }
    case 'dense': {
      const found = await denseRanking(search, retriever.dense, asked, depth, keep);
      return spread(found.map((hits): ColumnRanking => ({ kind: 'dense', hits })));
    }
    case 'ledr': {
      const { candidates, scores } = await ledrInputs(search, retriever, asked, options);
      // The scores are the candidates' in their order: no lookup by id.
      return spread(candidates.map((hits, i): ColumnRanking => ({ kind: 'ledr', hits: lexiconEnhancedDense(hits, scores[i] ?? [], { k: retriever.k, limit: depth }) })));
    }
    case 'rrf':
    case 'convex': {
      const inputs = Math.max(depth, RUN_DEPTH);
      const [lexical, semantic] = await Promise.all([
        search.bm25(retriever.bm25, asked, inputs),
        denseRanking(search, retriever.dense, asked, inputs, keep),
      ]);
      return spread(
        lexical.map((hits, i): ColumnRanking => {
          const other = semantic[i] ?? [];
          return retriever.kind === 'rrf'
            ? { kind: 'rrf', hits: reciprocalRankFusion([hits, other], { k: retriever.k, limit: depth }) }
            : { kind: 'convex', hits: convexCombination(hits, other, { alpha: retriever.alpha, normalization: retriever.normalization, limit: depth }) };
        }),
      );
    }
    case 'rm3':
    case 'bo1': {
      need(search, 'prf', 'RM3 / Bo1');
      const results = await search.prf!(retriever.bm25, prfRequest(retriever), asked, depth);
      return spread(
        results.map((result): ColumnRanking => ({ kind: retriever.kind, hits: cutHits(result.hits, depth), expanded: result.expanded, feedbackDocIds: result.feedbackDocIds })),
      );
    }
    case 'rerank': {
      need(search, 'rerank', 'a cross-encoder');
      const firstStage = await rankBatch(search, retriever.firstStage, queries, { ...options, depth: retriever.depth });
      const rankings: Array<ColumnRanking | undefined> = [];
      for (const [i, query] of queries.entries()) {
        options.signal?.throwIfAborted();
        const first = firstStage[i];
        if (first === undefined) {
          rankings.push(undefined);
          continue;
        }
        const candidates = plainHits(first.hits.slice(0, retriever.depth));
        const hits = blank[i] ? [] : await rerank(candidates, retriever.depth, (docIds) => search.rerank!(retriever.rerank, query, docIds));
        rankings.push({ kind: 'rerank', hits: cutHits(hits, depth), firstStage: candidates, depth: retriever.depth });
      }
      return rankings;
    }
  }
}

/** Kinds whose rankings are plain hits already (no copy needed). */
const PLAIN_KINDS: ReadonlySet<RetrieverConfig['kind']> = new Set(['bm25', 'dense']);

/**
 * `rankBatch` as plain hits (a run's rankings, without parts): what evaluations and run files hold. LEDR's
 * hits are fused without their parts here (lexiconEnhancedDenseHits: same hits, same order).
 */
export async function rankBatchHits(
  search: RankSearch,
  retriever: RetrieverConfig,
  queries: readonly RankQuery[],
  options: RankBatchOptions = {},
): Promise<Array<Hit[] | undefined>> {
  if (retriever.kind === 'ledr') {
    const asked = queries.filter((query) => !isBlank(query.text));
    const { candidates, scores } = asked.length === 0 ? { candidates: [], scores: [] } : await ledrInputs(search, retriever, asked, options);
    const fused = candidates.map((hits, i) => lexiconEnhancedDenseHits(hits, scores[i] ?? [], { k: retriever.k, limit: options.depth ?? RUN_DEPTH }));
    return overQueries(queries, fused, (): Hit[] => []);
  }
  const rankings = await rankBatch(search, retriever, queries, options);
  return rankings.map((ranking) => (ranking === undefined ? undefined : PLAIN_KINDS.has(ranking.kind) ? ranking.hits : plainHits(ranking.hits)));
}

/**
 * `rankBatchHits` as an evaluation keeps it: where the search answers as rows (the page's workers), BM25,
 * dense and LEDR rankings stay rows (row-ranking.ts), the same documents, scores and order as the hits;
 * every other kind, and LEDR over RM3 or Bo1, is hits.
 */
export async function rankBatchLists(
  search: RankSearch,
  retriever: RetrieverConfig,
  queries: readonly RankQuery[],
  options: RankBatchOptions = {},
): Promise<Array<RankedList | undefined>> {
  const rows = search.rows;
  const asked = queries.filter((query) => !isBlank(query.text));
  if (rows === undefined || asked.length === 0) return rankBatchHits(search, retriever, queries, options);
  const depth = options.depth ?? RUN_DEPTH;
  const spread = (rankings: readonly RowRanking[]) => overQueries(queries, rankings, (): RankedList => []);
  switch (retriever.kind) {
    case 'bm25':
      return spread(await rows.bm25(retriever.bm25, asked, depth));
    case 'dense':
      return spread(await denseRows(rows, retriever.dense, asked, depth, options.keepIdenticalIds ?? false));
    case 'ledr': {
      if (rows.ledr === undefined || options.ledrLexical !== undefined) break;
      const candidates = (await rows.bm25(retriever.bm25, asked, retriever.k)).map((list) => ledrCandidateRows(list, { k: retriever.k }));
      return spread(await rows.ledr(preparedSettings(retriever).dense!, asked.map((query) => query.text), candidates, depth));
    }
  }
  return rankBatchHits(search, retriever, queries, options);
}
