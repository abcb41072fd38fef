/**
 * Lucene 8.7's `StandardAnalyzer()`: StandardTokenizer (max token length 255) → LowerCaseFilter →
 * StopFilter with an empty stop set. Since Lucene 8.0 (LUCENE-7444) the no-argument constructor no longer
 * removes English stop words; `new StandardAnalyzer().getStopwordSet()` is `[]` in 8.7.
 */
import { pipelineAnalyzer, type Analyzer } from './analyzer.ts';
import { javaLowerCase } from './lowercase.ts';
import { scanStandardTokens } from './standard-tokenizer.ts';

export function standardAnalyzer(): Analyzer {
  return pipelineAnalyzer('standard', scanStandardTokens, javaLowerCase);
}
