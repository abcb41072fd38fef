/**
 * Scored documents as sortable keys, and the one sort of them that both top-k paths end with (select.ts for
 * term-at-a-time, top-k.ts for max-score). Lucene's order — higher score first, equal scores by lower docid —
 * is the unsigned order of one u64: the float's order-preserving bits in the high half, the complement of the
 * docid in the low half.
 */

/** Float bits mapped so that unsigned order equals numeric order (−0 just below +0; scores are never NaN). */
// @ts-ignore: decorator
@inline
export function scoreKey(score: f32): u32 {
  const bits = reinterpret<u32>(score);
  return (bits & 0x80000000) != 0 ? ~bits : bits | 0x80000000;
}

// @ts-ignore: decorator
@inline
export function keyScore(key: u32): f32 {
  return reinterpret<f32>((key & 0x80000000) != 0 ? key ^ 0x80000000 : ~key);
}

/** The key of a document whose score's key (`scoreKey`) is `key`. */
// @ts-ignore: decorator
@inline
export function hitKey(key: u32, doc: u32): u64 {
  return (<u64>key << 32) | <u64>~doc;
}

// @ts-ignore: decorator
@inline
export function docKey(score: f32, doc: u32): u64 {
  return hitKey(scoreKey(score), doc);
}

@unmanaged
class Digits {
  static counts: usize = 0;
}

/**
 * Stable LSD radix sort of `n` u64 keys at `keys`, descending, on bits `fromBit` … 63 only (8 bits per pass,
 * `fromBit` a multiple of 8); a pass whose digit is the same for every key is skipped. `spare` holds `n` more
 * keys. Returns where the sorted keys are (`keys` or `spare`). With `fromBit` 32 equal scores keep their
 * order of arrival, which is the docid order when candidates came in increasing docid.
 */
export function sortKeysDescending(keys: usize, spare: usize, n: u32, fromBit: u32): usize {
  if (Digits.counts == 0) Digits.counts = heap.alloc(256 << 2);
  const counts = Digits.counts;
  for (let shift: u64 = <u64>fromBit; shift < 64; shift += 8) {
    memory.fill(counts, 0, 256 << 2);
    for (let i: u32 = 0; i < n; i++) {
      const digit = 255 - <u32>((load<u64>(keys + (<usize>i << 3)) >>> shift) & 255);
      const at = counts + (<usize>digit << 2);
      store<u32>(at, load<u32>(at) + 1);
    }
    let same = false;
    let offset: u32 = 0;
    for (let digit: u32 = 0; digit < 256; digit++) {
      const at = counts + (<usize>digit << 2);
      const count = load<u32>(at);
      if (count == n) same = true;
      store<u32>(at, offset);
      offset += count;
    }
    if (same) continue;
    for (let i: u32 = 0; i < n; i++) {
      const key = load<u64>(keys + (<usize>i << 3));
      const at = counts + (<usize>(255 - <u32>((key >>> shift) & 255)) << 2);
      const slot = load<u32>(at);
      store<u32>(at, slot + 1);
      store<u64>(spare + (<usize>slot << 3), key);
    }
    const swapped = keys;
    keys = spare;
    spare = swapped;
  }
  return keys;
}

/** Writes the first `n` keys as hits: docids to `docs` (i32) and scores to `scores` (f32). */
export function writeHits(keys: usize, n: u32, docs: usize, scores: usize): void {
  for (let i: u32 = 0; i < n; i++) {
    const key = load<u64>(keys + (<usize>i << 3));
    store<i32>(docs + (<usize>i << 2), <i32>~<u32>key);
    store<f32>(scores + (<usize>i << 2), keyScore(<u32>(key >>> 32)));
  }
}
