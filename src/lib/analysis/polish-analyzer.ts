/**
 * Lucene 8.7's `PolishAnalyzer` with its defaults (no stem exclusions):
 * StandardTokenizer → LowerCaseFilter → StopFilter(the bundled Carrot2 Polish list) → StempelFilter(the
 * bundled stemmer_20000.tbl). Lucene 8 dropped StandardFilter, so nothing runs between tokenizer and lower
 * case. Stop words are removed before stemming: a stem may itself be a stop word and is kept (`czego` → `czy`).
 *
 * Parity: the terms equal Lucene's for every document and query of the manpages-pl reference collection
 * (tests/lib/analysis/polish-analyzer.parity.test.ts against shared/reference/polish/).
 */
import { pipelineAnalyzer, type Analyzer } from './analyzer.ts';
import { javaLowerCase } from './lowercase.ts';
import { scanStandardTokens } from './standard-tokenizer.ts';
import { stempelFilter } from './stempel.ts';
import { POLISH_STOP_WORDS as STOP_LIST } from './tables/stempel-table.ts';

export const POLISH_STOP_WORDS: ReadonlySet<string> = new Set(STOP_LIST);

/** The filter chain after the tokenizer, for one token; `null` for a stop word. */
export function polishTerm(tokenText: string): string | null {
  const term = javaLowerCase(tokenText);
  return POLISH_STOP_WORDS.has(term) ? null : stempelFilter(term);
}

export function polishAnalyzer(): Analyzer {
  return pipelineAnalyzer('polish', scanStandardTokens, polishTerm);
}
