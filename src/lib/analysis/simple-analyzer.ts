/**
 * Lucene 8.7's `SimpleAnalyzer`: LetterTokenizer → LowerCaseFilter. Digits and punctuation split words and
 * are dropped (`covid-19` → `covid`); nothing is stemmed or stopped.
 */
import { pipelineAnalyzer, type Analyzer } from './analyzer.ts';
import { scanLetterTokens } from './letter-tokenizer.ts';
import { javaLowerCase } from './lowercase.ts';

export function simpleAnalyzer(): Analyzer {
  return pipelineAnalyzer('simple', scanLetterTokens, javaLowerCase);
}
