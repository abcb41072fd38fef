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

function isPlainLowerAscii(term: string): boolean {
  for (let i = 0; i < term.length; i++) {
    const unit = term.charCodeAt(i);
    if (unit >= 0x80 || (unit >= 0x41 && unit <= 0x5a)) return false;
  }
  return true;
}

/** Lowercases a term code point by code point, exactly as Lucene's `LowerCaseFilter` does. */
export function javaLowerCase(term: string): string {
  if (isPlainLowerAscii(term)) return term;
  let out = '';
  for (let i = 0; i < term.length; ) {
    const codePoint = term.codePointAt(i) ?? 0;
    out += String.fromCodePoint(lowerCaseCodePoint(codePoint));
    i += codePoint > 0xffff ? 2 : 1;
  }
  return out;
}
