import type { Hit } from '../types.ts';
import type { FusedHit, FusionDepthOptions } from './fused-hit.ts';
import { assertUniqueIds, rankFused, topOf } from './fused-hit.ts';

/** The constant of Cormack et al. (SIGIR 2009), Pyserini's default `rrf_k`. */
const DEFAULT_RRF_K = 60;

export interface RrfOptions extends FusionDepthOptions {
  /** k in 1 / (k + rank); default 60. */
  k?: number;
}

/** One input ranking's part of a fused RRF score. */
export interface RrfPart {
  /** 1-based rank of the document in that ranking, or null when the ranking does not hold it. */
  rank: number | null;
  /** 1 / (k + rank), or 0 when absent. */
  contribution: number;
}

/**
 * Reciprocal rank fusion (Cormack, Clarke & Büttcher, SIGIR 2009), as Pyserini's
 * `pyserini.fusion.reciprocal_rank_fusion` computes it:
 *
 *   RRF(d) = Σ_r 1 / (k + rank_r(d))      over the rankings r that hold d (rank 1 = best)
 *
 * Ranks are positions in each input (best first), so input scores are never read. The sum runs over the
 * rankings in input order starting from 0, in double, as Pyserini's `TrecRun.merge` does; the result is
 * ordered by score descending, then document id ascending. `parts[i]` belongs to `rankings[i]`.
 */
export function reciprocalRankFusion(
  rankings: readonly (readonly Hit[])[],
  options: RrfOptions = {},
): FusedHit<RrfPart[]>[] {
  const k = options.k ?? DEFAULT_RRF_K;
  if (!Number.isFinite(k) || k < 0) throw new RangeError(`RRF k must be a non-negative number, got ${k}`);
  const fused = new Map<string, FusedHit<RrfPart[]>>();
  rankings.forEach((ranking, list) => {
    const hits = topOf(ranking, options.depth);
    assertUniqueIds(hits, `ranking ${list}`);
    hits.forEach((hit, position) => {
      let entry = fused.get(hit.docId);
      if (entry === undefined) {
        entry = { docId: hit.docId, score: 0, parts: rankings.map(() => ({ rank: null, contribution: 0 })) };
        fused.set(hit.docId, entry);
      }
      const rank = position + 1;
      const contribution = 1 / (k + rank);
      entry.parts[list] = { rank, contribution };
      entry.score += contribution;
    });
  });
  return rankFused([...fused.values()], options.limit);
}
