/**
 * What a retriever produces for one query: its hits, best first, and — for fusions — the parts each fused
 * score is made of (the fusion functions of src/lib/fusion return them), so a detail view can show the
 * formula with its numbers. Plain data: it crosses worker boundaries and can be stored.
 */
import type { QueryTermWeight } from '../bm25/bm25-query.ts';
import type { ConvexPart } from '../fusion/convex.ts';
import type { FusedHit } from '../fusion/fused-hit.ts';
import type { LedrParts } from '../fusion/ledr.ts';
import type { RrfPart } from '../fusion/rrf.ts';
import type { RerankedHit } from '../rerank/rerank.ts';
import type { Hit } from '../types.ts';
import type { RetrieverConfig } from './config.ts';

export type ColumnRanking =
  | { kind: 'bm25'; hits: Hit[] }
  | { kind: 'dense'; hits: Hit[] }
  /** parts: BM25 score and rank, dense cosine; score = cosine × BM25. */
  | { kind: 'ledr'; hits: FusedHit<LedrParts>[] }
  /** parts[0] = BM25, parts[1] = dense: rank and 1 / (k + rank). */
  | { kind: 'rrf'; hits: FusedHit<RrfPart[]>[] }
  /** parts[0] = BM25 (weight alpha), parts[1] = dense (weight 1 − alpha): raw, normalized, contribution. */
  | { kind: 'convex'; hits: FusedHit<[ConvexPart, ConvexPart]>[] }
  | { kind: 'run'; hits: Hit[] }
  /** Augmented BM25: the hits of the weighted bag the model made of the query (`expanded`). */
  | { kind: 'augmented'; hits: Hit[]; expanded: ExpandedTerm[] }
  /** RM3 / Bo1: the second pass's hits, the expanded weighted query it searched, the feedback documents. */
  | { kind: 'rm3' | 'bo1'; hits: Hit[]; expanded: QueryTermWeight[]; feedbackDocIds: string[] }
  /**
   * The first stage's top `depth` in the cross-encoder's order (each hit with its first-stage rank and score),
   * and that first-stage list itself (its recall@depth is the ceiling of the re-ranking).
   */
  | { kind: 'rerank'; hits: RerankedHit[]; firstStage: Hit[]; depth: number };

/** A term of a learned query: its weight w(q)·(bow(q) + a(q)), and whether the model added it (not in the query). */
export interface ExpandedTerm extends QueryTermWeight {
  added: boolean;
}

/**
 * A query to rank: a stored query (its id keys judgments and imported runs, and a document of the same id
 * is left out of its ranking, as BEIR and Pyserini do) or typed text (no id). `text` is what dense models
 * and cross-encoders read; `weighted`, when given, is the bag of index terms BM25 ranks with instead of
 * analyzing `text` (the weighted query syntax, or a column's edited query terms).
 */
export interface RankQuery {
  id?: string;
  text: string;
  weighted?: readonly QueryTermWeight[];
}

/** A ranking with no hits (a blank query). */
export function emptyRanking(retriever: RetrieverConfig): ColumnRanking {
  switch (retriever.kind) {
    case 'rm3':
    case 'bo1':
      return { kind: retriever.kind, hits: [], expanded: [], feedbackDocIds: [] };
    case 'rerank':
      return { kind: 'rerank', hits: [], firstStage: [], depth: retriever.depth };
    case 'augmented':
      return { kind: 'augmented', hits: [], expanded: [] };
    default:
      return { kind: retriever.kind, hits: [] };
  }
}

/** Hits without their parts (smaller, for runs of many queries). */
export function plainHits(hits: readonly Hit[]): Hit[] {
  return hits.map(({ docId, score }) => ({ docId, score }));
}
