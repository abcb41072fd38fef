import type { Hit } from '../types.ts';
import type { FusedHit, FusionDepthOptions } from './fused-hit.ts';
import { assertUniqueIds, rankFused, topOf } from './fused-hit.ts';
import type { Normalization } from './normalize.ts';
import { normalizeScores } from './normalize.ts';

export interface ConvexOptions extends FusionDepthOptions {
  /** Weight of the first ranking, 0..1; default 0.5. */
  alpha?: number;
  /** How each ranking's scores are normalized first; default min-max. */
  normalization?: Normalization;
}

/** One input ranking's part of a convex-combination score. */
export interface ConvexPart {
  /** The document's score in that ranking, or null when the ranking does not hold it. */
  raw: number | null;
  /** Its normalized score; for an absent document, the ranking's lowest normalized score (see below). */
  normalized: number;
  /** True when `normalized` was filled in because the ranking does not hold the document. */
  imputed: boolean;
  /** alpha for the first ranking, 1 − alpha for the second. */
  weight: number;
  /** weight · normalized. */
  contribution: number;
}

interface NormalizedRanking {
  byId: Map<string, { raw: number; normalized: number }>;
  /** What an absent document gets: the lowest normalized score, or 0 for an empty ranking. */
  floor: number;
}

function normalizeRanking(hits: readonly Hit[], method: Normalization): NormalizedRanking {
  const normalized = normalizeScores(
    hits.map((hit) => hit.score),
    method,
  );
  const byId = new Map(hits.map((hit, i) => [hit.docId, { raw: hit.score, normalized: normalized[i]! }]));
  let floor = normalized.length > 0 ? Infinity : 0;
  for (const score of normalized) floor = Math.min(floor, score);
  return { byId, floor };
}

/**
 * Convex combination of two rankings (interpolation, as in Pyserini's `fusion.interpolation`, but over
 * normalized scores):
 *
 *   score(d) = alpha · norm_a(d) + (1 − alpha) · norm_b(d)
 *
 * A document missing from one ranking gets that ranking's **lowest normalized score** — it is treated as
 * tied with the worst document the ranking returned, the most that can be said about an unretrieved
 * document. With min-max normalization that floor is 0 (identical to "missing counts 0"); with z-scores it
 * is negative, where 0 would be the mean and would rank unretrieved documents above retrieved ones.
 * An empty ranking has no floor; its documents' part is 0. Ordered by score descending, then document id.
 */
export function convexCombination(
  a: readonly Hit[],
  b: readonly Hit[],
  options: ConvexOptions = {},
): FusedHit<[ConvexPart, ConvexPart]>[] {
  const alpha = options.alpha ?? 0.5;
  if (!(alpha >= 0 && alpha <= 1)) throw new RangeError(`alpha must be between 0 and 1, got ${alpha}`);
  const method = options.normalization ?? 'min-max';
  const inputs = [topOf(a, options.depth), topOf(b, options.depth)] as const;
  assertUniqueIds(inputs[0], 'the first ranking');
  assertUniqueIds(inputs[1], 'the second ranking');
  const rankings = inputs.map((hits) => normalizeRanking(hits, method));
  const weights = [alpha, 1 - alpha];

  const ids = new Set([...inputs[0], ...inputs[1]].map((hit) => hit.docId));
  const fused = [...ids].map((docId): FusedHit<[ConvexPart, ConvexPart]> => {
    const [partA, partB] = rankings.map((ranking, list): ConvexPart => {
      const found = ranking.byId.get(docId);
      const normalized = found?.normalized ?? ranking.floor;
      const weight = weights[list]!;
      return { raw: found?.raw ?? null, normalized, imputed: found === undefined, weight, contribution: weight * normalized };
    }) as [ConvexPart, ConvexPart];
    return { docId, score: partA.contribution + partB.contribution, parts: [partA, partB] };
  });
  return rankFused(fused, options.limit);
}
