import type { PrefJudgment } from '../data/trec-prefs.ts';
import { compareStrcmp } from '../hits/trec-order.ts';

/**
 * The preferences a ranking fulfils, counted as trec_eval 9.0.8's form_prefs_counts.c counts them for the
 * preference measures (prefs-measures.ts):
 * 1. Every document of the query's preference lines gets a "docid rank": the judged documents the run
 *    retrieved (within -M) take 0..numJudgedRet-1 in ranking order, the others numJudgedRet.. in strcmp
 *    order of their ids. A preference A > B is then "fulfilled" when rank(A) < rank(B).
 * 2. A judgment group (jg) with one sub-group is a list of equivalence classes (documents with the same
 *    level, by decreasing level), every document preferred to every document of a lower class; a group
 *    with several sub-groups is a preference array (each sub-group's preferences, transitively closed).
 * 3. Each group's preferences are counted by where the two documents are: both retrieved ("ret"), one
 *    of them ("imp", implied: fulfilled when the preferred one is the retrieved one), neither; and the
 *    preferences of all groups are summed per document pair (`pairCounts`) to find agreeing and
 *    conflicting groups.
 */

/** Documents with the same level in a one-sub-group judgment group, their docid ranks increasing. */
export interface EquivalenceClass {
  level: number;
  ranks: number[];
}

/** One judgment group's preferences and their counts (form_prefs_counts.c's JG). */
export interface JudgmentGroupCounts {
  /** One sub-group: classes by decreasing level (the last one holds the non-relevant documents). */
  classes: EquivalenceClass[] | undefined;
  /** Several sub-groups: numJudged² flags, `[i * numJudged + j]` set when rank i is preferred to rank j. */
  preferred: Uint8Array | undefined;
  /** Several sub-groups: each docid rank's level in this group, -1 when the group does not judge it. */
  levels: Float32Array | undefined;
  fulfilledRet: number;
  /** Including the fulfilled ones, as are the other `possible` counts. */
  possibleRet: number;
  fulfilledImp: number;
  possibleImp: number;
  /** Preferences between two documents neither of which was retrieved. */
  possibleNotRetrieved: number;
  numRel: number;
  numRelRet: number;
  numNonrel: number;
  numNonrelRet: number;
}

export interface PrefsCounts {
  /** Distinct documents in the query's preference lines. */
  numJudged: number;
  /** Of which the run retrieved (docid ranks 0..numJudgedRet-1). */
  numJudgedRet: number;
  /** In strcmp order of the group names. */
  groups: JudgmentGroupCounts[];
  /**
   * numJudged² counts, `[i * numJudged + j]`: how many groups prefer rank i to rank j. 16-bit like
   * trec_eval's `unsigned short` counts.
   */
  pairCounts: Uint16Array;
}

/** Preference judgments trec_eval refuses (an inconsistent group). */
export class PrefsError extends Error {
  override readonly name = 'PrefsError';
}

interface RankedJudgment extends PrefJudgment {
  rank: number;
}

/**
 * Counts the preferences of one query. `docIds` is the run's ranking as form_prefs_counts.c reads it:
 * `rankForEvaluation(qid, hits, maxDocs, compareTrecPrefsHits)`.
 */
export function countPreferences(docIds: readonly string[], judgments: readonly PrefJudgment[]): PrefsCounts {
  const rankOf = new Map<string, number>();
  const judged = new Set(judgments.map((j) => j.docId));
  for (const docId of docIds) if (judged.has(docId)) rankOf.set(docId, rankOf.size);
  const numJudgedRet = rankOf.size;
  const notRetrieved = [...judged].filter((docId) => !rankOf.has(docId)).sort(compareStrcmp);
  for (const docId of notRetrieved) rankOf.set(docId, rankOf.size);
  const numJudged = rankOf.size;

  const rows: RankedJudgment[] = judgments.map((j) => ({ ...j, rank: rankOf.get(j.docId)! }));
  rows.sort((a, b) => compareStrcmp(a.jg, b.jg) || compareStrcmp(a.jsg, b.jsg) || b.level - a.level || a.rank - b.rank);

  const counts: PrefsCounts = { numJudged, numJudgedRet, groups: [], pairCounts: new Uint16Array(numJudged * numJudged) };
  let start = 0;
  while (start < rows.length) {
    let end = start + 1;
    let subGroups = 1;
    while (end < rows.length && rows[end]!.jg === rows[start]!.jg) {
      if (rows[end]!.jsg !== rows[end - 1]!.jsg) subGroups++;
      end++;
    }
    const group = rows.slice(start, end);
    counts.groups.push(subGroups > 1 ? preferenceArrayGroup(group, counts) : equivalenceClassGroup(group, counts));
    start = end;
  }
  return counts;
}

function emptyGroup(): JudgmentGroupCounts {
  return {
    classes: undefined,
    preferred: undefined,
    levels: undefined,
    fulfilledRet: 0,
    possibleRet: 0,
    fulfilledImp: 0,
    possibleImp: 0,
    possibleNotRetrieved: 0,
    numRel: 0,
    numRelRet: 0,
    numNonrel: 0,
    numNonrelRet: 0,
  };
}

/** form_jg_ec and add_ec_pref_to_jg: rows sorted by decreasing level, then rank. */
function equivalenceClassGroup(rows: readonly RankedJudgment[], counts: PrefsCounts): JudgmentGroupCounts {
  const classes: EquivalenceClass[] = [];
  for (const row of rows) {
    const last = classes[classes.length - 1];
    if (last !== undefined && last.level === row.level) last.ranks.push(row.rank);
    else classes.push({ level: row.level, ranks: [row.rank] });
  }
  const group = emptyGroup();
  group.classes = classes;
  const { numJudged: n, numJudgedRet: ret, pairCounts } = counts;
  for (let c1 = 0; c1 < classes.length; c1++) {
    const ranks1 = classes[c1]!.ranks;
    const retrieved = retrievedPrefix(ranks1, ret);
    if (classes[c1]!.level > 0) {
      group.numRelRet += retrieved;
      group.numRel += ranks1.length;
    } else {
      group.numNonrelRet += retrieved;
      group.numNonrel += ranks1.length;
    }
    for (let c2 = c1 + 1; c2 < classes.length; c2++) {
      for (const r1 of ranks1) {
        for (const r2 of classes[c2]!.ranks) {
          pairCounts[r1 * n + r2]!++;
          if (r1 === r2) throw new PrefsError(`document with docid rank ${r1} has two levels in the same judgment sub-group`);
          if (r1 < r2) {
            if (r2 < ret) group.fulfilledRet++;
            else if (r1 < ret) group.fulfilledImp++;
            else group.possibleNotRetrieved++;
          } else if (r1 < ret) group.possibleRet++;
          else if (r2 < ret) group.possibleImp++;
          else group.possibleNotRetrieved++;
        }
      }
    }
  }
  group.possibleRet += group.fulfilledRet;
  group.possibleImp += group.fulfilledImp;
  return group;
}

/** How many of increasing docid ranks are retrieved (below `numJudgedRet`). */
export function retrievedPrefix(ranks: readonly number[], numJudgedRet: number): number {
  let i = 0;
  while (i < ranks.length && ranks[i]! < numJudgedRet) i++;
  return i;
}

/** form_jg_pa, add_transitives and add_pa_pref_to_jg: rows sorted by sub-group, decreasing level, rank. */
function preferenceArrayGroup(rows: readonly RankedJudgment[], counts: PrefsCounts): JudgmentGroupCounts {
  const { numJudged: n, numJudgedRet: ret, pairCounts } = counts;
  const preferred = new Uint8Array(n * n);
  const levels = new Float32Array(n).fill(-1);
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!;
    const known = levels[row.rank]!;
    if ((known > 0 && row.level === 0) || (known === 0 && row.level > 0)) {
      throw new PrefsError(`document '${row.docId}' has both 0 and non-0 rel_level in judgment group '${row.jg}'`);
    }
    levels[row.rank] = row.level;
    let j = i + 1;
    while (j < rows.length && rows[j]!.jsg === row.jsg && rows[j]!.level === row.level) j++;
    for (; j < rows.length && rows[j]!.jsg === row.jsg; j++) preferred[row.rank * n + rows[j]!.rank] = 1;
  }
  closeTransitively(preferred, n);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < i; j++) {
      if (preferred[i * n + j] && preferred[j * n + i]) {
        throw new PrefsError(`inconsistent preferences in judgment group '${rows[0]!.jg}': docid ranks ${j} and ${i} are each preferred to the other`);
      }
    }
  }

  const group = emptyGroup();
  group.preferred = preferred;
  group.levels = levels;
  for (let i = 0; i < n; i++) {
    const level = levels[i]!;
    if (level > 0) {
      group.numRel++;
      if (i < ret) group.numRelRet++;
    } else if (level === 0) {
      group.numNonrel++;
      if (i < ret) group.numNonrelRet++;
    }
  }
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      if (!preferred[i * n + j]) continue;
      pairCounts[i * n + j]!++;
      if (i < ret) {
        if (j < i) group.possibleRet++;
        else if (j < ret) group.fulfilledRet++;
        else group.fulfilledImp++;
      } else if (j < ret) group.possibleImp++;
      else group.possibleNotRetrieved++;
    }
  }
  group.possibleRet += group.fulfilledRet;
  group.possibleImp += group.fulfilledImp;
  return group;
}

/**
 * Transitive closure without the diagonal. trec_eval multiplies the array (diagonal set) by itself until it
 * stops changing; Warshall's algorithm reaches the same closure in one O(n³) pass.
 */
function closeTransitively(preferred: Uint8Array, n: number): void {
  for (let k = 0; k < n; k++) {
    for (let i = 0; i < n; i++) {
      if (i === k || !preferred[i * n + k]) continue;
      const row = i * n;
      const from = k * n;
      for (let j = 0; j < n; j++) if (preferred[from + j]) preferred[row + j] = 1;
    }
  }
  for (let i = 0; i < n; i++) preferred[i * n + i] = 0;
}
