import { ParseError } from './errors.ts';
import { readLines, type ByteSource, type ReadLinesOptions } from './lines.ts';
import type { Qrels } from '../types.ts';
import { FLOAT, fieldsOf, parseScore } from './trec.ts';

/**
 * trec_eval 9.0.8's preference judgments (get_prefs.c, get_qrels_prefs.c):
 * - `-R prefs`: lines `qid jg jsg docid rel_level`. Within a judgment sub-group (jsg) every document is
 *   preferred to every document with a lower rel_level; a judgment group (jg, one user's information need)
 *   joins its sub-groups transitively; rel_level 0 means non-relevant;
 * - `-R qrels_prefs`: an ordinary qrels file read as preferences, `qid jg docid rel_level`, its second
 *   column naming the judgment group and every group having the one sub-group "0".
 * rel_level is read as C reads it into a `float` (atof, then single precision), so levels compare as
 * trec_eval compares them. Same conventions as trec.ts (blank and `#` lines skipped); a document listed
 * twice in the same sub-group is refused naming both lines (trec_eval either stops on it or counts it twice).
 */

/** One preference line. */
export interface PrefJudgment {
  /** Judgment group: one user's consistent preferences. */
  jg: string;
  /** Judgment sub-group: the documents ranked against each other by `level`. */
  jsg: string;
  docId: string;
  /** rel_level as a C float: higher is preferred; 0 is non-relevant. */
  level: number;
}

/** Preference lines per query id, in file order. */
export type Prefs = Map<string, PrefJudgment[]>;

/** Reads trec_eval's `prefs` format (`qid jg jsg docid rel_level`). Throws ParseError on malformed input. */
export function readTrecPrefs(source: ByteSource, options: ReadLinesOptions): Promise<Prefs> {
  return readPreferences(source, options, 'qid jg jsg docid rel_level');
}

/** Reads a qrels file as trec_eval's `qrels_prefs` format (`qid jg docid rel_level`, one sub-group "0"). */
export function readTrecQrelsPrefs(source: ByteSource, options: ReadLinesOptions): Promise<Prefs> {
  return readPreferences(source, options, 'qid jg docid rel_level');
}

async function readPreferences(source: ByteSource, options: ReadLinesOptions, layout: string): Promise<Prefs> {
  const { file } = options;
  const columns = layout.split(' ').length;
  const prefs: Prefs = new Map();
  const firstLine = new Map<string, number>();
  for await (const line of readLines(source, options)) {
    const fields = fieldsOf(line.text);
    if (!fields) continue;
    if (fields.length !== columns) {
      throw new ParseError(file, line.number, 'invalid-columns', `expected ${columns} fields "${layout}", found ${fields.length}`);
    }
    const [qid, jg, jsg, docId, levelText] = columns === 5 ? (fields as [string, string, string, string, string]) : [fields[0]!, fields[1]!, '0', fields[2]!, fields[3]!];
    if (!FLOAT.test(levelText)) {
      throw new ParseError(file, line.number, 'invalid-number', `rel_level "${levelText}" is not a number`);
    }
    const key = `${qid}\u0000${jg}\u0000${jsg}\u0000${docId}`;
    const previous = firstLine.get(key);
    if (previous !== undefined) {
      const group = columns === 5 ? `judgment group ${jg}, sub-group ${jsg}` : `judgment group ${jg}`;
      throw new ParseError(file, line.number, 'duplicate-id', `document ${docId} is judged twice for query ${qid} in ${group} (first on line ${previous})`);
    }
    firstLine.set(key, line.number);
    let judgments = prefs.get(qid);
    if (!judgments) prefs.set(qid, (judgments = []));
    judgments.push({ jg, jsg, docId, level: Math.fround(parseScore(levelText)) });
  }
  return prefs;
}

/**
 * Qrels as trec_eval's `-R qrels_prefs` reads a qrels file whose second column is always 0 (the form
 * Qrels keep): one judgment group per query, each document preferred to those with a lower grade.
 */
export function qrelsAsPrefs(qrels: Qrels): Prefs {
  const prefs: Prefs = new Map();
  for (const [qid, judgments] of qrels) {
    prefs.set(qid, [...judgments].map(([docId, grade]) => ({ jg: '0', jsg: '0', docId, level: Math.fround(grade) })));
  }
  return prefs;
}
