/**
 * Weighted sum of N rankings (ranx's `wsum`): each ranking's scores normalized (min-max by default), a
 * document's fused score Σ weight_i · normalized_i(d), a ranking that does not hold it adding 0. Sums run
 * over the rankings in input order; ordered by score descending, then document id (compareFused).
 * Min-max here gives all-equal scores 1 (Pyserini's rule, normalize.ts), where ranx gives them 0.
 */
import type { Hit } from '../types.ts';
import type { FusedHit, FusionDepthOptions } from './fused-hit.ts';
import { assertUniqueIds, rankFused, topOf } from './fused-hit.ts';
import type { Normalization } from './normalize.ts';
import { normalizeScores } from './normalize.ts';

export interface WsumOptions extends FusionDepthOptions {
  normalization?: Normalization;
}

/** One ranking's part of a document's weighted sum. */
export interface WsumPart {
  /** Its score in that ranking, or null when the ranking does not hold it. */
  raw: number | null;
  /** Its normalized score, or null when absent. */
  normalized: number | null;
  weight: number;
}

export function weightedSum(rankings: readonly (readonly Hit[])[], weights: readonly number[], options: WsumOptions = {}): FusedHit<WsumPart[]>[] {
  if (weights.length !== rankings.length) throw new RangeError(`${rankings.length} rankings need ${rankings.length} weights, got ${weights.length}`);
  const method = options.normalization ?? 'min-max';
  const fused = new Map<string, FusedHit<WsumPart[]>>();
  rankings.forEach((ranking, list) => {
    const hits = topOf(ranking, options.depth);
    assertUniqueIds(hits, `ranking ${list}`);
    const normalized = normalizeScores(
      hits.map((hit) => hit.score),
      method,
    );
    hits.forEach((hit, i) => {
      let entry = fused.get(hit.docId);
      if (entry === undefined) {
        entry = { docId: hit.docId, score: 0, parts: weights.map((weight): WsumPart => ({ raw: null, normalized: null, weight })) };
        fused.set(hit.docId, entry);
      }
      entry.parts[list] = { raw: hit.score, normalized: normalized[i]!, weight: weights[list]! };
    });
  });
  const hits = [...fused.values()];
  for (const hit of hits) hit.score = hit.parts.reduce((sum, part) => sum + part.weight * (part.normalized ?? 0), 0);
  return rankFused(hits, options.limit);
}
