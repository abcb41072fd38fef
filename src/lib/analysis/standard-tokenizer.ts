/**
 * Lucene 8.7's `StandardTokenizer`: the word-break rules of Unicode UAX#29 as Lucene's JFlex grammar
 * (`StandardTokenizerImpl.jflex`, Unicode 9.0 properties, emoji data 11.0) implements them.
 *
 * How: this module runs the very DFA that JFlex generated for Lucene (tables in
 * `tables/standard-tokenizer-dfa.ts`, read by `scripts/analysis/GenerateLuceneTables.java` out of Debian's Lucene 8.8.1
 * build that made the shared references; the grammar is the same throughout 8.x) with a port of the scanner
 * loop and of its 255-character buffer (`zzRefill` of JFlex 1.7's skeleton as compiled into that jar).
 * Consequences, all as in Lucene:
 * - longest match wins; a run of characters no rule wants (punctuation, spaces, lone `#`) is skipped;
 * - `3.5`, `1,000` and `2020-01` (as `2020`, `01`) are NUM; `don't`, `e.g` and `U.S.A` stay one ALPHANUM
 *   token; hyphens split; underscores join (ExtendNumLet); URLs and e-mail addresses are split like any
 *   text (`user@example.com` → `user`, `example.com`; only the UAX29URLEmailTokenizer keeps them whole);
 * - each Han ideograph and each hiragana is its own token; katakana, hangul and South-East Asian runs
 *   (Thai, Lao, Myanmar, Khmer) stay together;
 * - emoji sequences (ZWJ sequences, flags, keycaps, modifiers) and pictographic symbols such as ©, ®, ™,
 *   ↔ are EMOJI tokens;
 * - the scanner never looks more than 255 UTF-16 units ahead of a token's start (254 when the 255th is a
 *   high surrogate), so longer tokens are cut into pieces of at most 255 units (`maxTokenLength` 255);
 * - quirk kept: when the text ends with an unpaired high surrogate and the last read of the buffer is
 *   short, JFlex reports end of input early and the tokens of that last buffer are lost (`"ab \ud800"`
 *   gives no token). Only malformed UTF-16 triggers it.
 *
 * Why not `Intl.Segmenter` (which keeps 5,156 of 5,183 SciFact documents identical): it differs from
 * Lucene by design, not by accident — ICU's `isWordLike` drops the EMOJI tokens above (©, ®, ™, ↔, 😀),
 * segments Han, kana and Thai with dictionaries into multi-character words, follows the current
 * UAX#29 rather than Unicode 9.0, has no 255-unit limit — and its answers change with the ICU version a
 * runtime bundles (Node 20 and each Chromium release ship different ICU and Unicode versions), so the
 * same code could index differently in a worker and in the CLI. Correcting all of that after the fact
 * would amount to reimplementing the grammar anyway. A table-driven DFA is deterministic (no Unicode
 * data from the runtime is consulted: not even JS regex property escapes), identical in every engine, and
 * equal to Lucene by construction.
 */
import {
  ATTRIBUTES,
  CLASS_COUNT,
  CLASS_RUNS,
  ROW_MAP,
  STATE_TOKEN_TYPE,
  TRANSITIONS,
} from './tables/standard-tokenizer-dfa.ts';

/** Lucene's `StandardTokenizer.TOKEN_TYPES`, indexed by the scanner's token type. */
export const TOKEN_TYPES = [
  '<ALPHANUM>',
  '<NUM>',
  '<SOUTHEAST_ASIAN>',
  '<IDEOGRAPHIC>',
  '<HIRAGANA>',
  '<KATAKANA>',
  '<HANGUL>',
  '<EMOJI>',
] as const;

export type TokenType = (typeof TOKEN_TYPES)[number];

/** `StandardAnalyzer.DEFAULT_MAX_TOKEN_LENGTH`; also the scanner's buffer size in UTF-16 units. */
export const MAX_TOKEN_LENGTH = 255;

/** A token as the tokenizer emits it: its text, UTF-16 offsets into the input and Lucene type. */
export interface TypedToken {
  text: string;
  start: number;
  end: number;
  type: TokenType;
}

/** Receives each token's UTF-16 span `[start, end)` and type index (into TOKEN_TYPES). */
export type TokenSink = (start: number, end: number, typeIndex: number) => void;

const EOF = -1;
const ACCEPTING = 1;
const NO_LONGER_MATCH = 8;
const SKIPPED = -1;

const transitions = Int16Array.from(TRANSITIONS);
const rowMap = Int32Array.from(ROW_MAP);
const attributes = Uint8Array.from(ATTRIBUTES);
const stateTokenType = Int8Array.from(STATE_TOKEN_TYPE);

/** Character class of every BMP code point (surrogates included), expanded once from the runs. */
const bmpClasses = new Uint8Array(0x10000);
/** Runs at or above U+10000, for a binary search: first code points and their classes. */
const supplementaryStarts: number[] = [];
const supplementaryClasses: number[] = [];

for (let i = 0; i < CLASS_RUNS.length; i += 2) {
  const first = CLASS_RUNS[i] ?? 0;
  const cls = CLASS_RUNS[i + 1] ?? 0;
  const next = CLASS_RUNS[i + 2] ?? 0x110000;
  if (cls >= CLASS_COUNT) throw new Error(`character class ${cls} out of range`);
  if (first < 0x10000) bmpClasses.fill(cls, first, Math.min(next, 0x10000));
  if (next > 0x10000) {
    supplementaryStarts.push(Math.max(first, 0x10000));
    supplementaryClasses.push(cls);
  }
}

function classOf(codePoint: number): number {
  if (codePoint < 0x10000) return bmpClasses[codePoint] ?? 0;
  let lo = 0;
  let hi = supplementaryStarts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if ((supplementaryStarts[mid] ?? 0) <= codePoint) lo = mid;
    else hi = mid - 1;
  }
  return supplementaryClasses[lo] ?? 0;
}

function isHighSurrogate(unit: number): boolean {
  return unit >= 0xd800 && unit <= 0xdbff;
}

/**
 * Port of the JFlex scanner state. Java's scanner copies text into a 255-char buffer; here the buffer is a
 * window `[bufferStart, bufferStart + endRead)` of the input string, and all positions except
 * `bufferStart` and `readPos` are relative to it, as in Java, so `refill` can be checked line by line.
 */
class StandardScanner {
  private bufferStart = 0;
  private endRead = 0;
  private finalHighSurrogate = 0;
  private readPos = 0;
  private startRead = 0;
  private markedPos = 0;
  private currentPos = 0;
  private atEOF = false;

  constructor(private readonly text: string) {}

  /** Start of the last token in the input (Java's `yychar`). */
  get tokenStart(): number {
    return this.bufferStart + this.startRead;
  }

  /** End of the last token in the input. */
  get tokenEnd(): number {
    return this.bufferStart + this.markedPos;
  }

  /** Java's `Character.codePointAt(zzBuffer, pos, limit)`: pairs surrogates only inside the window. */
  private codePointAt(pos: number, limit: number): number {
    const at = this.bufferStart + pos;
    const unit = this.text.charCodeAt(at);
    if (isHighSurrogate(unit) && pos + 1 < limit) {
      const low = this.text.charCodeAt(at + 1);
      if (low >= 0xdc00 && low <= 0xdfff) return ((unit - 0xd800) << 10) + (low - 0xdc00) + 0x10000;
    }
    return unit;
  }

  /**
   * JFlex 1.7 `zzRefill` with Lucene's non-growing buffer; the reader is a StringReader (returns what is
   * asked while text remains). Returns true for "end of input", which also happens when the window is
   * full: that is what cuts long tokens at 255 units.
   */
  private refill(): boolean {
    if (this.startRead > 0) {
      this.endRead += this.finalHighSurrogate;
      this.finalHighSurrogate = 0;
      this.bufferStart += this.startRead;
      this.endRead -= this.startRead;
      this.currentPos -= this.startRead;
      this.markedPos -= this.startRead;
      this.startRead = 0;
    }
    const requested = MAX_TOKEN_LENGTH - this.endRead - this.finalHighSurrogate;
    if (requested === 0) return true;
    const available = this.text.length - this.readPos;
    if (available === 0) return true;
    const numRead = Math.min(requested, available);
    this.readPos += numRead;
    this.endRead += numRead;
    if (isHighSurrogate(this.text.charCodeAt(this.bufferStart + this.endRead - 1))) {
      if (numRead === requested) {
        // No room for the low surrogate: hold the high one back until the next refill.
        this.endRead--;
        this.finalHighSurrogate = 1;
        if (numRead === 1) return true;
      } else {
        // Room left: read one more char (Reader.read()), which may be the end of input.
        if (this.readPos >= this.text.length) return true;
        this.readPos++;
        this.endRead++;
        return false;
      }
    }
    return false;
  }

  /** Java's `getNextToken` loop: the next token's type index, or EOF. Skipped matches are not returned. */
  nextToken(): number {
    for (;;) {
      let markedPosL = this.markedPos;
      let currentPosL = markedPosL;
      let endReadL = this.endRead;
      this.startRead = markedPosL;
      this.currentPos = markedPosL;
      let state = 0;
      let action = (attributes[0] ?? 0) & ACCEPTING ? 0 : -1;
      let input = EOF;
      for (;;) {
        if (currentPosL < endReadL) {
          input = this.codePointAt(currentPosL, endReadL);
          currentPosL += input > 0xffff ? 2 : 1;
        } else if (this.atEOF) {
          input = EOF;
          break;
        } else {
          this.currentPos = currentPosL;
          this.markedPos = markedPosL;
          const eof = this.refill();
          currentPosL = this.currentPos;
          markedPosL = this.markedPos;
          endReadL = this.endRead;
          if (eof) {
            input = EOF;
            break;
          }
          input = this.codePointAt(currentPosL, endReadL);
          currentPosL += input > 0xffff ? 2 : 1;
        }
        const next = transitions[(rowMap[state] ?? 0) + classOf(input)] ?? -1;
        if (next === -1) break;
        state = next;
        const attribute = attributes[state] ?? 0;
        if (attribute & ACCEPTING) {
          action = state;
          markedPosL = currentPosL;
          if (attribute & NO_LONGER_MATCH) break;
        }
      }
      this.markedPos = markedPosL;
      if (input === EOF && this.startRead === this.currentPos) {
        this.atEOF = true;
        return EOF;
      }
      // Every class leads from the start state to an accepting state (the tests check the tables), so a match
      // of at least one code point always exists and `action` is set here.
      const type = stateTokenType[action] ?? SKIPPED;
      if (type !== SKIPPED) return type;
    }
  }
}

/** Calls `sink` for each token of `text` in order; the allocation-free core of the tokenizer. */
export function scanStandardTokens(text: string, sink: TokenSink): void {
  const scanner = new StandardScanner(text);
  for (let type = scanner.nextToken(); type !== EOF; type = scanner.nextToken()) {
    sink(scanner.tokenStart, scanner.tokenEnd, type);
  }
}

/** Lucene 8.7 `StandardTokenizer` output for `text`: tokens with offsets and types, in order. */
export function standardTokenize(text: string): TypedToken[] {
  const tokens: TypedToken[] = [];
  scanStandardTokens(text, (start, end, typeIndex) => {
    tokens.push({ text: text.slice(start, end), start, end, type: TOKEN_TYPES[typeIndex] ?? '<ALPHANUM>' });
  });
  return tokens;
}
