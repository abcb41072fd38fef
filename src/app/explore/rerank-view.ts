/**
 * What a Re-rank column shows beside its hits, as pure functions: each hit's movement from its first-stage
 * rank, and the ceiling — the first stage's recall at the re-ranking depth, the most any re-ranking of that
 * list can find (trec_eval `recall.N` of the first stage for this query: relevant = grade ≥ 1).
 */
import type { RerankedHit } from '../../lib/rerank/rerank.ts';
import type { Hit } from '../../lib/types.ts';
import type { Movement } from './movement.ts';

/** `up` when the cross-encoder put the hit above its first-stage rank. */
export function rerankMovement(hit: Pick<RerankedHit, 'firstStageRank' | 'newRank'>): Movement {
  const { firstStageRank: before, newRank: now } = hit;
  if (before === now) return { kind: 'same' };
  return before > now ? { kind: 'up', by: before - now } : { kind: 'down', by: now - before };
}

export interface RerankCeiling {
  /** Relevant documents in the first stage's top `depth`. */
  found: number;
  /** Relevant documents judged for the query. */
  relevant: number;
  /** found / relevant; undefined when nothing is judged relevant. */
  recall: number | undefined;
  depth: number;
}

/** Recall@depth of the first stage: no re-ranking of its top `depth` can find more. */
export function rerankCeiling(judgments: ReadonlyMap<string, number>, firstStage: readonly Hit[], depth: number): RerankCeiling {
  let relevant = 0;
  for (const grade of judgments.values()) if (grade >= 1) relevant += 1;
  const seen = new Set<string>();
  let found = 0;
  for (const hit of firstStage.slice(0, depth)) {
    if (seen.has(hit.docId)) continue;
    seen.add(hit.docId);
    if ((judgments.get(hit.docId) ?? 0) >= 1) found += 1;
  }
  return { found, relevant, recall: relevant === 0 ? undefined : found / relevant, depth };
}
