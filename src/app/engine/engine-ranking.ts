/**
 * Ranking for the page: one query now (Explore, with the parts of every fused score and a note when the
 * ranking is empty) or every query of a split in chunks (Evaluate, rows or plain hits). Both go through
 * `rankBatch` (src/lib/retrievers/rank.ts), the ranking the CLI runs too, over the memo's searches
 * (ranking-memo.ts); only the form of the answer differs.
 */
import { RUN_DEPTH, type RetrieverConfig } from '../../lib/retrievers/config.ts';
import { isBlank, rankBatch } from '../../lib/retrievers/rank.ts';
import type { ColumnRanking, ExpandedTerm } from '../../lib/retrievers/ranking.ts';
import type { RankedList } from '../../lib/hits/row-ranking.ts';
import type { RankQuery } from '../../lib/retrievers/ranking.ts';
import { emptyRanking, type RankResult } from './column-ranking.ts';
import type { RankingMemo, ScoreHooks } from './ranking-memo.ts';

/** Why a ranking of this kind is empty, in words for the person reading the column. */
function emptyNote(retriever: RetrieverConfig): string | undefined {
  switch (retriever.kind) {
    case 'bm25':
      return 'No document shares a term with the query.';
    case 'dense':
      // The dense worker ranks nothing for a zero query vector (a static model that knows none of the words).
      return 'The model knows none of the query’s words (its vector is zero), so it ranks nothing.';
    case 'ledr':
      return 'BM25 finds no candidate, so LEDR ranks nothing (its score is cosine × BM25).';
    case 'rm3':
    case 'bo1':
      return 'No document shares a term with the query, so there is no feedback either.';
    case 'rerank': {
      const first = emptyNote(retriever.firstStage);
      return first === undefined ? undefined : `First stage: ${first}`;
    }
    default:
      return undefined;
  }
}

/** Why an imported run ranks nothing for `query` (undefined: it has a ranking for it). */
async function runNote(memo: RankingMemo, collectionId: string, retriever: Extract<RetrieverConfig, { kind: 'run' }>, query: RankQuery): Promise<string | undefined> {
  const run = await memo.loadRun(collectionId, retriever.runKey);
  if (run === undefined) return `The run "${retriever.name}" is not stored in this browser for this collection: import the file again.`;
  if (query.id === undefined) return 'An imported run only ranks the queries it contains, not typed text.';
  if (!run.has(query.id)) return `The run "${retriever.name}" has no ranking for query ${query.id}.`;
  return undefined;
}

/** One query's ranking with its parts, and a note when it is empty. */
export async function rankOne(
  memo: RankingMemo,
  collectionId: string,
  retriever: RetrieverConfig,
  query: RankQuery,
  depth: number,
  hooks: ScoreHooks = {},
): Promise<Omit<RankResult, 'ms'>> {
  if (retriever.kind === 'run') {
    const note = await runNote(memo, collectionId, retriever, query);
    if (note !== undefined) return { ranking: emptyRanking(retriever), note };
  } else if (isBlank(query.text)) return { ranking: emptyRanking(retriever), note: 'Type a query or pick one.' };
  if (retriever.kind === 'rerank' && retriever.firstStage.kind === 'run') {
    // An imported first stage without this query: nothing to re-rank, and the run's note says why.
    const note = await runNote(memo, collectionId, retriever.firstStage, query);
    if (note !== undefined) return { ranking: emptyRanking(retriever), note: `First stage: ${note}` };
  }
  const [ranking] = await rankBatch(memo.forQuery(collectionId, hooks), retriever, [query], { depth, signal: hooks.signal });
  const result: ColumnRanking = ranking ?? emptyRanking(retriever);
  const note = result.hits.length === 0 ? emptyNote(retriever) : undefined;
  return { ranking: result, ...(note === undefined ? {} : { note }) };
}

/** One chunk's rankings as rows or plain hits (undefined: an imported run without this query). */
export async function rankChunk(
  memo: RankingMemo,
  collectionId: string,
  retriever: RetrieverConfig,
  queries: readonly (RankQuery & { id: string })[],
  depth: number = RUN_DEPTH,
  signal?: AbortSignal,
  onExpanded?: (bags: readonly ExpandedTerm[][]) => void,
): Promise<Array<RankedList | undefined>> {
  if (retriever.kind === 'run') {
    const run = await memo.loadRun(collectionId, retriever.runKey);
    if (run === undefined) throw new Error(`The run "${retriever.name}" is not stored in this browser for this collection.`);
  }
  return rankBatch(memo.forBatch(collectionId, signal, onExpanded), retriever, queries, { form: 'lists', depth, signal });
}
