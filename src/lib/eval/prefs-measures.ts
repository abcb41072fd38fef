import type { JudgmentGroupCounts, PrefsCounts } from './prefs-counts.ts';
import { avgjgRnonrel, avgjgRnonrelRet } from './prefs-rnonrel.ts';

/**
 * trec_eval 9.0.8's preference measures (m_prefs_*.c) from a query's {@link PrefsCounts}. A preference
 * A > B is fulfilled when the run ranks A above B; which preferences count depends on the suffix:
 * - none (`prefs_simp`, …): every preference; one whose documents were both left unretrieved is a failure,
 *   one with only A retrieved is fulfilled ("implied"), only B retrieved a failure;
 * - `_ret`: only preferences between two retrieved documents;
 * - `_imp`: as none, but preferences between two unretrieved documents are ignored.
 * And how they are combined:
 * - `simp`: fulfilled ÷ possible over all groups' preferences (a pair two groups judge counts twice);
 * - `pair`: the mean over document pairs of the share of groups' preferences the ranking fulfils for it;
 * - `avgjg`: fulfilled ÷ possible per judgment group, averaged over the query's groups;
 * - `avgjg_Rnonrel`: as avgjg with as many non-relevant documents as relevant ones (prefs-rnonrel.ts);
 * - `num_prefs_poss`, `num_prefs_ful`, `num_prefs_ful_ret`: the counts themselves (summed, not averaged).
 * A ratio with nothing to divide is 0, as in trec_eval.
 */

export const PREFS_MEASURES = [
  'prefs_num_prefs_poss',
  'prefs_num_prefs_ful',
  'prefs_num_prefs_ful_ret',
  'prefs_simp',
  'prefs_pair',
  'prefs_avgjg',
  'prefs_avgjg_Rnonrel',
  'prefs_simp_ret',
  'prefs_pair_ret',
  'prefs_avgjg_ret',
  'prefs_avgjg_Rnonrel_ret',
  'prefs_simp_imp',
  'prefs_pair_imp',
  'prefs_avgjg_imp',
] as const;

export type PrefsMeasure = (typeof PREFS_MEASURES)[number];

export function isPrefsMeasure(name: string): name is PrefsMeasure {
  return (PREFS_MEASURES as readonly string[]).includes(name);
}

/** Which preferences a measure counts: all, between retrieved documents, or all but between unretrieved ones. */
type Scope = 'all' | 'ret' | 'imp';

/** The value of one preference measure for one query. */
export function prefsMeasure(measure: PrefsMeasure, counts: PrefsCounts): number {
  switch (measure) {
    case 'prefs_num_prefs_poss':
      return sumOver(counts.groups, (g) => possible(g, 'all'));
    case 'prefs_num_prefs_ful':
      return sumOver(counts.groups, (g) => fulfilled(g, 'all'));
    case 'prefs_num_prefs_ful_ret':
      return sumOver(counts.groups, (g) => fulfilled(g, 'ret'));
    case 'prefs_simp':
      return simpleRatio(counts, 'all');
    case 'prefs_simp_ret':
      return simpleRatio(counts, 'ret');
    case 'prefs_simp_imp':
      return simpleRatio(counts, 'imp');
    case 'prefs_pair':
      return pairRatio(counts, 'all');
    case 'prefs_pair_ret':
      return pairRatio(counts, 'ret');
    case 'prefs_pair_imp':
      return pairRatio(counts, 'imp');
    case 'prefs_avgjg':
      return groupAverage(counts, 'all');
    case 'prefs_avgjg_ret':
      return groupAverage(counts, 'ret');
    case 'prefs_avgjg_imp':
      return groupAverage(counts, 'imp');
    case 'prefs_avgjg_Rnonrel':
      return avgjgRnonrel(counts);
    case 'prefs_avgjg_Rnonrel_ret':
      return avgjgRnonrelRet(counts);
  }
}

function fulfilled(g: JudgmentGroupCounts, scope: Scope): number {
  return scope === 'ret' ? g.fulfilledRet : g.fulfilledRet + g.fulfilledImp;
}

function possible(g: JudgmentGroupCounts, scope: Scope): number {
  if (scope === 'ret') return g.possibleRet;
  const withImplied = g.possibleRet + g.possibleImp;
  return scope === 'imp' ? withImplied : withImplied + g.possibleNotRetrieved;
}

function sumOver(groups: readonly JudgmentGroupCounts[], value: (g: JudgmentGroupCounts) => number): number {
  let sum = 0;
  for (const g of groups) sum += value(g);
  return sum;
}

/** m_prefs_simp*.c. */
function simpleRatio(counts: PrefsCounts, scope: Scope): number {
  const poss = sumOver(counts.groups, (g) => possible(g, scope));
  return poss > 0 ? sumOver(counts.groups, (g) => fulfilled(g, scope)) / poss : 0;
}

/** m_prefs_avgjg*.c: a group without preferences adds 0 but still counts in the divisor. */
function groupAverage(counts: PrefsCounts, scope: Scope): number {
  let sum = 0;
  for (const g of counts.groups) {
    const poss = possible(g, scope);
    if (poss > 0) sum += fulfilled(g, scope) / poss;
  }
  return sum > 0 ? sum / counts.groups.length : 0;
}

/**
 * m_prefs_pair*.c: over document pairs some group has a preference on, the share of those preferences the
 * ranking fulfils (the higher-ranked document preferred); pairs of two unretrieved documents count 0
 * (`all`) or are left out. Pairs are visited in trec_eval's order, so the sum rounds as it does.
 */
function pairRatio(counts: PrefsCounts, scope: Scope): number {
  const { numJudged: n, numJudgedRet: ret, pairCounts } = counts;
  let sum = 0;
  let pairs = 0;
  const visit = (i: number, j: number, scored: boolean) => {
    const forward = pairCounts[i * n + j]!;
    const backward = pairCounts[j * n + i]!;
    if (forward === 0 && backward === 0) return;
    pairs++;
    if (scored) sum += forward / (forward + backward);
  };
  for (let i = 0; i < ret; i++) for (let j = i + 1; j < ret; j++) visit(i, j, true);
  if (scope !== 'ret') {
    for (let i = 0; i < ret; i++) for (let j = ret; j < n; j++) visit(i, j, true);
  }
  if (scope === 'all') {
    for (let i = ret; i < n; i++) for (let j = i + 1; j < n; j++) visit(i, j, false);
  }
  return pairs > 0 ? sum / pairs : 0;
}
