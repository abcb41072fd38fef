import type { Hit } from '../types.ts';
import { knownDistinct } from './distinct-hits.ts';
import { hitsOf, isRowRanking, rowStamp, type RankedList, type RowRanking } from './row-ranking.ts';

/**
 * The order in which trec_eval reads a ranking (form_res_rels.c, `comp_sim_docno`): score descending,
 * ties broken by document id in DECREASING `strcmp` order. The rank column of a run file is ignored.
 * Pyserini prints scores with 6 decimals, so ties are common and this rule decides real numbers.
 */

/**
 * `strcmp` on the UTF-8 bytes of two strings: negative, zero or positive. UTF-8 byte order equals code
 * point order, which differs from JavaScript's UTF-16 `<` only between surrogate pairs and U+E000–U+FFFF;
 * the remap below moves surrogates above U+FFFF so code units compare as code points.
 */
export function compareStrcmp(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return codePointOrder(x) - codePointOrder(y);
  }
  return a.length - b.length;
}

function codePointOrder(unit: number): number {
  if (unit < 0xd800) return unit;
  return unit >= 0xe000 ? unit - 0x800 : unit + 0x2000;
}

/** trec_eval's ranking order: higher score first, then document id in decreasing strcmp order. */
export function compareTrecHits(a: Hit, b: Hit): number {
  if (a.score > b.score) return -1;
  if (a.score < b.score) return 1;
  return compareStrcmp(b.docId, a.docId);
}

/**
 * The order of form_prefs_counts.c (`comp_sim_docno`, preference measures): higher score first, then
 * document id in INCREASING strcmp order — the opposite tie order to {@link compareTrecHits}.
 */
export function compareTrecPrefsHits(a: Hit, b: Hit): number {
  if (a.score > b.score) return -1;
  if (a.score < b.score) return 1;
  return compareStrcmp(a.docId, b.docId);
}

/** Thrown when a ranking names the same document twice, which trec_eval refuses ("duplicate docs"). */
export class DuplicateDocumentError extends Error {
  override readonly name = 'DuplicateDocumentError';

  constructor(
    readonly queryId: string,
    readonly docId: string,
  ) {
    super(`query ${queryId}: document ${docId} is retrieved twice`);
  }
}

/**
 * The document ids trec_eval evaluates for one query: hits sorted by {@link compareTrecHits}, cut to the
 * first `maxDocs` (`-M`), then checked for duplicates — after the cut, as form_res_rels.c does, so a
 * duplicate below the `-M` cutoff is tolerated exactly when trec_eval tolerates it. `compare` is
 * {@link compareTrecPrefsHits} for the preference measures.
 *
 * The whole ranking of a hit list in trec_eval's order is remembered (weakly, with the list): the dashboard
 * evaluates the same run for its report, its `-M 10` measure and judged@10, and ranking 1,000 hits — the
 * duplicate check above all — cost more than the measures. The returned array is shared: callers must not
 * modify it. A ranking of rows (row-ranking.ts) is read from its table and typed arrays, with no hit object.
 */
export function rankForEvaluation(queryId: string, list: RankedList, maxDocs = Infinity, compare = compareTrecHits): string[] {
  if (isRowRanking(list)) {
    // The preference measures' tie order is rare enough to rank hit objects.
    if (compare !== compareTrecHits) return rankForEvaluation(queryId, hitsOf(list), maxDocs, compare);
    let whole = rankedRows.get(list);
    if (whole === undefined) rankedRows.set(list, (whole = rankRows(list)));
    const { docIds, duplicateAt } = whole;
    // Checked after the cut, as for hits: a duplicate below `-M` is tolerated exactly when trec_eval tolerates it.
    if (duplicateAt < Math.min(maxDocs, docIds.length)) throw new DuplicateDocumentError(queryId, docIds[duplicateAt]!);
    return docIds.length > maxDocs ? docIds.slice(0, Math.max(0, maxDocs)) : docIds;
  }
  const hits = list;
  const remembered = compare === compareTrecHits;
  const whole = remembered ? rankedWhole.get(hits) : undefined;
  if (whole !== undefined) return whole.length > maxDocs ? whole.slice(0, Math.max(0, maxDocs)) : whole;
  // Rankings from the playground's retrievers arrive in this order already: checking is linear.
  const sorted = inOrder(hits, compare) ? hits : [...hits].sort(compare);
  const cut = sorted.length > maxDocs;
  const kept = cut ? sorted.slice(0, Math.max(0, maxDocs)) : sorted;
  const docIds = kept.map((hit) => hit.docId);
  // A list known to be distinct (distinct-hits.ts) is not checked twice; a cut of it is distinct too.
  if (!knownDistinct(hits)) assertNoDuplicate(queryId, docIds);
  if (!cut && remembered) rankedWhole.set(hits, docIds);
  return docIds;
}

function assertNoDuplicate(queryId: string, docIds: readonly string[]): void {
  const seen = new Set<string>();
  for (const docId of docIds) {
    if (seen.has(docId)) throw new DuplicateDocumentError(queryId, docId);
    seen.add(docId);
  }
}

const rankedWhole = new WeakMap<readonly Hit[], string[]>();
const rankedRows = new WeakMap<RowRanking, { docIds: string[]; duplicateAt: number }>();

/**
 * The whole ranking of rows in trec_eval's order (sorted only when it is not in that order already), and
 * the first position that repeats a document (Infinity: none), found by row since a table names each
 * document once.
 */
function rankRows(list: RowRanking): { docIds: string[]; duplicateAt: number } {
  const { table, rows, scores } = list;
  let order: number[] | undefined;
  for (let i = 1; i < rows.length; i++) {
    const a = scores[i - 1]!;
    const b = scores[i]!;
    if (a > b) continue;
    // Equal scores (and NaN, as compareTrecHits treats it) are ordered by decreasing id.
    if (a < b || compareStrcmp(table[rows[i]!]!, table[rows[i - 1]!]!) > 0) {
      order = Array.from(rows.keys()).sort((x, y) => compareTrecHits({ docId: table[rows[x]!]!, score: scores[x]! }, { docId: table[rows[y]!]!, score: scores[y]! }));
      break;
    }
  }
  const { seen, stamp } = rowStamp(table.length);
  const docIds: string[] = new Array(rows.length);
  let duplicateAt = Infinity;
  for (let i = 0; i < rows.length; i++) {
    const row = rows[order === undefined ? i : order[i]!]!;
    if (seen[row] === stamp && duplicateAt === Infinity) duplicateAt = i;
    seen[row] = stamp;
    docIds[i] = table[row]!;
  }
  return { docIds, duplicateAt };
}

function inOrder(hits: readonly Hit[], compare: (a: Hit, b: Hit) => number): boolean {
  for (let i = 1; i < hits.length; i++) if (compare(hits[i - 1]!, hits[i]!) > 0) return false;
  return true;
}
