/**
 * Weighted sum of N rankings (ranx's `wsum`): each ranking's scores normalized (min-max by default), a
 * document's fused score Σ weight_i · normalized_i(d), a ranking that does not hold it adding 0. Sums run
 * over the rankings in input order; ordered by score descending, then document id (compareFused).
 * Min-max here gives all-equal scores 1 (Pyserini's rule, normalize.ts), where ranx gives them 0.
 *
 * The normalized scores do not depend on the weights, so they are prepared once (`prepareWsum`) and each
 * weighting only sums and sorts (`wsumHits`): a weight search re-fuses without normalizing again.
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

/** The rankings' documents (in order of first appearance) with each ranking's normalized score of each. */
export interface PreparedWsum {
  docIds: string[];
  /** Per ranking, per document: the normalized score, 0 where absent (what an absent document adds). */
  normalized: Float64Array[];
  /** Per ranking, per document: the raw score, NaN where absent. */
  raw: Float64Array[];
}

export function prepareWsum(rankings: readonly (readonly Hit[])[], options: WsumOptions = {}): PreparedWsum {
  const method = options.normalization ?? 'min-max';
  const rowOf = new Map<string, number>();
  const lists = rankings.map((ranking, list) => {
    const hits = topOf(ranking, options.depth);
    assertUniqueIds(hits, `ranking ${list}`);
    for (const hit of hits) if (!rowOf.has(hit.docId)) rowOf.set(hit.docId, rowOf.size);
    return { hits, normalized: normalizeScores(hits.map((hit) => hit.score), method) };
  });
  const normalized = lists.map(() => new Float64Array(rowOf.size));
  const raw = lists.map(() => new Float64Array(rowOf.size).fill(Number.NaN));
  lists.forEach(({ hits, normalized: scores }, list) => {
    hits.forEach((hit, i) => {
      const row = rowOf.get(hit.docId)!;
      normalized[list]![row] = scores[i]!;
      raw[list]![row] = hit.score;
    });
  });
  return { docIds: [...rowOf.keys()], normalized, raw };
}

function checkWeights(prepared: PreparedWsum, weights: readonly number[]): void {
  if (weights.length !== prepared.normalized.length) throw new RangeError(`${prepared.normalized.length} rankings need ${prepared.normalized.length} weights, got ${weights.length}`);
}

/** Each document's Σ weight_i · normalized_i, summed from 0 in ranking order. */
function scoresOf(prepared: PreparedWsum, weights: readonly number[]): Float64Array {
  const scores = new Float64Array(prepared.docIds.length);
  prepared.normalized.forEach((column, list) => {
    const weight = weights[list]!;
    for (let row = 0; row < scores.length; row++) scores[row] = scores[row]! + weight * column[row]!;
  });
  return scores;
}

/** The weighted sum as plain hits, best first, cut to `limit`. */
export function wsumHits(prepared: PreparedWsum, weights: readonly number[], limit?: number): Hit[] {
  checkWeights(prepared, weights);
  const scores = scoresOf(prepared, weights);
  const hits = prepared.docIds.map((docId, row): Hit => ({ docId, score: scores[row]! }));
  return rankFused(hits, limit);
}

/** The weighted sum with each document's parts (for a detail view). */
export function weightedSum(rankings: readonly (readonly Hit[])[], weights: readonly number[], options: WsumOptions = {}): FusedHit<WsumPart[]>[] {
  const prepared = prepareWsum(rankings, options);
  checkWeights(prepared, weights);
  const scores = scoresOf(prepared, weights);
  const hits = prepared.docIds.map((docId, row): FusedHit<WsumPart[]> => ({
    docId,
    score: scores[row]!,
    parts: weights.map((weight, list) => {
      const raw = prepared.raw[list]![row]!;
      return Number.isNaN(raw) ? { raw: null, normalized: null, weight } : { raw, normalized: prepared.normalized[list]![row]!, weight };
    }),
  }));
  return rankFused(hits, options.limit);
}
