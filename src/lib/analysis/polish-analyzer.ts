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
import { stempelFilter, stempelTables } from './stempel.ts';

let stopWords: ReadonlySet<string> | undefined;

/** Lucene's default Polish stop set (182 words); the Stempel tables must be loaded (loadStempelTables). */
export function polishStopWords(): ReadonlySet<string> {
  stopWords ??= new Set(stempelTables().POLISH_STOP_WORDS);
  return stopWords;
}

/** The filter chain after the tokenizer, for one token; `null` for a stop word. */
export function polishTerm(tokenText: string): string | null {
  const term = javaLowerCase(tokenText);
  return polishStopWords().has(term) ? null : stempelFilter(term);
}

/** Needs the Stempel tables loaded (`prepareAnalyzer('polish')`); says so at once otherwise. */
export function polishAnalyzer(): Analyzer {
  polishStopWords();
  return pipelineAnalyzer('polish', scanStandardTokens, polishTerm);
}
