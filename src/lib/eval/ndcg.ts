import { numRelLevels, type JudgedRanking } from './judged-ranking.ts';

/**
 * Normalized discounted cumulative gain (Järvelin & Kekäläinen, ACM TOIS 20(4), 2002) as trec_eval 9.0.8
 * computes it, ported from m_ndcg.c / gain_init.c (`ndcg`) and m_ndcg_cut.c (`ndcg_cut.k`):
 *
 *   DCG@k = Σ_{i=1..k} gain(doc at rank i) / log2(i + 1),    nDCG@k = DCG@k / IDCG@k
 *
 * where IDCG is the DCG of the judged documents sorted by decreasing gain. Both ignore the relevance
 * level (`-l`): gains are the raw grades. Linear gains (gain = grade), not 2^grade − 1.
 */

/** A `level=gain` parameter of trec_eval's `ndcg` measure, e.g. `ndcg.1=3,2=9,4=4.5`. */
export interface GainParam {
  level: number;
  gain: number;
}

export interface LevelGain {
  level: number;
  gain: number;
  /** Judged documents of the query at this level. */
  count: number;
}

/** Above this grade, levels that no document has are left out of the gain table (see setupGains). */
const MAX_DENSE_LEVELS = 1 << 16;

/**
 * nDCG over the whole ranking with optional gain overrides, trec_eval `ndcg` / `ndcg.<level>=<gain>,…`.
 * Levels without an override have gain = level. Gains may be 0 or negative; the ideal ranking stops at
 * the first non-positive gain. 0 when the ideal DCG is not positive.
 */
export function ndcg(ranking: JudgedRanking, params: readonly GainParam[] = []): number {
  const gains = setupGains(ranking, params);
  const { grades, numRet } = ranking;
  let resultsDcg = 0;
  let idealDcg = 0;
  let level = gains.length - 1;
  let idealGain = level >= 0 ? gains[level]!.gain : 0;
  let numAtLevel = 0;
  // Walks the ideal ranking level by level (highest gain first) alongside the results, as m_ndcg.c does,
  // so the sums are accumulated in the same order and round the same way.
  const nextIdealGain = (): void => {
    numAtLevel++;
    while (level >= 0 && numAtLevel > gains[level]!.count) {
      numAtLevel = 1;
      level--;
      idealGain = level >= 0 ? gains[level]!.gain : 0;
    }
  };
  let i = 0;
  for (; i < numRet && idealGain > 0; i++) {
    const gain = gainOf(grades[i]!, gains);
    if (gain !== 0) resultsDcg += gain / Math.log2(i + 2);
    nextIdealGain();
    if (idealGain > 0) idealDcg += idealGain / Math.log2(i + 2);
  }
  for (; i < numRet; i++) {
    const gain = gainOf(grades[i]!, gains);
    if (gain !== 0) resultsDcg += gain / Math.log2(i + 2);
  }
  for (; idealGain > 0; i++) {
    nextIdealGain();
    if (idealGain > 0) idealDcg += idealGain / Math.log2(i + 2);
  }
  return idealDcg > 0 ? resultsDcg / idealDcg : 0;
}

/**
 * The gain table of gain_init.c `setup_gains`: parameter levels first (in command-line order), then every
 * level 0 … num_rel_levels−1 not overridden, with gain = level; then sorted by increasing gain with
 * trec_eval's comparator `(int)(gain1 − gain2)` — which calls gains closer than 1 equal — using glibc's
 * stable merge sort, so even that quirk (e.g. `ndcg.1=0.5` sorts level 1 below level 0) is reproduced.
 * Levels nobody judged only matter through that quirk; above {@link MAX_DENSE_LEVELS} they are skipped
 * instead of allocating one entry per integer.
 */
export function setupGains(ranking: JudgedRanking, params: readonly GainParam[]): LevelGain[] {
  const gains: LevelGain[] = params.map((p) => ({ level: p.level, gain: p.gain, count: 0 }));
  const counts = new Map(ranking.gradeCounts);
  const levels = numRelLevels(ranking);
  const present = levels > MAX_DENSE_LEVELS ? ranking.gradeCounts.map(([grade]) => grade) : range(levels);
  for (const level of present) {
    const count = counts.get(level) ?? 0;
    const overridden = gains.find((g) => g.level === level);
    if (overridden) overridden.count = count;
    else gains.push({ level, gain: level, count });
  }
  return glibcMergeSort(gains, (a, b) => Math.trunc(a.gain - b.gain));
}

function range(n: number): number[] {
  return Array.from({ length: n }, (_, i) => i);
}

/** gain_init.c `get_gain`: first entry of the sorted table with this level, else 0. */
export function gainOf(grade: number, gains: readonly LevelGain[]): number {
  for (const entry of gains) if (entry.level === grade) return entry.gain;
  return 0;
}

/**
 * glibc's `qsort` for small arrays (stdlib/msort.c `msort_with_tmp`): top-down merge sort splitting at
 * n/2, taking from the left run while cmp ≤ 0. Reproduced rather than using Array.prototype.sort because
 * with a non-transitive comparator the result depends on the algorithm.
 */
function glibcMergeSort<T>(items: readonly T[], cmp: (a: T, b: T) => number): T[] {
  if (items.length <= 1) return [...items];
  const half = Math.floor(items.length / 2);
  const left = glibcMergeSort(items.slice(0, half), cmp);
  const right = glibcMergeSort(items.slice(half), cmp);
  const merged: T[] = [];
  let l = 0;
  let r = 0;
  while (l < left.length && r < right.length) {
    if (cmp(left[l]!, right[r]!) <= 0) merged.push(left[l++]!);
    else merged.push(right[r++]!);
  }
  while (l < left.length) merged.push(left[l++]!);
  while (r < right.length) merged.push(right[r++]!);
  return merged;
}

/**
 * nDCG at cutoffs, trec_eval `ndcg_cut.k` (m_ndcg_cut.c). Gains are the grades themselves (only grades
 * > 0 count; `ndcg_cut` takes no gain parameters); the ideal ranking is every judged document with a
 * positive grade, by decreasing grade. When the ideal DCG@k is 0 the unnormalized DCG@k (then also 0) is
 * returned, as trec_eval leaves it.
 *
 * @param cutoffs positive integers in increasing order
 */
export function ndcgAt(ranking: JudgedRanking, cutoffs: readonly number[]): number[] {
  const dcg = prefixSumsAt(
    cutoffs,
    ranking.numRet,
    (i) => ranking.grades[i]!,
  );
  const ideal = idealGains(ranking);
  const idcg = prefixSumsAt(cutoffs, ideal.length, (i) => ideal[i]!);
  return dcg.map((value, i) => (idcg[i]! > 0 ? value / idcg[i]! : value));
}

/** Σ_{i < min(k, length)} gain(i) / log2(i + 2) over positive gains, for each cutoff k, summed in rank order. */
function prefixSumsAt(cutoffs: readonly number[], length: number, gainAt: (i: number) => number): number[] {
  const sums: number[] = [];
  let sum = 0;
  let i = 0;
  for (const cutoff of cutoffs) {
    const end = Math.min(cutoff, length);
    for (; i < end; i++) {
      const gain = gainAt(i);
      if (gain > 0) sum += gain / Math.log2(i + 2);
    }
    sums.push(sum);
  }
  return sums;
}

/** Positive grades of all judged documents of the query, highest first. */
function idealGains(ranking: JudgedRanking): number[] {
  const gains: number[] = [];
  for (let g = ranking.gradeCounts.length - 1; g >= 0; g--) {
    const [grade, count] = ranking.gradeCounts[g]!;
    if (grade <= 0) break;
    for (let c = 0; c < count; c++) gains.push(grade);
  }
  return gains;
}
