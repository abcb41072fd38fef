/**
 * Lucene's `EnglishAnalyzer.ENGLISH_STOP_WORDS_SET` (8.x; the same 33 words as the classic
 * `StopAnalyzer.ENGLISH_STOP_WORDS_SET`). Matched exactly against lower-cased terms, as `StopFilter` does.
 */
export const ENGLISH_STOP_WORDS: ReadonlySet<string> = new Set([
  'a', 'an', 'and', 'are', 'as', 'at', 'be', 'but', 'by', 'for', 'if', 'in', 'into', 'is', 'it', 'no', 'not',
  'of', 'on', 'or', 'such', 'that', 'the', 'their', 'then', 'there', 'these', 'they', 'this', 'to', 'was',
  'will', 'with',
]);
