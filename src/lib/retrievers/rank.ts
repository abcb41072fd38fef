/**
 * The one ranking of the project: a retriever's configuration (config.ts) applied to a batch of queries over
 * a small search interface. The page's engine (src/app/engine) implements that interface with its workers and
 * memo, the CLI (src/cli) with in-process indexes; both call `rankBatch`, so a column's run in the dashboard
 * and the CLI's run file are the same ranking, hit for hit. What differs between callers is only the form
 * of the answer (`RankForm`): with parts, plain hits, or rows of a worker's table.
 *
 * What the rules are, in one place:
 * - a blank query ranks nothing, whatever the retriever;
 * - a stored query (with an id) never gets its own id as a hit (BEIR `ignore_identical_ids`, Pyserini
 *   `--remove-query`): the BM25 search drops it itself, the dense search is asked one hit more and drops it
 *   here (unless `keepIdenticalIds`);
 * - RRF and convex fuse the BM25 and dense top max(depth, RUN_DEPTH); LEDR scores the BM25 top K only, and
 *   is fused here, whatever the form;
 * - a dense search gives no hits for a query vector of zeros (a static model that knows none of the words).
 */
import { convexCombination } from '../fusion/convex.ts';
import { ledrCandidateRows, ledrCandidates, lexiconEnhancedDense, lexiconEnhancedDenseHits, lexiconEnhancedDenseRows } from '../fusion/ledr.ts';
import { reciprocalRankFusion } from '../fusion/rrf.ts';
import { cutHits, withoutDoc } from '../hits/hit-rows.ts';
import type { Candidates } from '../hits/packed-hits.ts';
import { cutRows, filterRows, isRowRanking, type RankedList, type RowRanking } from '../hits/row-ranking.ts';
import type { PrfRequest } from '../prf/prf-request.ts';
import type { PrfResult } from '../prf/prf-result.ts';
import { rerank } from '../rerank/rerank.ts';
import type { Hit, Run } from '../types.ts';
import { preparedSettings, RUN_DEPTH, type AugmenterRef, type Bm25Settings, type DenseSettings, type RerankSettings, type RetrieverConfig } from './config.ts';
import { emptyRanking, plainHits, type ColumnRanking, type ExpandedTerm, type RankQuery } from './ranking.ts';

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
  /** The weighted bag a trained model makes of each query (absent: Augmented BM25 fails with a message). */
  augment?(augmenter: AugmenterRef, bm25: Bm25Settings, queries: readonly RankQuery[]): Promise<ExpandedTerm[][]>;
  /** An imported run (undefined: not held here). */
  importedRun?(runKey: string): Promise<Run | undefined>;
  /** The BM25 and dense searches answered as rows, where answers cross from workers packed (the `lists` form). */
  rows?: RowSearch;
}

/** BM25 and dense answers as rankings of rows (row-ranking.ts): same documents, scores and order as the hits. */
export interface RowSearch {
  bm25(settings: Bm25Settings, queries: readonly RankQuery[], k: number): Promise<RowRanking[]>;
  dense(settings: DenseSettings, texts: readonly string[], k: number): Promise<RowRanking[]>;
}

/**
 * The form of each query's ranking: `parts`, with what each fused score is made of (Explore, the CLI's
 * search); `hits`, plain hits (run files); `lists`, BM25, dense and LEDR rankings kept as rows where the
 * search answers as rows, plain hits otherwise (evaluations, which measure rows without hit objects).
 */
export type RankForm = 'parts' | 'hits' | 'lists';

/** What one query's ranking is in each form. */
export interface RankedForms {
  parts: ColumnRanking;
  hits: Hit[];
  lists: RankedList;
}

export interface RankBatchOptions<F extends RankForm = RankForm> {
  /** The form of the rankings (default `parts`). */
  form?: F;
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
function prfRequest(retriever: Extract<RetrieverConfig, { kind: 'rm3' | 'bo1' }>): PrfRequest {
  return retriever.kind === 'rm3'
    ? { method: 'rm3', fbTerms: retriever.fbTerms, fbDocs: retriever.fbDocs, originalQueryWeight: retriever.originalQueryWeight }
    : { method: 'bo1', fbTerms: retriever.fbTerms, fbDocs: retriever.fbDocs };
}

export function isBlank(text: string): boolean {
  return text.trim() === '';
}

/** Fails with a message when the search lacks an optional part (called as a method after, so `this` holds). */
function need(search: RankSearch, part: 'prf' | 'rerank' | 'importedRun' | 'augment', what: string): void {
  if (search[part] === undefined) throw new Error(`${what} is not available here`);
}

/** The id a dense ranking of `query` leaves out: its own (unless kept). */
function ownId(query: RankQuery, keepIdenticalIds: boolean): string | undefined {
  return keepIdenticalIds ? undefined : query.id;
}

/** The first `k` of a list without document `docId` (when given), rows or hits, keeping what is known of it. */
function withoutOwnId(list: RankedList, docId: string | undefined, k: number): RankedList {
  if (isRowRanking(list)) return cutRows(docId === undefined ? list : filterRows(list, (id) => id !== docId), k);
  const hits = list as Hit[];
  return docId === undefined ? cutHits(hits, k) : withoutDoc(hits, docId, k);
}

/** Dense top-k of non-blank queries without each query's own id (asked one more, so k remain): rows where `rows` is given. */
async function denseLists(search: RankSearch, rows: RowSearch | undefined, settings: DenseSettings, queries: readonly RankQuery[], k: number, keep: boolean): Promise<RankedList[]> {
  const texts = queries.map((query) => query.text);
  const depth = queries.some((query) => ownId(query, keep) !== undefined) ? k + 1 : k;
  const found: readonly RankedList[] = rows !== undefined ? await rows.dense(settings, texts, depth) : await search.dense(settings, texts, depth);
  return queries.map((query, i) => withoutOwnId(found[i] ?? [], ownId(query, keep), k));
}

/** The rankings of the non-blank queries (in order) spread back over all `queries`, `empty()` for each blank one. */
function overQueries<T, E>(queries: readonly RankQuery[], rankings: readonly T[], empty: () => E): Array<T | E | undefined> {
  let next = 0;
  return queries.map((query) => (isBlank(query.text) ? empty() : rankings[next++]));
}

/** LEDR's lexical rankings of each query, BM25's top K (rows where `rows` is given) or RM3's or Bo1's, cut to K and checked. */
async function ledrCandidateLists(
  search: RankSearch,
  rows: RowSearch | undefined,
  retriever: Extract<RetrieverConfig, { kind: 'ledr' }>,
  asked: readonly RankQuery[],
  options: RankBatchOptions,
): Promise<RankedList[]> {
  const k = { k: retriever.k };
  if (options.ledrLexical !== undefined) {
    need(search, 'prf', 'RM3 / Bo1');
    return (await search.prf!(retriever.bm25, options.ledrLexical, asked, retriever.k)).map((result) => ledrCandidates(result.hits, k));
  }
  if (rows !== undefined) return (await rows.bm25(retriever.bm25, asked, retriever.k)).map((list) => ledrCandidateRows(list, k));
  return (await search.bm25(retriever.bm25, asked, retriever.k)).map((hits) => ledrCandidates(hits, k));
}

/**
 * LEDR's rankings of non-blank queries: the candidates' dense similarities, asked of the search in the
 * candidates' order, times their BM25 scores. Rows stay rows; hits get their parts when `parts` asks.
 */
async function ledrLists(
  search: RankSearch,
  rows: RowSearch | undefined,
  retriever: Extract<RetrieverConfig, { kind: 'ledr' }>,
  asked: readonly RankQuery[],
  options: RankBatchOptions,
  parts: boolean,
): Promise<Array<ColumnRanking | RankedList>> {
  const candidates = await ledrCandidateLists(search, rows, retriever, asked, options);
  const scores = await search.denseScores(
    preparedSettings(retriever).dense!,
    asked.map((query) => query.text),
    candidates,
  );
  const fusion = { k: retriever.k, limit: options.depth ?? RUN_DEPTH };
  return candidates.map((list, i) => {
    const dense = scores[i] ?? [];
    if (isRowRanking(list)) {
      return { table: list.table, ...lexiconEnhancedDenseRows(list.rows, list.scores, dense, list.table, fusion.limit) };
    }
    const hits = list as Hit[];
    return parts ? { kind: 'ledr', hits: lexiconEnhancedDense(hits, dense, fusion) } : lexiconEnhancedDenseHits(hits, dense, fusion);
  });
}

/**
 * Augmented BM25: the model's weighted bag of each query, ranked by the BM25 search as any weighted query
 * (rows where `rows` is given); with parts, each ranking keeps its bag.
 */
async function augmentedLists(
  search: RankSearch,
  rows: RowSearch | undefined,
  retriever: Extract<RetrieverConfig, { kind: 'augmented' }>,
  asked: readonly RankQuery[],
  depth: number,
): Promise<Array<ColumnRanking | RankedList>> {
  need(search, 'augment', 'a query-augmentation model');
  const expanded = await search.augment!(retriever.augmenter, retriever.bm25, asked);
  const weighted = asked.map((query, i): RankQuery => ({ ...query, weighted: (expanded[i] ?? []).map(({ term, weight }) => ({ term, weight })) }));
  if (rows !== undefined) return rows.bm25(retriever.bm25, weighted, depth);
  const found = await search.bm25(retriever.bm25, weighted, depth);
  return found.map((hits, i): ColumnRanking => ({ kind: 'augmented', hits, expanded: expanded[i] ?? [] }));
}

/** Kinds whose rankings are plain hits already (no copy needed). */
const PLAIN_KINDS: ReadonlySet<RetrieverConfig['kind']> = new Set(['bm25', 'dense', 'run', 'augmented']);

/** A ranking in the form asked: a ranking with parts as it is or as plain hits; a list (rows, or hits made without parts) as it is. */
function inForm<F extends RankForm>(form: F, ranking: ColumnRanking | RankedList): RankedForms[F] {
  // Each branch returns what RankedForms[form] is; TypeScript does not narrow F from `form`.
  if (isRankedList(ranking)) return ranking as RankedForms[F];
  if (form === 'parts') return ranking as RankedForms[F];
  return (PLAIN_KINDS.has(ranking.kind) ? ranking.hits : plainHits(ranking.hits)) as RankedForms[F];
}

/** A list (hits or rows) rather than a ranking with parts: only the latter has a kind. */
function isRankedList(ranking: ColumnRanking | RankedList): ranking is RankedList {
  return !('kind' in ranking);
}

/** An empty ranking in the form asked. */
function emptyInForm<F extends RankForm>(form: F, retriever: RetrieverConfig): RankedForms[F] {
  return inForm(form, form === 'parts' ? emptyRanking(retriever) : []);
}

/** Each imported-run ranking of `queries` (undefined: the run lacks the query, or typed text), cut to `depth`. */
async function runRankings(search: RankSearch, retriever: Extract<RetrieverConfig, { kind: 'run' }>, queries: readonly RankQuery[], depth: number): Promise<Array<ColumnRanking | undefined>> {
  need(search, 'importedRun', 'an imported run');
  const run = await search.importedRun!(retriever.runKey);
  if (run === undefined) throw new Error(`The run "${retriever.name}" is not stored here for this collection.`);
  return queries.map((query) => {
    const hits = query.id === undefined ? undefined : run.get(query.id);
    return hits === undefined ? undefined : { kind: 'run', hits: hits.slice(0, depth) };
  });
}

/** The rankings of the non-blank queries `asked` (every kind but `run` and `rerank`), in the form asked. */
async function rankAsked(
  search: RankSearch,
  retriever: Exclude<RetrieverConfig, { kind: 'run' | 'rerank' }>,
  asked: readonly RankQuery[],
  options: RankBatchOptions,
  form: RankForm,
): Promise<Array<ColumnRanking | RankedList>> {
  const depth = options.depth ?? RUN_DEPTH;
  const keep = options.keepIdenticalIds ?? false;
  const rows = form === 'lists' ? search.rows : undefined;
  switch (retriever.kind) {
    case 'bm25': {
      const found: readonly RankedList[] = rows !== undefined ? await rows.bm25(retriever.bm25, asked, depth) : await search.bm25(retriever.bm25, asked, depth);
      return found.map((list) => (isRowRanking(list) ? list : { kind: 'bm25', hits: list as Hit[] }));
    }
    case 'dense':
      return (await denseLists(search, rows, retriever.dense, asked, depth, keep)).map((list) => (isRowRanking(list) ? list : { kind: 'dense', hits: list as Hit[] }));
    case 'ledr':
      return ledrLists(search, rows, retriever, asked, options, form === 'parts');
    case 'rrf':
    case 'convex': {
      const inputs = Math.max(depth, RUN_DEPTH);
      const [lexical, semantic] = await Promise.all([search.bm25(retriever.bm25, asked, inputs), denseLists(search, undefined, retriever.dense, asked, inputs, keep)]);
      return lexical.map((hits, i): ColumnRanking => {
        const other = (semantic[i] ?? []) as Hit[];
        return retriever.kind === 'rrf'
          ? { kind: 'rrf', hits: reciprocalRankFusion([hits, other], { k: retriever.k, limit: depth }) }
          : { kind: 'convex', hits: convexCombination(hits, other, { alpha: retriever.alpha, normalization: retriever.normalization, limit: depth }) };
      });
    }
    case 'augmented':
      return augmentedLists(search, rows, retriever, asked, depth);
    case 'rm3':
    case 'bo1': {
      need(search, 'prf', 'RM3 / Bo1');
      const results = await search.prf!(retriever.bm25, prfRequest(retriever), asked, depth);
      return results.map((result): ColumnRanking => ({ kind: retriever.kind, hits: cutHits(result.hits, depth), expanded: result.expanded, feedbackDocIds: result.feedbackDocIds }));
    }
  }
}

/** A Re-rank column's rankings: its first stage's top `depth`, ordered by the cross-encoder, one query at a time. */
async function rerankRankings(
  search: RankSearch,
  retriever: Extract<RetrieverConfig, { kind: 'rerank' }>,
  queries: readonly RankQuery[],
  options: RankBatchOptions,
): Promise<Array<ColumnRanking | undefined>> {
  need(search, 'rerank', 'a cross-encoder');
  const depth = options.depth ?? RUN_DEPTH;
  const firstStage = await rankBatch(search, retriever.firstStage, queries, { ...options, form: 'parts', depth: retriever.depth });
  const rankings: Array<ColumnRanking | undefined> = [];
  for (const [i, query] of queries.entries()) {
    options.signal?.throwIfAborted();
    const first = firstStage[i];
    if (first === undefined) {
      rankings.push(undefined);
      continue;
    }
    const candidates = plainHits(first.hits.slice(0, retriever.depth));
    const hits = isBlank(query.text) ? [] : await rerank(candidates, retriever.depth, (docIds) => search.rerank!(retriever.rerank, query, docIds));
    rankings.push({ kind: 'rerank', hits: cutHits(hits, depth), firstStage: candidates, depth: retriever.depth });
  }
  return rankings;
}

/**
 * Ranks `queries` with `retriever`, each ranking in the form `options.form` asks (default `parts`: with the
 * fusion formulas, RM3's expanded query, a re-ranking's first-stage ranks). The result is aligned with
 * `queries`; undefined is an imported run without that query. Blank queries get empty rankings.
 */
export async function rankBatch<F extends RankForm = 'parts'>(
  search: RankSearch,
  retriever: RetrieverConfig,
  queries: readonly RankQuery[],
  options: RankBatchOptions<F> = {},
): Promise<Array<RankedForms[F] | undefined>> {
  const form = (options.form ?? 'parts') as F;
  const present = (ranking: ColumnRanking | RankedList | undefined) => (ranking === undefined ? undefined : inForm(form, ranking));
  if (retriever.kind === 'run') return (await runRankings(search, retriever, queries, options.depth ?? RUN_DEPTH)).map(present);
  if (queries.every((query) => isBlank(query.text))) return queries.map(() => emptyInForm(form, retriever));
  if (retriever.kind === 'rerank') return (await rerankRankings(search, retriever, queries, options)).map(present);
  // Searches skip blank queries; their rankings are filled in empty.
  const asked = queries.filter((query) => !isBlank(query.text));
  const rankings = asked.length === 0 ? [] : await rankAsked(search, retriever, asked, options, form);
  return overQueries(queries, rankings.map(present), () => emptyInForm(form, retriever));
}
