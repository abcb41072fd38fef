/**
 * What every analyzer offers, and the one way they are built here: a tokenizer that reports spans, then a
 * chain of per-token filters. Lucene's filters used by our analyzers (possessive, lower case, stop words,
 * Porter) look at one token at a time, so the chain's result is a function of the token text alone and is
 * memoized: corpora repeat words, and SciFact's 1.2 M tokens have only ~40 k distinct spellings.
 */

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
}

/** Calls `sink(start, end)` for each token span of `text`, in order. */
export type SpanScanner = (text: string, sink: (start: number, end: number) => void) => void;

/** Maps a token's text to its final term, or `null` to drop it (a stop word). */
export type TermFilter = (tokenText: string) => string | null;

/**
 * Beyond this many distinct token spellings the memo is emptied and refilled, bounding memory on huge or
 * adversarial corpora (random strings never repeat) while real vocabularies stay fully cached.
 */
const MEMO_LIMIT = 500_000;

/** An analyzer from a span scanner and a per-token filter chain, memoized by token text. */
export function pipelineAnalyzer(name: string, scan: SpanScanner, filter: TermFilter): Analyzer {
  const memo = new Map<string, string | null>();
  const termOf = (tokenText: string): string | null => {
    let term = memo.get(tokenText);
    if (term === undefined) {
      term = filter(tokenText);
      if (memo.size >= MEMO_LIMIT) memo.clear();
      memo.set(tokenText, term);
    }
    return term;
  };
  return {
    name,
    analyze(text) {
      const terms: string[] = [];
      scan(text, (start, end) => {
        const term = termOf(text.slice(start, end));
        if (term !== null) terms.push(term);
      });
      return terms;
    },
    analyzeWithOffsets(text) {
      const tokens: Token[] = [];
      scan(text, (start, end) => {
        const term = termOf(text.slice(start, end));
        if (term !== null) tokens.push({ term, start, end });
      });
      return tokens;
    },
  };
}
