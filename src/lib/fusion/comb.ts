import type { Hit } from '../types.ts';
import type { FusedHit, FusionDepthOptions } from './fused-hit.ts';
import { assertUniqueIds, rankFused, topOf } from './fused-hit.ts';
import type { Normalization } from './normalize.ts';
import { normalizeScores } from './normalize.ts';

export interface CombOptions extends FusionDepthOptions {
  /** How each ranking's scores are normalized first; default min-max. */
  normalization?: Normalization;
}

/** One input ranking's part of a CombSUM / CombMNZ score. */
export interface CombListPart {
  /** The document's score in that ranking, or null when the ranking does not hold it. */
  raw: number | null;
  /** Its normalized score, or null when absent (an absent document adds 0). */
  normalized: number | null;
}

export interface CombParts {
  /** `lists[i]` belongs to `rankings[i]`. */
  lists: CombListPart[];
  /** Σ normalized scores (CombSUM). */
  sum: number;
  /** How many rankings hold the document (CombMNZ's multiplier). */
  matches: number;
}

function combine(rankings: readonly (readonly Hit[])[], options: CombOptions, withMatches: boolean): FusedHit<CombParts>[] {
  const method = options.normalization ?? 'min-max';
  const fused = new Map<string, FusedHit<CombParts>>();
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
        const lists = rankings.map((): CombListPart => ({ raw: null, normalized: null }));
        entry = { docId: hit.docId, score: 0, parts: { lists, sum: 0, matches: 0 } };
        fused.set(hit.docId, entry);
      }
      entry.parts.lists[list] = { raw: hit.score, normalized: normalized[i]! };
      entry.parts.sum += normalized[i]!;
      entry.parts.matches += 1;
    });
  });
  const hits = [...fused.values()];
  for (const hit of hits) hit.score = withMatches ? hit.parts.sum * hit.parts.matches : hit.parts.sum;
  return rankFused(hits, options.limit);
}

/**
 * CombSUM (Fox & Shaw, TREC-2 1994): the sum of a document's normalized scores over the rankings; a
 * ranking that does not hold the document adds 0 (so with z-scores an absent document counts as average).
 * Sums run over the rankings in input order. Ordered by score descending, then document id.
 */
export function combSum(rankings: readonly (readonly Hit[])[], options: CombOptions = {}): FusedHit<CombParts>[] {
  return combine(rankings, options, false);
}

/**
 * CombMNZ (Fox & Shaw, TREC-2 1994): CombSUM × the number of rankings that hold the document, which
 * rewards documents several systems agree on. Ordered by score descending, then document id.
 */
export function combMnz(rankings: readonly (readonly Hit[])[], options: CombOptions = {}): FusedHit<CombParts>[] {
  return combine(rankings, options, true);
}
