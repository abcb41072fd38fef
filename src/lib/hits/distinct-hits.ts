import type { Hit } from '../types.ts';

/**
 * Hit lists known to name each document once, because the code that made them checked it where that was
 * cheap, or could not make a duplicate. trec_eval refuses a ranking that names a document twice, so
 * `rankForEvaluation` checks every list it is given, with a Set of up to 1,000 ids per query; in a page
 * profile of an evaluation (3 columns × 300 queries) that check was one of the largest items, for lists
 * the engine had made distinct already. Marked lists skip it; every other list (a run file, a stored run)
 * is checked as before.
 */
const distinct = new WeakSet<readonly Hit[]>();

/** Marks `hits` as naming each document once; the caller vouches for it. */
export function markDistinct<T extends readonly Hit[]>(hits: T): T {
  distinct.add(hits);
  return hits;
}

export function knownDistinct(hits: readonly Hit[]): boolean {
  return distinct.has(hits);
}
