import { SeededRandom } from '../eval/seeded-random.ts';
import { compareStrcmp } from '../hits/trec-order.ts';

/**
 * TREC depth-k pooling (Harman 1993; Voorhees & Harman, "TREC", ch. 2): the documents a person judges for a
 * query are the union of the top k of every ranking being compared, and nothing else — already judged
 * documents stay in the pool (the caller shows them as done), documents below depth k of every ranking are
 * left out.
 *
 * The pool is shown in an order that must not reveal where a document came from (which column, which
 * rank): an assessor who sees "the first documents are the BM25 top 3" judges them differently. The order
 * is a pseudo-random permutation that depends only on the collection, the query and the set of pooled
 * document ids:
 * - each document gets a key drawn from {@link SeededRandom} seeded with an FNV-1a hash of
 *   (collection, query id, document id); the pool is sorted by that key (ties, which need two equal 32-bit
 *   keys, by document id);
 * - so the order is the same on every reload, in every browser and in Node, and whatever the order in
 *   which rankings are passed;
 * - and documents that join the pool later (a new column, a deeper k) slot in between without moving the
 *   relative order of those already there — which a Fisher–Yates shuffle of the union would not give, so
 *   a person half-way through the list would find it reshuffled.
 */

export const DEFAULT_POOL_DEPTH = 10;

export interface PoolOptions {
  /** Collection id: part of the shuffle seed, so two collections with the same ids shuffle differently. */
  collection: string;
  queryId: string;
  /** Documents taken from the top of each ranking. Default {@link DEFAULT_POOL_DEPTH}. */
  depth?: number;
}

/**
 * The depth-k pool of one query: every document in the top `depth` of any of `rankings` (each a list of
 * document ids, best first), once, in the shuffled order described above.
 */
export function poolDocuments(rankings: ReadonlyArray<readonly string[]>, options: PoolOptions): string[] {
  const depth = options.depth ?? DEFAULT_POOL_DEPTH;
  if (!Number.isInteger(depth) || depth < 0) throw new RangeError(`pool depth must be an integer ≥ 0, got ${depth}`);
  const pooled = new Set<string>();
  for (const ranking of rankings) {
    for (let i = 0; i < Math.min(depth, ranking.length); i++) pooled.add(ranking[i]!);
  }
  const prefix = `${options.collection}\u0000${options.queryId}\u0000`;
  const keyed = [...pooled].map((docId) => ({ docId, key: shuffleKey(prefix + docId) }));
  keyed.sort((a, b) => a.key - b.key || compareStrcmp(a.docId, b.docId));
  return keyed.map(({ docId }) => docId);
}

/** A pseudo-random 32-bit sort key for a string: FNV-1a mixed through the seeded generator. */
function shuffleKey(text: string): number {
  return new SeededRandom(fnv1a(text)).nextUint32();
}

/** 32-bit FNV-1a over UTF-16 code units: a stable string hash, only used to seed. */
export function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** Judging progress of a pool: "7 of 23 pooled documents judged". */
export function poolProgress(pool: readonly string[], judgments: ReadonlyMap<string, number> | undefined): { judged: number; total: number } {
  let judged = 0;
  for (const docId of pool) if (judgments?.has(docId)) judged++;
  return { judged, total: pool.length };
}
