/**
 * A bounded top-k heap for document-at-a-time search, with Lucene's order — higher score first, equal
 * scores by lower docid. (score, docid) is packed into one u64 whose unsigned order is exactly that: the
 * float's order-preserving bits in the high half, the complement of the docid in the low half. The heap is
 * a binary min-heap (worst kept document at the root), so the entry bar is one comparison; at the end a
 * radix sort (8 bits per pass, constant digits skipped) puts the kept keys in order.
 */
import { DocScratch } from './postings';
import { keyScore, scoreKey } from './select';

@unmanaged
class Heap {
  static size: u32 = 0;
  static limit: u32 = 0;
  static counts: usize = 0;
}

// @ts-ignore: decorator
@inline
export function docKey(score: f32, doc: u32): u64 {
  return (<u64>scoreKey(score) << 32) | <u64>~doc;
}

export function heapReset(k: u32): void {
  Heap.size = 0;
  Heap.limit = k;
}

// @ts-ignore: decorator
@inline
export function heapFull(): bool {
  return Heap.size == Heap.limit;
}

/** The worst kept key (meaningful when the heap is full). */
// @ts-ignore: decorator
@inline
export function heapMin(): u64 {
  return load<u64>(DocScratch.sums);
}

function siftDown(index: u32, key: u64, size: u32): void {
  const keys = DocScratch.sums;
  let parent = index;
  for (;;) {
    let child: u32 = 2 * parent + 1;
    if (child >= size) break;
    let childKey = load<u64>(keys + (<usize>child << 3));
    const right = child + 1;
    if (right < size) {
      const rightKey = load<u64>(keys + (<usize>right << 3));
      if (rightKey < childKey) {
        child = right;
        childKey = rightKey;
      }
    }
    if (key <= childKey) break;
    store<u64>(keys + (<usize>parent << 3), childKey);
    parent = child;
  }
  store<u64>(keys + (<usize>parent << 3), key);
}

function siftUp(index: u32, key: u64): void {
  const keys = DocScratch.sums;
  let child = index;
  while (child > 0) {
    const parent = (child - 1) >>> 1;
    const parentKey = load<u64>(keys + (<usize>parent << 3));
    if (parentKey <= key) break;
    store<u64>(keys + (<usize>child << 3), parentKey);
    child = parent;
  }
  store<u64>(keys + (<usize>child << 3), key);
}

/** Offers a candidate; returns true when it was kept. */
export function heapOffer(key: u64): bool {
  const size = Heap.size;
  if (size < Heap.limit) {
    siftUp(size, key);
    Heap.size = size + 1;
    return true;
  }
  if (key <= load<u64>(DocScratch.sums)) return false;
  siftDown(0, key, size);
  return true;
}

/**
 * Writes the kept documents, best first, to `docs` (i32) and `scores` (f32), zeroes the heap's memory
 * (it is the term-at-a-time accumulators' too) and returns how many.
 */
export function heapDrain(docs: usize, scores: usize): u32 {
  const n = Heap.size;
  if (Heap.counts == 0) Heap.counts = heap.alloc(256 << 2);
  const counts = Heap.counts;
  let keys = DocScratch.sums;
  let spare = DocScratch.regionA;
  for (let shift: u64 = 0; shift < 64; shift += 8) {
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
  for (let i: u32 = 0; i < n; i++) {
    const key = load<u64>(keys + (<usize>i << 3));
    store<i32>(docs + (<usize>i << 2), <i32>~<u32>key);
    store<f32>(scores + (<usize>i << 2), keyScore(<u32>(key >>> 32)));
  }
  memory.fill(DocScratch.sums, 0, <usize>n << 3);
  Heap.size = 0;
  return n;
}
