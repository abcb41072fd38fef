import { hitKey, scoreKey, sortKeysDescending, writeHits } from './hit-keys';
import { DocScratch, Postings } from './postings';

/**
 * Top-k selection with Lucene's order — higher score first, equal scores by lower docid
 * (`TopScoreDocCollector` visits docids in increasing order and a later document only enters a full queue
 * when it scores strictly higher) — by radix select and the stable radix sort of hit-keys.ts instead of a heap.
 *
 * Candidates arrive in increasing docid order, each with its float score turned into a 32-bit key whose
 * unsigned order is the numeric order. Every step below is stable, so among equal keys the docid order of
 * arrival survives: that is the tie rule, with no docid in the comparison.
 *   1. select: a histogram of the top 11 key bits finds the bucket holding the k-th best key; candidates
 *      below that bucket are dropped (a second 11-bit level narrows a crowded boundary bucket);
 *   2. sort: the survivors become (score, docid) keys, sorted on their score bits only (hit-keys.ts).
 * A heap costs O(log k) per entering candidate and again per extraction, which dominated the query time
 * for k = 1000; these passes are linear with small constants.
 */

/** Candidate keys (`scoreKey`) and docids, u32 each, in region A; region B takes the survivors' hit keys to sort. */
@unmanaged
class Candidates {
  static keys: usize = 0;
  static docs: usize = 0;
  static counts: usize = 0;
  static count: u32 = 0;
}

const SELECT_BITS: u32 = 11;
const SELECT_BUCKETS: u32 = 1 << SELECT_BITS;

/** Empties the candidate list. */
export function candidatesReset(): void {
  if (Candidates.counts == 0) Candidates.counts = heap.alloc(<usize>SELECT_BUCKETS << 2);
  const half = <usize>Postings.numDocs << 2;
  Candidates.keys = DocScratch.regionA;
  Candidates.docs = DocScratch.regionA + half;
  Candidates.count = 0;
}

/** Appends a candidate (docids must come in increasing order). */
// @ts-ignore: decorator
@inline
export function candidatesAdd(doc: u32, score: f32): void {
  const i = Candidates.count;
  Candidates.count = i + 1;
  store<u32>(Candidates.keys + (<usize>i << 2), scoreKey(score));
  store<u32>(Candidates.docs + (<usize>i << 2), doc);
}

/**
 * One radix-select level. Among the candidates whose bits above `prefixShift` equal `prefix` (all of them
 * when `prefixShift` is 32), a histogram of the 11 bits at `shift` finds the bucket holding the k-th best
 * key, counting the candidates with a higher prefix as already above it. Keeps, in arrival order, those
 * with a higher prefix, a higher bucket, or the boundary bucket; returns the boundary bucket.
 */
function narrow(k: u32, shift: u32, prefixShift: u32, prefix: u32): u32 {
  const counts = Candidates.counts;
  const keys = Candidates.keys;
  const docs = Candidates.docs;
  const n = Candidates.count;
  const hasPrefix = prefixShift < 32;
  memory.fill(counts, 0, <usize>SELECT_BUCKETS << 2);
  let above: u32 = 0;
  for (let i: u32 = 0; i < n; i++) {
    const key = load<u32>(keys + (<usize>i << 2));
    if (hasPrefix && key >>> prefixShift != prefix) {
      if (key >>> prefixShift > prefix) above++;
      continue;
    }
    const at = counts + (<usize>((key >>> shift) & (SELECT_BUCKETS - 1)) << 2);
    store<u32>(at, load<u32>(at) + 1);
  }
  let bucket: u32 = SELECT_BUCKETS - 1;
  for (; bucket > 0; bucket--) {
    const inBucket = load<u32>(counts + (<usize>bucket << 2));
    if (above + inBucket >= k) break;
    above += inBucket;
  }
  let kept: u32 = 0;
  for (let i: u32 = 0; i < n; i++) {
    const key = load<u32>(keys + (<usize>i << 2));
    const keep = hasPrefix && key >>> prefixShift != prefix
      ? key >>> prefixShift > prefix
      : ((key >>> shift) & (SELECT_BUCKETS - 1)) >= bucket;
    if (keep) {
      store<u32>(keys + (<usize>kept << 2), key);
      store<u32>(docs + (<usize>kept << 2), load<u32>(docs + (<usize>i << 2)));
      kept++;
    }
  }
  Candidates.count = kept;
  return bucket;
}

/** Drops candidates that cannot be among the best k (ties of the k-th stay, and a few more). */
function select(k: u32): void {
  if (Candidates.count <= k) return;
  const firstShift = 32 - SELECT_BITS;
  const bucket = narrow(k, firstShift, 32, 0);
  // A crowded boundary bucket: narrow again on the next 11 bits among its members.
  if (Candidates.count > 2 * k) narrow(k, firstShift - SELECT_BITS, firstShift, bucket);
}

/** Writes the best `k` candidates, best first, to `docs` (i32) and `scores` (f32); returns how many. */
export function candidatesTop(k: u32, docs: usize, scores: usize): u32 {
  select(k);
  const n = Candidates.count;
  // The survivors go to region B as hit keys; once packed, region A is the sort's spare.
  const keys = DocScratch.regionB;
  for (let i: u32 = 0; i < n; i++) {
    store<u64>(keys + (<usize>i << 3), hitKey(load<u32>(Candidates.keys + (<usize>i << 2)), load<u32>(Candidates.docs + (<usize>i << 2))));
  }
  const sorted = sortKeysDescending(keys, DocScratch.regionA, n, 32);
  const count = min<u32>(k, n);
  writeHits(sorted, count, docs, scores);
  return count;
}
