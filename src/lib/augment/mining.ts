/** Hard negatives mined with BM25: each training query's top-ranked documents that are not judged relevant. */
import type { Analyzer } from '../analysis/analyzer.ts';
import type { Bm25Index } from '../bm25/bm25-index.ts';
import { searchBm25Docs } from '../bm25/bm25-search.ts';
import type { Bm25Params } from '../bm25/bm25-similarity.ts';
import type { Query } from '../types.ts';

/** Per query (aligned with `queries`), up to `depth` document numbers, best BM25 score first. */
export function mineHardNegatives(
  index: Bm25Index,
  analyzer: Analyzer,
  params: Bm25Params,
  queries: readonly Query[],
  relevant: readonly ReadonlySet<number>[],
  depth: number,
): number[][] {
  return queries.map((query, i) => {
    const skip = relevant[i]!;
    const found = searchBm25Docs(index, { id: query.id, terms: analyzer.analyze(query.text) }, { k: depth + skip.size, params, ignoreIdenticalIds: true });
    return found.map(({ doc }) => doc).filter((doc) => !skip.has(doc)).slice(0, depth);
  });
}
