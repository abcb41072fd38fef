/**
 * Lucene's `LowerCaseFilter` (via `CharacterUtils.toLowerCase`): each code point is replaced by
 * `java.lang.Character.toLowerCase(int)`, the simple one-to-one Unicode case mapping. Unlike
 * `String.prototype.toLowerCase` this has no context or expansions (final sigma stays σ, İ becomes i
 * without a combining dot) and does not move with the JS engine's Unicode version: the mapping is the
 * table of the JVM that produced the Lucene references (`tables/java-character.ts`).
 */
import { LOWERCASE_RUNS } from './tables/java-character.ts';

/** Code point → lowercase code point, for the code points that change (about 1,400). */
const lowerOf = new Map<number, number>();
for (let i = 0; i < LOWERCASE_RUNS.length; i += 4) {
  const first = LOWERCASE_RUNS[i] ?? 0;
  const count = LOWERCASE_RUNS[i + 1] ?? 0;
  const stride = LOWERCASE_RUNS[i + 2] ?? 1;
  const delta = LOWERCASE_RUNS[i + 3] ?? 0;
  for (let k = 0; k < count; k++) lowerOf.set(first + k * stride, first + k * stride + delta);
}

/** `Character.toLowerCase(int)` of the reference JVM. */
export function lowerCaseCodePoint(codePoint: number): number {
  return lowerOf.get(codePoint) ?? codePoint;
}

/** 0: ASCII without A–Z; 1: ASCII with some A–Z; 2: not ASCII. */
function asciiCase(term: string): 0 | 1 | 2 {
  let upper: 0 | 1 = 0;
  for (let i = 0; i < term.length; i++) {
    const unit = term.charCodeAt(i);
    if (unit >= 0x80) return 2;
    if (unit >= 0x41 && unit <= 0x5a) upper = 1;
  }
  return upper;
}

/** Lowercases a term code point by code point, exactly as Lucene's `LowerCaseFilter` does. */
export function javaLowerCase(term: string): string {
  const ascii = asciiCase(term);
  if (ascii === 0) return term;
  // On ASCII both mappings are A–Z to a–z, and the engine's is native: a highlighted page of hits and an
  // index build lowercase every capitalised word, where the loop below cost a string per character.
  if (ascii === 1) return term.toLowerCase();
  let out = '';
  for (let i = 0; i < term.length; ) {
    const codePoint = term.codePointAt(i) ?? 0;
    out += String.fromCodePoint(lowerCaseCodePoint(codePoint));
    i += codePoint > 0xffff ? 2 : 1;
  }
  return out;
}
