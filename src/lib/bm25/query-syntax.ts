/**
 * The weighted query syntax of the query box and the CLI: a query is a weighted bag of index terms, the
 * `w(q) ⊙ (bow(q) + a(q))` of "BM25 query augmentation" (../shared/papers/bm25-query-augmentation.txt),
 * written in Lucene's boost notation:
 *
 *   plain words     analyzed with the column's analyzer; each term weighs 1, repeats add up (Anserini's
 *                   bag of words: a term's weight is its count)
 *   word^2.5        a boosted word: every term the word analyzes to weighs 2.5 (Lucene's classic query
 *                   parser `term^boost`; the boost is digits with an optional fraction, read with Java's
 *                   `Float.parseFloat`, i.e. the decimal correctly rounded to float)
 *   +term^0.5       an added (augmentation, expansion) term: an index term taken verbatim, not analyzed —
 *                   what RM3, Bo1 or a learned augmentation produce; without `^w` it weighs 1. Several may
 *                   share a line. `\` escapes the next character in it (`+a\^b`, `+two\ words`)
 *
 * A term given more than once gets the sum of its weights — Lucene's own rule: the query is a BooleanQuery
 * of `BoostQuery(TermQuery(t), w)` clauses, and `BooleanQuery.rewrite` merges duplicate SHOULD clauses by
 * adding their float boosts in double and rounding the sum to float. So `a^2 a +a^0.5` weighs a 3.5, and a
 * query without `^` or `+` gives exactly the bag `bagOfTerms(analyze(text))`, scores bit for bit as before.
 * The clause of a term weighing w scores `w · idf` as BM25's weight (`bm25Weight`, float).
 *
 * Parsing never throws on user input: a token whose syntax is malformed (`a^`, `a^-1`, `^2`, `+a^x`) is
 * read as plain text, as it was before the syntax existed, and reported with its line and column; a word
 * the analyzer drops (a stop word, punctuation) is reported as dropped. `formatWeightedQuery` writes a bag
 * back as canonical syntax (`+term^w` tokens, shortest weights that read back to the same float) for URLs;
 * parsing it returns the same bag.
 */
import type { Analyzer } from '../analysis/analyzer.ts';
import { boostProblem, type QueryTermWeight } from './bm25-query.ts';

/** Where something sits in the query text: 1-based line and column (UTF-16 units), 0-based offset. */
export interface QueryTextPosition {
  line: number;
  column: number;
  offset: number;
}

/** A word the analyzer turns into no term at all, so the query does not use it. */
export interface DroppedWord extends QueryTextPosition {
  /** The word as typed (with its `^boost`, if any). */
  text: string;
  /** True when it carried a boost (`the^2`): the boost is lost too. */
  boosted: boolean;
}

/** Malformed syntax; the token is read as plain text instead. */
export interface QuerySyntaxError extends QueryTextPosition {
  text: string;
  message: string;
}

/** Something worth knowing that is not an error (an added term the analyzer would have changed). */
export interface QuerySyntaxNote extends QueryTextPosition {
  text: string;
  message: string;
}

export interface ParsedQuery {
  /** Distinct terms in order of first occurrence, each with its summed weight (a float32 ≥ 0). */
  terms: QueryTermWeight[];
  /** Words that give no term. */
  dropped: DroppedWord[];
  /** Malformed tokens (read as plain text). */
  errors: QuerySyntaxError[];
  notes: QuerySyntaxNote[];
}

/** Lucene classic query parser's NUMBER token: digits, optionally a point and more digits. */
const BOOST = /^[0-9]+(\.[0-9]+)?$/;

interface RawToken {
  start: number;
  end: number;
}

/** Whitespace-separated tokens; `\` joins the next character (even whitespace) to the token. */
function scanTokens(text: string): RawToken[] {
  const tokens: RawToken[] = [];
  let start = -1;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (/\s/.test(ch)) {
      if (start >= 0) tokens.push({ start, end: i });
      start = -1;
      continue;
    }
    if (start < 0) start = i;
    if (ch === '\\' && i + 1 < text.length) i++;
  }
  if (start >= 0) tokens.push({ start, end: text.length });
  return tokens;
}

/** The token's text with escapes removed, and where its last unescaped `^` was in that text (or -1). */
function unescape(raw: string): { text: string; caret: number } {
  let text = '';
  let caret = -1;
  for (let i = 0; i < raw.length; i++) {
    const ch = raw[i]!;
    if (ch === '\\' && i + 1 < raw.length) {
      text += raw[++i]!;
    } else {
      if (ch === '^') caret = text.length;
      text += ch;
    }
  }
  return { text, caret };
}

type Classified =
  | { kind: 'plain' }
  | { kind: 'boosted'; word: string; weight: number }
  | { kind: 'added'; term: string; weight: number }
  | { kind: 'malformed'; message: string };

/** The weight of `^boost` text, or an error message. */
function readBoost(boost: string): number | string {
  if (!BOOST.test(boost)) return `"^${boost}" is not a boost: write digits with an optional fraction, such as ^2 or ^0.5`;
  const weight = parseLuceneFloat(boost);
  const problem = boostProblem(weight);
  return problem === null ? weight : `"^${boost}": ${problem}`;
}

function classify(raw: string): Classified {
  const { text, caret } = unescape(raw);
  if (raw.startsWith('+') && raw.length > 1) {
    const term = caret >= 0 ? text.slice(1, caret) : text.slice(1);
    if (term === '') return { kind: 'malformed', message: '"+" must be followed by a term, as in +term or +term^0.5' };
    if (caret < 0) return { kind: 'added', term, weight: 1 };
    const weight = readBoost(text.slice(caret + 1));
    return typeof weight === 'string' ? { kind: 'malformed', message: weight } : { kind: 'added', term, weight };
  }
  if (caret < 0) return { kind: 'plain' };
  const word = text.slice(0, caret);
  if (word === '') return { kind: 'malformed', message: 'a boost needs a word before "^", as in word^2' };
  const weight = readBoost(text.slice(caret + 1));
  return typeof weight === 'string' ? { kind: 'malformed', message: weight } : { kind: 'boosted', word, weight };
}

function positionFinder(text: string): (offset: number) => QueryTextPosition {
  const lineStarts = [0];
  for (let i = 0; i < text.length; i++) if (text[i] === '\n') lineStarts.push(i + 1);
  return (offset) => {
    let line = 0;
    while (line + 1 < lineStarts.length && lineStarts[line + 1]! <= offset) line++;
    return { line: line + 1, column: offset - lineStarts[line]! + 1, offset };
  };
}

/**
 * Parses the weighted query syntax (see the module comment) with `analyzer` for plain and boosted words.
 * Plain words are analyzed as runs of text between syntax tokens, so text without syntax is analyzed
 * exactly as a whole.
 */
export function parseWeightedQuery(text: string, analyzer: Pick<Analyzer, 'analyze'>): ParsedQuery {
  const at = positionFinder(text);
  const occurrences: QueryTermWeight[] = [];
  const parsed: ParsedQuery = { terms: [], dropped: [], errors: [], notes: [] };
  let runStart = -1;
  let runEnd = -1;
  const flushRun = () => {
    if (runStart < 0) return;
    for (const term of analyzer.analyze(text.slice(runStart, runEnd))) occurrences.push({ term, weight: 1 });
    runStart = -1;
  };

  for (const { start, end } of scanTokens(text)) {
    const raw = text.slice(start, end);
    const token = classify(raw);
    if (token.kind === 'plain' || token.kind === 'malformed') {
      if (token.kind === 'malformed') parsed.errors.push({ ...at(start), text: raw, message: `${token.message}; read as plain text` });
      if (analyzer.analyze(raw).length === 0) parsed.dropped.push({ ...at(start), text: raw, boosted: false });
      if (runStart < 0) runStart = start;
      runEnd = end;
      continue;
    }
    flushRun();
    if (token.kind === 'boosted') {
      const terms = analyzer.analyze(token.word);
      if (terms.length === 0) parsed.dropped.push({ ...at(start), text: raw, boosted: true });
      for (const term of terms) occurrences.push({ term, weight: token.weight });
    } else {
      const analyzed = analyzer.analyze(token.term);
      if (analyzed.length !== 1 || analyzed[0] !== token.term) {
        const would = analyzed.length === 0 ? 'drops it' : `would make ${analyzed.map((t) => `"${t}"`).join(' ')}`;
        parsed.notes.push({ ...at(start), text: raw, message: `"${token.term}" is taken verbatim as an index term (the analyzer ${would})` });
      }
      occurrences.push({ term: token.term, weight: token.weight });
    }
  }
  flushRun();
  parsed.terms = sumWeights(occurrences, parsed.errors, at(text.length));
  return parsed;
}

/** The text a model without weights reads, and whether the text used the syntax at all. */
export interface PlainQueryText {
  text: string;
  /** True when some token was a boosted word or an added term (the text is then not a plain query). */
  weighted: boolean;
}

/**
 * The query with its weights and `+` markers stripped, for retrievers that read text rather than a bag of
 * terms (dense models): `word^2.5` → `word`, `+term^0.5` → `term` (escapes removed), malformed tokens and
 * plain words as typed, whitespace kept. Each word is read once, unweighted; an added term is an index term
 * (`+studi`), which such a model may not know. Text without syntax comes back unchanged.
 */
export function stripQuerySyntax(text: string): PlainQueryText {
  let out = '';
  let last = 0;
  let weighted = false;
  for (const { start, end } of scanTokens(text)) {
    const token = classify(text.slice(start, end));
    if (token.kind !== 'boosted' && token.kind !== 'added') continue;
    weighted = true;
    out += text.slice(last, start) + (token.kind === 'boosted' ? token.word : token.term);
    last = end;
  }
  return { text: weighted ? out + text.slice(last) : text, weighted };
}

/** `mergeQueryTermWeights` without throwing: a term whose weights overflow the float range is reported and left out. */
function sumWeights(occurrences: readonly QueryTermWeight[], errors: QuerySyntaxError[], end: QueryTextPosition): QueryTermWeight[] {
  const sums = new Map<string, number>();
  for (const { term, weight } of occurrences) sums.set(term, (sums.get(term) ?? 0) + Math.fround(weight));
  const terms: QueryTermWeight[] = [];
  for (const [term, sum] of sums) {
    const weight = Math.fround(sum);
    if (Number.isFinite(weight)) terms.push({ term, weight });
    else errors.push({ ...end, text: term, message: `the weights of "${term}" add up to more than the largest float; the term is left out` });
  }
  return terms;
}

/** Characters a verbatim term must escape to read back as one `+term` token. */
const ESCAPED = /[\\^\s]/g;

/**
 * Canonical syntax of a weighted bag: `+term` or `+term^w` tokens separated by spaces, in bag order, each
 * weight the shortest decimal that reads back to the same float. `parseWeightedQuery` of the result (with
 * any analyzer) gives the same bag, provided its terms are distinct and its weights float32 values ≥ 0.
 * Throws a RangeError for an empty term or a weight no clause can have (negative, NaN, infinite).
 */
export function formatWeightedQuery(terms: readonly QueryTermWeight[]): string {
  return terms
    .map(({ term, weight }) => {
      if (term === '') throw new RangeError('a query term cannot be empty');
      const escaped = term.replace(ESCAPED, (ch) => `\\${ch}`);
      return weight === 1 ? `+${escaped}` : `+${escaped}^${formatBoost(weight)}`;
    })
    .join(' ');
}

/** The shortest plain decimal (no exponent, Lucene's NUMBER form) that `parseLuceneFloat` reads as `fround(weight)`. */
export function formatBoost(weight: number): string {
  const problem = boostProblem(weight);
  if (problem !== null) throw new RangeError(problem);
  const target = Math.fround(weight);
  for (let digits = 1; digits <= 9; digits++) {
    const text = plainDecimal(target.toPrecision(digits));
    if (parseLuceneFloat(text) === target) return text;
  }
  // Unreachable: 9 significant digits identify every float32.
  return plainDecimal(target.toPrecision(17));
}

/** `1.5e-7` → `0.00000015`, `1e+2` → `100`, trailing fraction zeros removed. */
function plainDecimal(text: string): string {
  const match = /^([0-9]+)(?:\.([0-9]*))?(?:e([+-][0-9]+))?$/.exec(text);
  if (!match) throw new RangeError(`not a decimal: ${text}`);
  const digits = match[1]! + (match[2] ?? '');
  const point = match[1]!.length + Number(match[3] ?? 0);
  const whole = point <= 0 ? '0' : digits.slice(0, point).padEnd(point, '0').replace(/^0+(?=[0-9])/, '');
  const fraction = (point < 0 ? '0'.repeat(-point) + digits : digits.slice(Math.max(point, 0))).replace(/0+$/, '');
  return fraction === '' ? whole : `${whole}.${fraction}`;
}

const f32Bits = new Float32Array(1);
const u32Bits = new Uint32Array(f32Bits.buffer);

/** The float32 next to `value` (a non-negative float32) in direction `up`. */
function adjacentFloat(value: number, up: boolean): number {
  f32Bits[0] = value;
  u32Bits[0] = up ? u32Bits[0]! + 1 : u32Bits[0]! - 1;
  return f32Bits[0]!;
}

/**
 * Java's `Float.parseFloat` for Lucene's NUMBER form (`[0-9]+(\.[0-9]+)?`): the decimal correctly rounded
 * to float32. `Math.fround(Number(s))` rounds twice (decimal → double → float), which is wrong exactly when
 * the double lands on a midpoint between two floats that the decimal itself is not on; that case is
 * settled by comparing the decimal with the midpoint exactly.
 */
export function parseLuceneFloat(text: string): number {
  if (!BOOST.test(text)) return Number.NaN;
  const double = Number(text);
  const single = Math.fround(double);
  if (single === double || !Number.isFinite(single)) return single;
  const other = adjacentFloat(single, single < double);
  if ((single + other) / 2 !== double) return single;
  const side = compareDecimalWithDouble(text, double);
  if (side === 0) return single; // a true tie: fround already rounded it to even
  return side > 0 ? Math.max(single, other) : Math.min(single, other);
}

/** Sign of (decimal `text` − `value`), exactly; `value` a finite non-negative double. */
function compareDecimalWithDouble(text: string, value: number): number {
  const [whole, fraction = ''] = text.split('.');
  const numerator = BigInt(whole! + fraction);
  const decimals = BigInt(fraction.length);
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, value);
  const high = view.getUint32(0);
  const low = view.getUint32(4);
  const biased = (high >>> 20) & 0x7ff;
  let mantissa = (BigInt(high & 0xfffff) << 32n) | BigInt(low);
  let exponent: bigint;
  if (biased === 0) {
    exponent = -1074n;
  } else {
    mantissa |= 1n << 52n;
    exponent = BigInt(biased) - 1075n;
  }
  // text = numerator / 10^decimals; value = mantissa · 2^exponent.
  const left = exponent < 0n ? numerator << -exponent : numerator;
  const right = (exponent > 0n ? mantissa << exponent : mantissa) * 10n ** decimals;
  return left === right ? 0 : left > right ? 1 : -1;
}
