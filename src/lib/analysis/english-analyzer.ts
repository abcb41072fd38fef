/**
 * Lucene 8.7's `EnglishAnalyzer` with its defaults (no stem exclusions):
 * StandardTokenizer → EnglishPossessiveFilter → LowerCaseFilter → StopFilter(ENGLISH_STOP_WORDS_SET) →
 * PorterStemFilter. This is the analyzer of Pyserini's BEIR "flat" BM25 runs.
 *
 * Parity: the terms equal Lucene's for every SciFact document and query
 * (tests/lib/analysis/english-analyzer.parity.test.ts against the shared reference token files).
 */
import { pipelineAnalyzer, type Analyzer } from './analyzer.ts';
import { ENGLISH_STOP_WORDS } from './english-stopwords.ts';
import { javaLowerCase } from './lowercase.ts';
import { porterStem } from './porter.ts';
import { stripPossessive } from './possessive.ts';
import { scanStandardTokens } from './standard-tokenizer.ts';

/** The filter chain after the tokenizer, for one token; `null` for a stop word. */
export function englishTerm(tokenText: string): string | null {
  const term = javaLowerCase(stripPossessive(tokenText));
  return ENGLISH_STOP_WORDS.has(term) ? null : porterStem(term);
}

export function englishAnalyzer(): Analyzer {
  return pipelineAnalyzer('english', scanStandardTokens, englishTerm);
}
