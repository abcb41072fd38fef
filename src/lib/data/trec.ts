import { formatFixed } from './c-format.ts';
import { compareTrecHits } from '../hits/trec-order.ts';
import type { Hit, Qrels, Run } from '../types.ts';
import { ParseError } from './errors.ts';
import { readLines, type ByteSource, type ReadLinesOptions } from './lines.ts';

/**
 * TREC qrels and run files, read the way trec_eval 9.0.8 reads them (get_qrels.c, get_trec_results.c):
 * - fields are separated by runs of C `isspace` characters (space, tab, \v, \f, \r);
 * - qrels lines are `qid iter docid grade`, exactly four fields; the iter field is ignored;
 * - run lines are `qid iter docid rank score tag`, at least six fields; iter and rank are ignored (the
 *   evaluation re-ranks by score), anything after the tag is ignored (trec_eval's results.trunc has such
 *   junk); trec_eval's `runid` is the tag of the LAST line;
 * - a line whose first non-blank character is `#` is a comment, blank lines are skipped.
 *
 * Deliberate differences, all on input trec_eval mishandles or rejects with a vaguer message:
 * - trec_eval's qrels reader only recognizes `#` in column 0 and not on two consecutive lines (the second
 *   comment would be read as a judgment of query "#"), and rejects blank qrels lines; here both are
 *   simply skipped;
 * - a grade must be an integer (optional sign, digits) and a score a decimal number (exponent allowed, or
 *   inf/infinity): trec_eval's `atol`/`atof` silently read "1.5" as grade 1 and "abc" as 0;
 * - a document retrieved twice for a query, or judged twice, is rejected while reading, naming both
 *   lines. trec_eval rejects both too ("duplicate docs"), but only when it evaluates that query and, for
 *   runs, only when both copies are within the `-M` cutoff.
 */

/** What a run file holds besides the rankings. */
export interface TrecRun {
  /** Rankings by query id, each sorted as trec_eval reads it (score desc, then docid desc). */
  run: Run;
  /** Distinct tags in order of first appearance. */
  tags: string[];
  /** Tag of the last line: what trec_eval prints as `runid`. Undefined for an empty file. */
  runId: string | undefined;
}

/** Field separators: C `isspace` in the "C" locale, minus the newline that ends the line. */
const SEPARATORS = /[ \t\v\f\r]+/;
const INTEGER = /^[+-]?\d+$/;
/** A decimal number as C `atof` reads it whole (exponent allowed, or inf/infinity). */
export const FLOAT = /^[+-]?(?:(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?|inf|infinity)$/i;

/** Whether a UTF-16 code unit is one of SEPARATORS. */
function isSeparator(code: number): boolean {
  return code === 0x20 || (code >= 0x09 && code <= 0x0d && code !== 0x0a);
}

/** Fields of a data line, or undefined for a blank or comment line. */
export function fieldsOf(text: string): string[] | undefined {
  // Most lines (runs of a million lines) have no space at either end: no trimming pass for them.
  const trimmed = isSeparator(text.charCodeAt(0)) ? text.replace(/^[ \t\v\f\r]+/, '') : text;
  if (trimmed === '' || trimmed.charCodeAt(0) === 0x23 /* # */) return undefined;
  return (isSeparator(trimmed.charCodeAt(trimmed.length - 1)) ? trimmed.replace(/[ \t\v\f\r]+$/, '') : trimmed).split(SEPARATORS);
}

/** Reads a TREC qrels file (`qid iter docid grade`). Throws ParseError on malformed input. */
export async function readTrecQrels(source: ByteSource, options: ReadLinesOptions): Promise<Qrels> {
  const qrels: Qrels = new Map();
  for await (const { qid, docId, grade } of judgmentLines(source, options, 'iter')) {
    let judgments = qrels.get(qid);
    if (!judgments) qrels.set(qid, (judgments = new Map()));
    judgments.set(docId, grade);
  }
  return qrels;
}

/** Judgments per query, per judgment group, per document: trec_eval's `qrels_jg` format. */
export type QrelsJg = Map<string, Map<string, Map<string, number>>>;

/**
 * Reads trec_eval's `qrels_jg` format (get_qrels_jg.c): qrels lines whose second field names a judgment
 * group (one assessor's judgments), `qid jg docid grade`. A document may be judged once per group.
 */
export async function readTrecQrelsJg(source: ByteSource, options: ReadLinesOptions): Promise<QrelsJg> {
  const qrels: QrelsJg = new Map();
  for await (const { qid, group, docId, grade } of judgmentLines(source, options, 'jg')) {
    let groups = qrels.get(qid);
    if (!groups) qrels.set(qid, (groups = new Map()));
    let judgments = groups.get(group);
    if (!judgments) groups.set(group, (judgments = new Map()));
    judgments.set(docId, grade);
  }
  return qrels;
}

/** One qrels from judgment groups: every judged query, each document with its first group's grade. */
export function mergeJudgmentGroups(groups: QrelsJg): Qrels {
  const qrels: Qrels = new Map();
  for (const [qid, byGroup] of groups) {
    const judgments = new Map<string, number>();
    for (const group of byGroup.values()) for (const [docId, grade] of group) if (!judgments.has(docId)) judgments.set(docId, grade);
    qrels.set(qid, judgments);
  }
  return qrels;
}

/**
 * The judgments of a qrels file, line by line; a document judged twice for the same query (and, for
 * `qrels_jg`, the same group) is refused naming both lines.
 */
async function* judgmentLines(
  source: ByteSource,
  options: ReadLinesOptions,
  second: 'iter' | 'jg',
): AsyncGenerator<{ qid: string; group: string; docId: string; grade: number }> {
  const { file } = options;
  const firstLine = new Map<string, number>();
  for await (const line of readLines(source, options)) {
    const fields = fieldsOf(line.text);
    if (!fields) continue;
    if (fields.length !== 4) {
      throw new ParseError(
        file,
        line.number,
        'invalid-columns',
        `expected 4 fields "qid ${second} docid grade", found ${fields.length}`,
      );
    }
    const [qid, groupField, docId, gradeText] = fields as [string, string, string, string];
    if (!INTEGER.test(gradeText) || !Number.isSafeInteger(Number(gradeText))) {
      throw new ParseError(file, line.number, 'invalid-number', `relevance grade "${gradeText}" is not an integer`);
    }
    const group = second === 'jg' ? groupField : '';
    const key = `${qid}\u0000${group}\u0000${docId}`;
    const previous = firstLine.get(key);
    if (previous !== undefined) {
      const where = second === 'jg' ? `query ${qid} in judgment group ${group}` : `query ${qid}`;
      throw new ParseError(file, line.number, 'duplicate-id', `document ${docId} is judged twice for ${where} (first on line ${previous})`);
    }
    firstLine.set(key, line.number);
    yield { qid, group, docId, grade: Number(gradeText) };
  }
}

/** Reads a TREC run file (`qid Q0 docid rank score tag`). Throws ParseError on malformed input. */
export async function readTrecRun(source: ByteSource, options: ReadLinesOptions): Promise<TrecRun> {
  const { file } = options;
  const run: Run = new Map();
  const tags: string[] = [];
  const seenTags = new Set<string>();
  const firstLine = new Map<string, Map<string, number>>();
  let runId: string | undefined;
  for await (const line of readLines(source, options)) {
    const fields = fieldsOf(line.text);
    if (!fields) continue;
    if (fields.length < 6) {
      throw new ParseError(
        file,
        line.number,
        'invalid-columns',
        `expected 6 fields "qid Q0 docid rank score tag", found ${fields.length}`,
      );
    }
    const [qid, , docId, , scoreText, tag] = fields as [string, string, string, string, string, string];
    if (!FLOAT.test(scoreText)) {
      throw new ParseError(file, line.number, 'invalid-number', `score "${scoreText}" is not a number`);
    }
    let lines = firstLine.get(qid);
    if (!lines) {
      lines = new Map();
      firstLine.set(qid, lines);
      run.set(qid, []);
    }
    const previous = lines.get(docId);
    if (previous !== undefined) {
      throw new ParseError(file, line.number, 'duplicate-id', `document ${docId} is retrieved twice for query ${qid} (first on line ${previous})`);
    }
    lines.set(docId, line.number);
    run.get(qid)!.push({ docId, score: parseScore(scoreText) });
    if (!seenTags.has(tag)) {
      seenTags.add(tag);
      tags.push(tag);
    }
    runId = tag;
  }
  for (const hits of run.values()) hits.sort(compareTrecHits);
  return { run, tags, runId };
}

/** A number matching {@link FLOAT} (inf and infinity included). */
export function parseScore(text: string): number {
  // Number() reads every decimal form FLOAT admits; only inf and infinity (any case, signed) are left.
  const value = Number(text);
  if (!Number.isNaN(value)) return value;
  const lower = text.toLowerCase().replace(/^\+/, '');
  if (lower === 'inf' || lower === 'infinity') return Infinity;
  if (lower === '-inf' || lower === '-infinity') return -Infinity;
  return Number(text);
}

export interface FormatTrecRunOptions {
  /**
   * Print scores with this many decimals (Pyserini writes `{score:.6f}`; ties created by rounding are then
   * broken by docid when the file is evaluated). Default: the shortest text that reads back as the same
   * number, so evaluating the file gives exactly the in-memory ranking.
   */
  decimals?: number;
}

/**
 * The whole run file as one string: lines `qid Q0 docid rank score tag` (Pyserini's TREC output format),
 * queries in insertion order, hits in trec_eval's order (score desc, docid desc) with 1-based ranks matching
 * that order, so the rank column agrees with how trec_eval will read the file. Ids and the tag must not
 * contain whitespace. It is built one string per query, not through a generator step and a string per line,
 * which is slower for runs of 300 × 1,000 hits.
 */
export function formatTrecRun(run: Run, tag: string, options: FormatTrecRunOptions = {}): string {
  assertToken(tag, 'run tag');
  return Array.from(run, ([qid, hits]) => queryLines(qid, hits, tag, options.decimals)).join('');
}

/** One query's lines of {@link formatTrecRun}. */
function queryLines(qid: string, hits: readonly Hit[], tag: string, decimals: number | undefined): string {
  assertToken(qid, 'query id');
  const sorted: Hit[] = [...hits].sort(compareTrecHits);
  const head = `${qid} Q0 `;
  const tail = ` ${tag}\n`;
  let text = '';
  for (let i = 0; i < sorted.length; i++) {
    const hit = sorted[i]!;
    assertToken(hit.docId, 'document id');
    text += head + hit.docId + ' ' + (i + 1) + ' ' + formatScore(hit.score, decimals) + tail;
  }
  return text;
}

function formatScore(score: number, decimals: number | undefined): string {
  if (decimals !== undefined) return formatFixed(score, decimals);
  if (Number.isNaN(score)) throw new RangeError('a score is NaN, which a TREC run cannot order');
  if (score === Infinity) return 'inf';
  if (score === -Infinity) return '-inf';
  return Object.is(score, -0) ? '-0' : String(score);
}

function assertToken(value: string, what: string): void {
  if (value === '' || /[\s]/.test(value)) {
    throw new RangeError(`${what} ${JSON.stringify(value)} is empty or contains whitespace, which a TREC run cannot hold`);
  }
}
