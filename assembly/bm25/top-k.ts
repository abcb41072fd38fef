/**
 * A bounded top-k heap for document-at-a-time search, with Lucene's order — higher score first, equal
 * scores by lower docid — over the u64 hit keys of hit-keys.ts, whose unsigned order is exactly that. The
 * heap is a binary min-heap (worst kept document at the root), so the entry bar is one comparison; at the
 * end the radix sort of hit-keys.ts puts the kept keys in order (on all 64 bits: heap order is not docid order).
 */
import { sortKeysDescending, writeHits } from './hit-keys';
import { DocScratch } from './postings';

@unmanaged
class Heap {
  static size: u32 = 0;
  static limit: u32 = 0;
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
  writeHits(sortKeysDescending(DocScratch.sums, DocScratch.regionA, n, 0), n, docs, scores);
  memory.fill(DocScratch.sums, 0, <usize>n << 3);
  Heap.size = 0;
  return n;
}
