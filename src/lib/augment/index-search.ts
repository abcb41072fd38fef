/**
 * The smallest search `rankBatch` needs to rank Augmented BM25 over an in-memory index: the TypeScript
 * BM25 search and the models it holds by key. Training measures its held-out queries through it, so that
 * measure is the ranking every column gets.
 */
import type { Bm25Index } from '../bm25/bm25-index.ts';
import { bagOfTerms } from '../bm25/bm25-query.ts';
import { searchBm25 } from '../bm25/bm25-search.ts';
import type { Analyzer } from '../analysis/analyzer.ts';
import type { AugmenterRef, Bm25Settings } from '../retrievers/config.ts';
import type { RankSearch } from '../retrievers/rank.ts';
import type { ExpandedTerm, RankQuery } from '../retrievers/ranking.ts';
import type { Hit } from '../types.ts';
import type { Augmenter } from './augmenter.ts';

export class AugmentIndexSearch implements RankSearch {
  /** Milliseconds spent making weighted bags (augment) and searching (bm25), for latency reports. */
  readonly timings = { augment_ms: 0, bm25_ms: 0 };

  constructor(
    private readonly index: Bm25Index,
    private readonly analyzer: Analyzer,
    private readonly augmenters: ReadonlyMap<string, Augmenter>,
  ) {}

  async bm25(settings: Bm25Settings, queries: readonly RankQuery[], k: number): Promise<Hit[][]> {
    const started = performance.now();
    const params = { k1: settings.k1, b: settings.b };
    const hits = queries.map((query) => {
      const weighted = query.weighted ?? bagOfTerms(this.analyzer.analyze(query.text));
      return searchBm25(this.index, { id: query.id, weighted }, { k, params, ignoreIdenticalIds: true });
    });
    this.timings.bm25_ms += performance.now() - started;
    return hits;
  }

  async augment(augmenter: AugmenterRef, _bm25: Bm25Settings, queries: readonly RankQuery[]): Promise<ExpandedTerm[][]> {
    const model = this.augmenters.get(augmenter.key);
    if (model === undefined) throw new Error(`the model "${augmenter.name}" is not loaded here`);
    const started = performance.now();
    const bags = await model.expandBatch(queries.map((query) => query.text));
    this.timings.augment_ms += performance.now() - started;
    return bags;
  }

  async dense(): Promise<Hit[][]> {
    throw new Error('dense search is not available here');
  }

  async denseScores(): Promise<ArrayLike<number>[]> {
    throw new Error('dense search is not available here');
  }
}
