/**
 * Lucene 8.7's `LetterTokenizer`: maximal runs of code points for which `java.lang.Character.isLetter` is
 * true (categories Lu, Ll, Lt, Lm, Lo of the reference JVM, not of the JS engine), cut after 255 UTF-16
 * units as `CharTokenizer` does (a token may reach 256 units when its last letter is supplementary).
 */
import { LETTER_BOUNDARIES } from './tables/java-character.ts';

/** `CharTokenizer.DEFAULT_MAX_WORD_LEN`. */
const MAX_LETTER_TOKEN_LENGTH = 255;

/** One bit per BMP code point: is it a letter. */
const bmpLetters = new Uint8Array(0x10000 / 8);
const supplementaryBoundaries: number[] = [];
for (let i = 0; i < LETTER_BOUNDARIES.length; i += 2) {
  const first = LETTER_BOUNDARIES[i] ?? 0;
  const end = LETTER_BOUNDARIES[i + 1] ?? 0x110000;
  for (let cp = first; cp < Math.min(end, 0x10000); cp++) bmpLetters[cp >>> 3]! |= 1 << (cp & 7);
  if (end > 0x10000) supplementaryBoundaries.push(Math.max(first, 0x10000), end);
}

/** `Character.isLetter(int)` of the reference JVM. */
function isJavaLetter(codePoint: number): boolean {
  if (codePoint < 0x10000) return ((bmpLetters[codePoint >>> 3] ?? 0) & (1 << (codePoint & 7))) !== 0;
  // Count of boundaries <= codePoint is odd inside a letter range.
  let lo = 0;
  let hi = supplementaryBoundaries.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((supplementaryBoundaries[mid] ?? 0) <= codePoint) lo = mid + 1;
    else hi = mid;
  }
  return (lo & 1) === 1;
}

/** Calls `sink(start, end)` for each letter run of `text`. */
export function scanLetterTokens(text: string, sink: (start: number, end: number) => void): void {
  let start = -1;
  for (let i = 0; i < text.length; ) {
    const codePoint = text.codePointAt(i) ?? 0;
    const size = codePoint > 0xffff ? 2 : 1;
    if (isJavaLetter(codePoint)) {
      if (start < 0) start = i;
      i += size;
      if (i - start >= MAX_LETTER_TOKEN_LENGTH) {
        sink(start, i);
        start = -1;
      }
    } else {
      if (start >= 0) sink(start, i);
      start = -1;
      i += size;
    }
  }
  if (start >= 0) sink(start, text.length);
}
