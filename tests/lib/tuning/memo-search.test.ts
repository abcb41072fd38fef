import { describe, expect, it } from 'vitest';
import { DEFAULT_BM25, DEFAULT_DENSE } from '../../../src/lib/retrievers/config.ts';
import type { RankSearch } from '../../../src/lib/retrievers/rank.ts';
import { MemoSearch } from '../../../src/lib/tuning/memo-search.ts';
import type { Hit } from '../../../src/lib/types.ts';

/** A search that counts its calls and answers one hit per query, scored by k1. */
function countingSearch(): RankSearch & { calls: number } {
  const search = {
    calls: 0,
    async bm25(settings: { k1: number }, queries: readonly unknown[]): Promise<Hit[][]> {
      search.calls += 1;
      return queries.map(() => [{ docId: 'd', score: settings.k1 }]);
    },
    async dense(): Promise<Hit[][]> {
      search.calls += 1;
      return [[]];
    },
    async denseScores() {
      return [];
    },
  };
  return search;
}

const queries = [{ id: 'q1', text: 'a query' }];
const bm25 = (k1: number) => ({ ...DEFAULT_BM25, k1 });

describe('MemoSearch', () => {
  it('answers a request again from memory, the same lists', async () => {
    const inner = countingSearch();
    const memo = new MemoSearch(inner);
    const first = await memo.bm25(bm25(0.9), queries, 10);
    expect(await memo.bm25(bm25(0.9), [{ ...queries[0]! }], 10)).toBe(first);
    await memo.dense(DEFAULT_DENSE, ['a query'], 10);
    await memo.dense(DEFAULT_DENSE, ['a query'], 10);
    expect(inner.calls).toBe(2);
    expect(memo.searches).toBe(2);
  });

  it('searches again for other settings, depth or queries', async () => {
    const inner = countingSearch();
    const memo = new MemoSearch(inner);
    await memo.bm25(bm25(0.9), queries, 10);
    await memo.bm25(bm25(1.2), queries, 10);
    await memo.bm25(bm25(0.9), queries, 20);
    await memo.bm25(bm25(0.9), [{ id: 'q2', text: 'a query' }], 10);
    expect(inner.calls).toBe(4);
  });

  it('keeps only the latest answers, the recently used ones longest', async () => {
    const inner = countingSearch();
    const memo = new MemoSearch(inner, 2);
    await memo.bm25(bm25(1), queries, 10);
    await memo.bm25(bm25(2), queries, 10);
    await memo.bm25(bm25(1), queries, 10); // used again: k1 2 is now the oldest
    await memo.bm25(bm25(3), queries, 10); // evicts k1 2
    expect(inner.calls).toBe(3);
    await memo.bm25(bm25(1), queries, 10);
    expect(inner.calls).toBe(3);
    await memo.bm25(bm25(2), queries, 10);
    expect(inner.calls).toBe(4);
  });
});
