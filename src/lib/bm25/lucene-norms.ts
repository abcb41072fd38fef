/**
 * Lucene's one-byte field-length norm (Lucene 8.x `org.apache.lucene.util.SmallFloat.intToByte4` /
 * `byte4ToInt`, as used by `BM25Similarity.computeNorm` and its `LENGTH_TABLE`).
 *
 * A document's field length (its number of indexed tokens; see `bm25-index.ts`) is stored in one byte:
 * lengths 0–23 exactly, larger lengths as a tiny float with 4 significant bits (3 stored + 1 implicit),
 * truncated towards zero. BM25 then scores with the *decoded* length, so two documents of lengths 100 and
 * 103 get the same length normalization. Reproducing this quantization is what makes scores equal
 * Lucene's to the last bit.
 */

/**
 * `longToInt4` of Lucene: keeps the 4 most significant bits of a non-negative integer (values below 8 are
 * "subnormal" and kept whole). Only needed up to 2^31 − 1 (a Java int length), so 32-bit operations suffice.
 */
export function longToInt4(value: number): number {
  assertNonNegativeInteger(value);
  if (value > 0xffffffff) throw new RangeError(`${value} does not fit 32 bits`);
  const numBits = 32 - Math.clz32(value);
  if (numBits < 4) return value;
  const shift = numBits - 4;
  let encoded = value >>> shift;
  encoded &= 0x07; // the most significant bit is implicit
  encoded |= (shift + 1) << 3; // the exponent, + 1 because 0 is reserved for subnormals
  return encoded;
}

/** `int4ToLong` of Lucene: decodes `longToInt4` (the dropped low bits come back as zeros). */
export function int4ToLong(encoded: number): number {
  const bits = encoded & 0x07;
  const shift = (encoded >>> 3) - 1;
  return shift === -1 ? bits : (bits | 0x08) * 2 ** shift;
}

/** Largest `longToInt4` value of a Java int: `longToInt4(2^31 − 1)` = 231. */
const MAX_INT4 = longToInt4(2 ** 31 - 1);

/** Byte values below this encode the length itself (24 values: 0–23). */
export const NUM_FREE_VALUES = 255 - MAX_INT4;

/** Largest length Lucene can encode (a Java int). */
const MAX_LENGTH = 2 ** 31 - 1;

/**
 * `SmallFloat.intToByte4`: the norm byte (0–255, unsigned here where Java uses a signed byte) for a field
 * length. Lengths 0–23 map to themselves; 24 and above to 24 + `longToInt4(length − 24)`.
 */
export function intToByte4(length: number): number {
  assertNonNegativeInteger(length);
  if (length > MAX_LENGTH) throw new RangeError(`field length ${length} exceeds Lucene's int range`);
  if (length < NUM_FREE_VALUES) return length;
  return NUM_FREE_VALUES + longToInt4(length - NUM_FREE_VALUES);
}

/** `SmallFloat.byte4ToInt`: the length a norm byte (0–255) stands for. */
export function byte4ToInt(norm: number): number {
  if (!Number.isInteger(norm) || norm < 0 || norm > 255) throw new RangeError(`norm byte ${norm} is not in 0..255`);
  if (norm < NUM_FREE_VALUES) return norm;
  return NUM_FREE_VALUES + int4ToLong(norm - NUM_FREE_VALUES);
}

/**
 * `BM25Similarity.LENGTH_TABLE`: decoded length of every norm byte, as Java `float`s (so the largest entries
 * are rounded to float32 exactly as Lucene's `(float) byte4ToInt(b)` does).
 */
export const LENGTH_TABLE: Float32Array = Float32Array.from({ length: 256 }, (_, norm) => byte4ToInt(norm));

function assertNonNegativeInteger(value: number): void {
  if (!Number.isInteger(value) || value < 0) {
    throw new RangeError(`only non-negative integers can be encoded, got ${value}`);
  }
}
