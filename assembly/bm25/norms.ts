/**
 * Lucene 8.x `SmallFloat.intToByte4`: a field length in one byte (lengths 0–23 exactly, larger ones as a
 * float with 4 significant bits, truncated). The TypeScript twin is `src/lib/bm25/lucene-norms.ts`; the
 * host tests check that both give the same byte for every document.
 */

/** Byte values below this encode the length itself (255 − longToInt4(2^31 − 1) = 24). */
// @ts-ignore: decorator
@inline const NUM_FREE_VALUES: u32 = 24;

/** Lucene's `longToInt4`: keeps the 4 most significant bits (the top one implicit) and the exponent. */
function longToInt4(value: u32): u32 {
  const numBits: u32 = 32 - clz<u32>(value);
  if (numBits < 4) return value;
  const shift = numBits - 4;
  return ((value >>> shift) & 0x07) | ((shift + 1) << 3);
}

export function intToByte4(length: u32): u8 {
  if (length < NUM_FREE_VALUES) return <u8>length;
  return <u8>(NUM_FREE_VALUES + longToInt4(length - NUM_FREE_VALUES));
}
