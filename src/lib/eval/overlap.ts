import type { Run } from '../types.ts';
import { compareStrcmp } from '../hits/trec-order.ts';

/**
 * How different two retrievers' rankings really are: set overlap of their top k (Jaccard) and rank-biased
 * overlap (Webber, Moffat & Zobel 2010, "A similarity measure for indefinite rankings", ACM TOIS 28(4)),
 * per query and averaged. Rankings are lists of document ids, best first, without repeats (ties are not
 * modelled: the order given is the order used).
 */

export const DEFAULT_RBO_P = 0.9;
const DEFAULT_OVERLAP_DEPTH = 10;

/**
 * Jaccard similarity of the top k of two rankings as sets: |A ∩ B| / |A ∪ B|. Order within the top k does
 * not matter. Two empty tops are identical (1); one empty and one not share nothing (0).
 */
export function jaccardAt(a: readonly string[], b: readonly string[], k = DEFAULT_OVERLAP_DEPTH): number {
  const top = new Set(a.slice(0, k));
  const other = new Set(b.slice(0, k));
  if (top.size === 0 && other.size === 0) return 1;
  let shared = 0;
  for (const docId of other) if (top.has(docId)) shared++;
  return shared / (top.size + other.size - shared);
}

/**
 * Extrapolated rank-biased overlap, RBO_ext, of two ranking prefixes of equal or unequal length — Webber
 * et al.'s equation (32); with equal lengths it reduces to their equation (30). With S the shorter prefix
 * (length s), L the longer (length l), X_d the overlap at depth d, |S_{:d} ∩ L_{:d}| (for d > s, the
 * overlap of the whole of S with L_{:d}), and A_d = X_d / d the agreement:
 *
 *   RBO_ext = (1−p)/p · ( Σ_{d=1..l} (X_d / d) · p^d  +  Σ_{d=s+1..l} X_s · (d − s) / (s · d) · p^d )
 *             + ( (X_l − X_s) / l + X_s / s ) · p^l
 *
 * It is the point estimate of full RBO that assumes the agreement seen at the end of the prefixes goes on
 * forever (and that the items of L beyond s which S might still hold are matched at the rate S shows).
 * Identical prefixes give 1, disjoint ones 0. p is the persistence: the weight of the first d ranks is
 * 1 − p^(d−1) + (1−p)/p · d · (ln(1/(1−p)) − Σ_{i=1..d−1} p^i / i) (eq. 21): with p = 0.9 the top 10
 * carry about 86% of it.
 *
 * Two empty prefixes are identical (1); one empty and one not share nothing (0). Repeated ids are refused.
 */
export function rankBiasedOverlap(a: readonly string[], b: readonly string[], p = DEFAULT_RBO_P): number {
  if (!(p > 0 && p < 1)) throw new RangeError(`RBO persistence p must lie strictly between 0 and 1, got ${p}`);
  assertNoRepeats(a);
  assertNoRepeats(b);
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  const s = short.length;
  const l = long.length;
  if (l === 0) return 1;
  if (s === 0) return 0;

  const seenShort = new Set<string>();
  const seenLong = new Set<string>();
  let overlap = 0; // X_d
  let overlapAtS = 0; // X_s
  let weight = 1; // p^d
  let sum = 0;
  for (let d = 1; d <= l; d++) {
    weight *= p;
    const fromLong = long[d - 1]!;
    if (d <= s) {
      const fromShort = short[d - 1]!;
      if (fromShort === fromLong) {
        overlap++;
      } else {
        if (seenLong.has(fromShort)) overlap++;
        if (seenShort.has(fromLong)) overlap++;
      }
      seenShort.add(fromShort);
      seenLong.add(fromLong);
      if (d === s) overlapAtS = overlap;
    } else {
      // seenShort now holds all of S.
      if (seenShort.has(fromLong)) overlap++;
      sum += ((overlapAtS * (d - s)) / (s * d)) * weight;
    }
    sum += (overlap / d) * weight;
  }
  return ((1 - p) / p) * sum + ((overlap - overlapAtS) / l + overlapAtS / s) * weight;
}

function assertNoRepeats(ranking: readonly string[]): void {
  if (new Set(ranking).size !== ranking.length) {
    const seen = new Set<string>();
    const repeated = ranking.find((docId) => (seen.has(docId) ? true : (seen.add(docId), false)));
    throw new RangeError(`a ranking holds document ${repeated} twice; rank-biased overlap needs distinct items`);
  }
}

export interface QueryOverlap {
  qid: string;
  jaccard: number;
  rbo: number;
}

export interface RunOverlap {
  /** Per query, in `strcmp` order of ids. */
  perQuery: QueryOverlap[];
  /** Means over those queries (0 when there are none). */
  meanJaccard: number;
  meanRbo: number;
}

export interface RunOverlapOptions {
  /** Depth compared: Jaccard of the top k sets, RBO_ext of the top-k prefixes. Default 10. */
  depth?: number;
  /** RBO persistence. Default 0.9. */
  p?: number;
  /**
   * The queries to compare (e.g. a split's judged queries); one a run lacks is an empty ranking.
   * Default: every query of either run.
   */
  queryIds?: Iterable<string>;
}

/**
 * Jaccard and RBO of two runs' top k per query, and their means. Hits are taken in the runs' order (best
 * first, as `Run` holds them).
 */
export function compareRuns(a: Run, b: Run, options: RunOverlapOptions = {}): RunOverlap {
  const depth = options.depth ?? DEFAULT_OVERLAP_DEPTH;
  const p = options.p ?? DEFAULT_RBO_P;
  if (!Number.isInteger(depth) || depth <= 0) throw new RangeError(`overlap depth must be a positive integer, got ${depth}`);
  const qids = [...new Set(options.queryIds ?? [...a.keys(), ...b.keys()])].sort(compareStrcmp);
  const top = (run: Run, qid: string) => (run.get(qid) ?? []).slice(0, depth).map((hit) => hit.docId);
  const perQuery = qids.map((qid) => {
    const left = top(a, qid);
    const right = top(b, qid);
    return { qid, jaccard: jaccardAt(left, right, depth), rbo: rankBiasedOverlap(left, right, p) };
  });
  const mean = (values: number[]) => (values.length === 0 ? 0 : values.reduce((x, y) => x + y, 0) / values.length);
  return { perQuery, meanJaccard: mean(perQuery.map((q) => q.jaccard)), meanRbo: mean(perQuery.map((q) => q.rbo)) };
}
