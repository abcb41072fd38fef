/**
 * Cross-encoder scores of (model, query text, document id), so that going back to a query, changing the depth
 * or re-running an evaluation scores only pairs not seen before. The model key names the weights and the
 * pair length (a score depends on both); the query is its exact text. Bounded: past `maxEntries` the oldest
 * entries go first (a Map iterates in insertion order, and a hit is re-inserted as the newest).
 */
export class PairScoreCache {
  private readonly scores = new Map<string, number>();
  hits = 0;
  misses = 0;

  constructor(readonly maxEntries = 200_000) {}

  private static key(model: string, query: string, docId: string): string {
    // NUL cannot occur in a model id and separates query text from document id unambiguously.
    return `${model}\u0000${docId}\u0000${query}`;
  }

  get(model: string, query: string, docId: string): number | undefined {
    const key = PairScoreCache.key(model, query, docId);
    const score = this.scores.get(key);
    if (score === undefined) {
      this.misses++;
      return undefined;
    }
    this.hits++;
    this.scores.delete(key);
    this.scores.set(key, score);
    return score;
  }

  set(model: string, query: string, docId: string, score: number): void {
    const key = PairScoreCache.key(model, query, docId);
    this.scores.delete(key);
    this.scores.set(key, score);
    while (this.scores.size > this.maxEntries) {
      const oldest = this.scores.keys().next().value;
      if (oldest === undefined) break;
      this.scores.delete(oldest);
    }
  }

  get size(): number {
    return this.scores.size;
  }

  clear(): void {
    this.scores.clear();
  }
}
