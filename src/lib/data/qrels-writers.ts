import { compareStrcmp } from '../hits/trec-order.ts';
import type { Qrels } from '../types.ts';
import { QRELS_HEADER } from './qrels.ts';

/**
 * Qrels written in the two formats the readers take (trec.ts `readTrecQrels`, qrels.ts `readQrels`), so
 * that judgments made in the playground leave it for trec_eval, Pyserini, ir_measures and BEIR's loader,
 * and come back unchanged:
 * - TREC: `qid 0 docid grade` per line, single spaces, the iteration field always 0 (trec_eval ignores it);
 * - BEIR: the header `query-id\tcorpus-id\tscore`, then `qid\tdocid\tgrade` per line (BEIR's loader skips
 *   line 1 without looking at it, so the header is always written).
 *
 * Order: queries in the order of the map, each query's documents in the order of its map — the readers
 * build the maps in file order, so read → write → read gives equal maps in equal order, and
 * write → read → write gives the same bytes. For an order independent of how the judgments were made,
 * pass {@link sortedQrels} (query ids, then document ids, in `strcmp` order, as trec_eval sorts them).
 * A query with no judgment has no line in either format and is left out (so qrels without any judgment
 * give an empty TREC file and a BEIR header alone, which the BEIR reader refuses as holding no
 * judgments). Every line ends with `\n`.
 *
 * Ids the format cannot carry, and non-integer grades, throw a RangeError naming the query and document
 * (a TREC id cannot hold white space, nor can a TREC query id start with `#`, which the reader takes for
 * a comment; a BEIR id cannot hold a tab or line break; no id may be empty).
 */

/** TREC qrels text: `qid 0 docid grade` lines. */
export function formatTrecQrels(qrels: Qrels): string {
  const lines: string[] = [];
  for (const [qid, judgments] of qrels) {
    for (const [docId, grade] of judgments) {
      checkJudgment(qid, docId, grade, TREC_FORBIDDEN, 'white space');
      if (qid.startsWith('#')) throw new RangeError(`query id ${JSON.stringify(qid)} starts with '#', which a TREC qrels file reads as a comment`);
      lines.push(`${qid} 0 ${docId} ${grade}\n`);
    }
  }
  return lines.join('');
}

/** BEIR qrels TSV text: the header line, then `query-id\tcorpus-id\tscore` lines. */
export function formatBeirQrels(qrels: Qrels): string {
  const lines: string[] = [`${QRELS_HEADER}\n`];
  for (const [qid, judgments] of qrels) {
    for (const [docId, grade] of judgments) {
      checkJudgment(qid, docId, grade, BEIR_FORBIDDEN, 'a tab or line break');
      lines.push(`${qid}\t${docId}\t${grade}\n`);
    }
  }
  return lines.join('');
}

/** A copy with query ids, and each query's document ids, in `strcmp` order. */
export function sortedQrels(qrels: Qrels): Qrels {
  return new Map(
    [...qrels.keys()].sort(compareStrcmp).map((qid) => {
      const judgments = qrels.get(qid)!;
      return [qid, new Map([...judgments.keys()].sort(compareStrcmp).map((docId) => [docId, judgments.get(docId)!]))];
    }),
  );
}

/** C `isspace` (the TREC readers' field separators), plus the line break. */
const TREC_FORBIDDEN = /[ \t\n\v\f\r]/;
const BEIR_FORBIDDEN = /[\t\n\r]/;

function checkJudgment(qid: string, docId: string, grade: number, forbidden: RegExp, what: string): void {
  for (const [name, id] of [['query id', qid], ['document id', docId]] as const) {
    if (id === '' || forbidden.test(id)) {
      throw new RangeError(`${name} ${JSON.stringify(id)} (query ${JSON.stringify(qid)}) is empty or contains ${what}, which this qrels format cannot hold`);
    }
  }
  if (!Number.isSafeInteger(grade)) {
    throw new RangeError(`query ${qid}, document ${docId}: grade ${grade} is not an integer, which qrels cannot hold`);
  }
}
