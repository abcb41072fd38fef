/**
 * What every analyzer offers, and the one way they are built here: a tokenizer that reports spans, then a
 * chain of per-token filters. Lucene's filters used by our analyzers (possessive, lower case, stop words,
 * Porter) look at one token at a time, so the chain's result is a function of the token text alone and is
 * memoized: corpora repeat words, and SciFact's 1.2 M tokens have only ~40 k distinct spellings.
 */
import { NO_TERM, SpanMemo } from './span-memo.ts';

/** A final term with the UTF-16 span `[start, end)` of the text it came from (for highlighting). */
export interface Token {
  term: string;
  start: number;
  end: number;
}

export interface Analyzer {
  /** Registry key, e.g. `english`. */
  readonly name: string;
  /** The terms of `text`, in order, as an index stores them. */
  analyze(text: string): string[];
  /** The same terms with their offsets in `text`. Offsets cover the whole token (`John's` for `john`). */
  analyzeWithOffsets(text: string): Token[];
  /**
   * The terms of `text` as this analyzer's term numbers (`term(n)` is the term; a number always names the
   * same term for the analyzer's life), in a buffer that the next call reuses. Index builds use it to map
   * terms to ordinals with an array instead of a string lookup per token. Absent on analyzers without it.
   */
  termNumbers?(text: string): Int32Array;
  term?(number: number): string;
}

/** Calls `sink(start, end)` for each token span of `text`, in order. */
export type SpanScanner = (text: string, sink: (start: number, end: number) => void) => void;

/** Maps a token's text to its final term, or `null` to drop it (a stop word). */
export type TermFilter = (tokenText: string) => string | null;

/** An analyzer from a span scanner and a per-token filter chain, memoized by token spelling (span-memo.ts). */
export function pipelineAnalyzer(name: string, scan: SpanScanner, filter: TermFilter): Analyzer {
  const memo = new SpanMemo(filter);
  let numbers = new Int32Array(1024);
  return {
    name,
    analyze(text) {
      const terms: string[] = [];
      scan(text, (start, end) => {
        const number = memo.termNumber(text, start, end);
        if (number !== NO_TERM) terms.push(memo.term(number));
      });
      return terms;
    },
    analyzeWithOffsets(text) {
      const tokens: Token[] = [];
      scan(text, (start, end) => {
        const number = memo.termNumber(text, start, end);
        if (number !== NO_TERM) tokens.push({ term: memo.term(number), start, end });
      });
      return tokens;
    },
    termNumbers(text) {
      let count = 0;
      scan(text, (start, end) => {
        const number = memo.termNumber(text, start, end);
        if (number === NO_TERM) return;
        if (count === numbers.length) {
          const bigger = new Int32Array(numbers.length * 2);
          bigger.set(numbers);
          numbers = bigger;
        }
        numbers[count++] = number;
      });
      return numbers.subarray(0, count);
    },
    term: (number) => memo.term(number),
  };
}
