import { retrievedPrefix, type EquivalenceClass, type JudgmentGroupCounts, type PrefsCounts } from './prefs-counts.ts';

/**
 * prefs_avgjg_Rnonrel and prefs_avgjg_Rnonrel_ret (m_prefs_avgjg_Rnonrel*.c): prefs_avgjg (resp.
 * prefs_avgjg_ret) as if each judgment group had as many non-relevant documents (level 0) as relevant
 * ones (R), so that piling up non-relevant judgments does not change a query's weight — akin to bpref.
 * With fewer non-relevant documents than R the missing ones count as fulfilled preferences of every
 * relevant document; with more, only the first R (by docid rank) are kept and the group is counted again.
 *
 * The recount follows trec_eval's code exactly, including its quirks: in the one-sub-group form the kept
 * non-relevant documents are also compared with their own class (a document with itself counts as a
 * failure); the `_ret` form keeps R = the relevant RETRIEVED documents among the classes but the first
 * num_rel (all relevant) non-relevant documents of a preference array, and adds num_rel·(R−N) possible
 * preferences. With several classes of level ≤ 0 (negative levels) trec_eval takes R entries from the
 * last class and reads past its end when it is shorter; here only that class's documents are used.
 * A group whose recount finds no preference gives 0/0 = NaN, which makes the query's value 0, as in C.
 */

export function avgjgRnonrel(counts: PrefsCounts): number {
  return averageWithRNonrelevant(counts, false);
}

export function avgjgRnonrelRet(counts: PrefsCounts): number {
  return averageWithRNonrelevant(counts, true);
}

function averageWithRNonrelevant(counts: PrefsCounts, retrievedOnly: boolean): number {
  let sum = 0;
  for (const g of counts.groups) {
    const r = retrievedOnly ? g.numRelRet : g.numRel;
    const n = retrievedOnly ? g.numNonrelRet : g.numNonrel;
    let fulfilled: number;
    let possible: number;
    if (r >= n) {
      fulfilled = g.fulfilledRet + (retrievedOnly ? 0 : g.fulfilledImp) + g.numRelRet * (r - n);
      possible = g.possibleRet + (retrievedOnly ? 0 : g.possibleImp + g.possibleNotRetrieved) + g.numRel * (r - n);
    } else if (g.classes !== undefined) {
      [fulfilled, possible] = recountClasses(g, g.classes, counts.numJudgedRet, retrievedOnly);
    } else {
      [fulfilled, possible] = recountArray(g, counts, retrievedOnly);
    }
    sum += fulfilled / possible;
  }
  return sum > 0 ? sum / counts.groups.length : 0;
}

/** [fulfilled, possible] of a one-sub-group judgment group with its non-relevant class cut to R documents. */
function recountClasses(g: JudgmentGroupCounts, classes: readonly EquivalenceClass[], numJudgedRet: number, retrievedOnly: boolean): [number, number] {
  // `_ret` walks each class only while its (increasing) ranks are retrieved.
  const ranksOf = (ranks: readonly number[]) => (retrievedOnly ? ranks.slice(0, retrievedPrefix(ranks, numJudgedRet)) : ranks);
  const lastClass = classes[classes.length - 1]!.ranks;
  const keptNonrel = ranksOf(lastClass.slice(0, retrievedOnly ? g.numRelRet : g.numRel));
  let fulfilled = 0;
  let failed = 0;
  const compare = (r1: number, r2: number) => {
    if (r1 < r2 && r1 < numJudgedRet) fulfilled++;
    else failed++;
  };
  for (let c1 = 0; c1 < classes.length; c1++) {
    for (let c2 = c1 + 1; c2 < classes.length - 1; c2++) {
      for (const r1 of ranksOf(classes[c1]!.ranks)) for (const r2 of ranksOf(classes[c2]!.ranks)) compare(r1, r2);
    }
  }
  for (const cls of classes) for (const r1 of ranksOf(cls.ranks)) for (const r2 of keptNonrel) compare(r1, r2);
  return [fulfilled, failed + fulfilled];
}

/**
 * [fulfilled, possible] of a preference-array group without the non-relevant documents after its
 * (num_rel)th one in docid-rank order (searched among the retrieved ones only for `_ret`).
 */
function recountArray(g: JudgmentGroupCounts, counts: PrefsCounts, retrievedOnly: boolean): [number, number] {
  const levels = g.levels!;
  const preferred = g.preferred!;
  const { numJudged: n, numJudgedRet: ret } = counts;
  const searchEnd = retrievedOnly ? ret : n;
  let firstDiscarded = 0;
  let nonrelSeen = 0;
  for (; firstDiscarded < searchEnd; firstDiscarded++) {
    if (levels[firstDiscarded] === 0 && ++nonrelSeen === g.numRel + 1) break;
  }
  const kept = (k: number) => k < firstDiscarded || levels[k] !== 0;
  let fulfilled = 0;
  let failed = 0;
  const rowEnd = retrievedOnly ? ret : n;
  for (let i = 0; i < rowEnd; i++) {
    if (!kept(i)) continue;
    for (let j = 0; j < (retrievedOnly ? ret : n); j++) {
      if (j === i || !kept(j) || !preferred[i * n + j]) continue;
      // Fulfilled: i retrieved and ranked above j (j after i, or j not retrieved).
      if (i < ret && j > i) fulfilled++;
      else failed++;
    }
  }
  return [fulfilled, failed + fulfilled];
}
