/**
 * The iteration orders of the two Java hash containers Anserini's RM3 goes through, reproduced so that
 * "the fbTerms heaviest terms" picks the same terms among equal weights as Anserini does. Anserini sorts a
 * feature vector's entries by weight with a stable sort (`Collections.sort`) of the map's iteration order,
 * so among ties the first in that order wins; that order comes from string hash codes and table sizes:
 *
 * - `FastutilFloatMap`: fastutil's `Object2FloatOpenHashMap<String>` with its defaults (expected size 16,
 *   load factor 0.75 → 32 slots): open addressing with linear probing at `mix(hashCode) & mask`, `mix(x)` =
 *   `h ^ (h >>> 16)` with `h = x · 0x9E3779B9`; when an insertion finds the map holding `maxFill` entries
 *   it re-inserts every key, from the highest slot down, into a table of
 *   `nextPowerOfTwo(ceil((size + 1) / 0.75))` slots; iteration runs from the highest slot down.
 *   (No removals happen in RM3, so the iterator's "wrapped" list never comes into play.)
 * - `javaHashSetOrder`: `java.util.HashSet<String>` (a `HashMap`): buckets `(h ^ (h >>> 16)) & (n − 1)`,
 *   n = 16 doubled whenever the size passes 0.75 · n; iteration goes bucket by bucket, and within a bucket
 *   in insertion order (a resize splits buckets keeping that order). A bucket would turn into a tree only
 *   past 8 entries in a table of 64 or more, which a few dozen feedback terms never reach.
 */

/** `String.hashCode()`: Σ s[i] · 31^(n−1−i) over UTF-16 units, in 32-bit arithmetic. */
export function javaStringHash(text: string): number {
  let h = 0;
  for (let i = 0; i < text.length; i++) h = (Math.imul(h, 31) + text.charCodeAt(i)) | 0;
  return h;
}

/** fastutil `HashCommon.mix(int)`. */
function fastutilMix(x: number): number {
  const h = Math.imul(x, 0x9e3779b9);
  return h ^ (h >>> 16);
}

const LOAD_FACTOR = 0.75;

function nextPowerOfTwo(x: number): number {
  let n = 1;
  while (n < x) n *= 2;
  return n;
}

/** fastutil `HashCommon.arraySize(expected, f)`. */
function arraySize(expected: number, f: number): number {
  return Math.max(2, nextPowerOfTwo(Math.ceil(expected / f)));
}

/** fastutil `HashCommon.maxFill(n, f)`. */
function maxFill(n: number, f: number): number {
  return Math.min(Math.ceil(n * f), n - 1);
}

/** `Object2FloatOpenHashMap<String>` with default construction: insertion, update, lookup and iteration order. */
export class FastutilFloatMap {
  private keys: (string | null)[];
  private values: Float64Array;
  private mask: number;
  private fill: number;
  private count = 0;

  constructor() {
    const n = arraySize(16, LOAD_FACTOR);
    this.keys = new Array<string | null>(n).fill(null);
    this.values = new Float64Array(n);
    this.mask = n - 1;
    this.fill = maxFill(n, LOAD_FACTOR);
  }

  get size(): number {
    return this.count;
  }

  private slotOf(key: string): number {
    let pos = fastutilMix(javaStringHash(key)) & this.mask;
    while (this.keys[pos] !== null && this.keys[pos] !== key) pos = (pos + 1) & this.mask;
    return pos;
  }

  get(key: string): number | undefined {
    const pos = this.slotOf(key);
    return this.keys[pos] === null ? undefined : this.values[pos]!;
  }

  /** Adds or replaces (a replaced key keeps its slot). */
  set(key: string, value: number): this {
    const pos = this.slotOf(key);
    if (this.keys[pos] !== null) {
      this.values[pos] = value;
      return this;
    }
    this.keys[pos] = key;
    this.values[pos] = value;
    if (this.count++ >= this.fill) this.rehash(arraySize(this.count + 1, LOAD_FACTOR));
    return this;
  }

  private rehash(newN: number): void {
    const oldKeys = this.keys;
    const oldValues = this.values;
    const mask = newN - 1;
    const keys = new Array<string | null>(newN).fill(null);
    const values = new Float64Array(newN);
    for (let i = oldKeys.length - 1; i >= 0; i--) {
      const key = oldKeys[i];
      if (key === null || key === undefined) continue;
      let pos = fastutilMix(javaStringHash(key)) & mask;
      while (keys[pos] !== null) pos = (pos + 1) & mask;
      keys[pos] = key;
      values[pos] = oldValues[i]!;
    }
    this.keys = keys;
    this.values = values;
    this.mask = mask;
    this.fill = maxFill(newN, LOAD_FACTOR);
  }

  /** Entries in the map's iteration order (highest slot first). */
  entries(): [string, number][] {
    const out: [string, number][] = [];
    for (let pos = this.keys.length - 1; pos >= 0; pos--) {
      const key = this.keys[pos];
      if (key !== null && key !== undefined) out.push([key, this.values[pos]!]);
    }
    return out;
  }

  keysInOrder(): string[] {
    return this.entries().map(([key]) => key);
  }
}

/** The iteration order of a `java.util.HashSet<String>` after adding `insertions` in order (repeats ignored). */
export function javaHashSetOrder(insertions: Iterable<string>): string[] {
  const distinct = [...new Set(insertions)];
  let n = 16;
  while (distinct.length > n * LOAD_FACTOR) n *= 2;
  const bucket = (key: string) => {
    const h = javaStringHash(key);
    return (h ^ (h >>> 16)) & (n - 1);
  };
  return distinct
    .map((key, order) => ({ key, order, bucket: bucket(key) }))
    .sort((a, b) => a.bucket - b.bucket || a.order - b.order)
    .map(({ key }) => key);
}
