/**
 * Lucene's `EnglishPossessiveFilter` (8.x): removes a trailing `'s`, `’s` (U+2019) or `＇s` (U+FF07) from
 * each token, with `s` in either case. It runs before lower-casing and leaves offsets unchanged. Nothing
 * else is removed: a bare trailing apostrophe (`students'`) is already dropped by the tokenizer.
 */
const APOSTROPHES = new Set([0x27, 0x2019, 0xff07]);

export function stripPossessive(term: string): string {
  const n = term.length;
  if (n < 2) return term;
  const last = term.charCodeAt(n - 1);
  if ((last === 0x73 || last === 0x53) && APOSTROPHES.has(term.charCodeAt(n - 2))) return term.slice(0, n - 2);
  return term;
}
