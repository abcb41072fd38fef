/**
 * The documents of a judging session, from what Explore's columns ranked (lib/judging/pool.ts does the
 * pooling and the shuffle): the union of every column's top k for the query, once each column has ranked
 * exactly this query; or the documents a person picked, shuffled the same way.
 */
import { poolDocuments } from '../../../lib/judging/pool.ts';
import type { RankQuery } from '../../../lib/retrievers/ranking.ts';
import type { Hit, Query } from '../../../lib/types.ts';

/** What the pool needs of a column: its state and the ranking it shows, with the query that ranking is of. */
export interface PoolColumn {
  status: 'idle' | 'preparing' | 'ranking' | 'ready' | 'error';
  hits: readonly Hit[] | undefined;
  rankedQuery: RankQuery | null;
}

export interface SessionPool {
  /** Pooled document ids in the shuffled order (empty while columns are still ranking). */
  pool: string[];
  /** Columns that have not ranked this query yet. */
  waiting: number;
  /** Columns that failed (left out of the pool). */
  failed: number;
  /** Columns whose rankings make the pool. */
  pooled: number;
}

export function sessionPool(
  collectionId: string,
  query: Pick<Query, 'id' | 'text'>,
  depth: number,
  columns: readonly PoolColumn[],
  docIds: readonly string[] | undefined,
): SessionPool {
  if (docIds !== undefined) {
    return { pool: poolDocuments([docIds], { collection: collectionId, queryId: query.id, depth: docIds.length }), waiting: 0, failed: 0, pooled: 0 };
  }
  const rankings: string[][] = [];
  let waiting = 0;
  let failed = 0;
  for (const column of columns) {
    if (column.status === 'error') {
      failed += 1;
      continue;
    }
    const ranked = column.rankedQuery;
    if (column.status !== 'ready' || column.hits === undefined || ranked === null || ranked.id !== query.id || ranked.text !== query.text) {
      waiting += 1;
      continue;
    }
    rankings.push(column.hits.map((hit) => hit.docId));
  }
  const pool = waiting > 0 ? [] : poolDocuments(rankings, { collection: collectionId, queryId: query.id, depth });
  return { pool, waiting, failed, pooled: rankings.length };
}

/** The index of the next document without a judgment after `from` (wrapping around), or -1 when all are judged. */
export function nextUnjudged(pool: readonly string[], judged: (docId: string) => boolean, from: number): number {
  for (let step = 1; step <= pool.length; step++) {
    const index = (from + step) % pool.length;
    if (!judged(pool[index]!)) return index;
  }
  return -1;
}
