/**
 * The inverted index in linear memory, CSR style (the layout of `src/lib/bm25/bm25-index.ts`):
 *
 *   starts[t] .. starts[t + 1] − 1   the postings of term ordinal t
 *   docs[p]                          docid of posting p (ascending within a term)
 *   freqs[p]                         term frequency, one byte; 255 means "look it up in the overflow table"
 *   norms[d]                         Lucene's one-byte length norm of document d
 *   docLengths[d]                    exact token count of document d (kept for explanations and round trips)
 *
 * Term frequencies above 254 are rare (none in SciFact, whose largest is 42), so they live in a sorted side
 * table (posting index → frequency) found by binary search; the hot loop pays one predictable branch.
 * One instance holds one index: the host instantiates the module once per index.
 */

export const FREQ_OVERFLOW: u32 = 255;

@unmanaged
export class Postings {
  static numDocs: u32 = 0;
  static numTerms: u32 = 0;
  static numPostings: u32 = 0;
  static numOverflow: u32 = 0;
  static docLengths: usize = 0;
  static norms: usize = 0;
  static starts: usize = 0;
  static docs: usize = 0;
  static freqs: usize = 0;
  static overflowAt: usize = 0;
  static overflowFreq: usize = 0;
}

// @ts-ignore: decorator
@inline
function align8(bytes: usize): usize {
  return (bytes + 7) & ~(<usize>7);
}

/**
 * Per-document and per-term scratch of searches, laid out by `allocateIndex` right after the index.
 * Term-at-a-time uses `sums` for its accumulators and regions A and B for its candidate lists; max-score
 * uses `sums` for its top-k heap (u64 keys, zeroed again after each query) and region A to sort it.
 */
@unmanaged
export class DocScratch {
  /** 8 bytes per document: f64 score sums (zero between queries), or the max-score heap. */
  static sums: usize = 0;
  /** 8 bytes per document, twice. */
  static regionA: usize = 0;
  static regionB: usize = 0;
  /** One bit per document: matched (term-at-a-time) or excluded (max-score); zero between queries. */
  static matched: usize = 0;
  /** Results: i32 docids and f32 scores, up to one per document. */
  static outDocs: usize = 0;
  static outScores: usize = 0;
  /** Per term: the largest f32 `tf · normInverse[norm]` of its postings, valid when its epoch is current. */
  static termMaxX: usize = 0;
  static termMaxEpoch: usize = 0;
}

/** The one block holding the index and its scratch (freed as a whole). */
let block: usize = 0;

/**
 * Frees the current index (if any) and allocates one zeroed block for an index of the given sizes and for
 * the per-document scratch of its searches. One allocation, sized exactly: the allocator grows memory by
 * at least its current size when it runs out (doubling), so separate allocations would leave up to half of
 * the memory unused; one block makes the instance's memory the index plus a fixed 64 KiB page or two.
 */
export function allocateIndex(numDocs: u32, numTerms: u32, numPostings: u32, numOverflow: u32): void {
  freeIndex();
  const total = layout(0, numDocs, numTerms, numPostings, numOverflow);
  block = heap.alloc(max<usize>(total, 16));
  memory.fill(block, 0, total);
  layout(block, numDocs, numTerms, numPostings, numOverflow);
  Postings.numDocs = numDocs;
  Postings.numTerms = numTerms;
  Postings.numPostings = numPostings;
  Postings.numOverflow = numOverflow;
}

/** Places every array from `base` (8-byte aligned each) and returns the end; with base 0, only measures. */
function layout(base: usize, numDocs: u32, numTerms: u32, numPostings: u32, numOverflow: u32): usize {
  const place = base != 0;
  const docs = <usize>numDocs;
  const terms = <usize>numTerms;
  let at = base;
  if (place) DocScratch.sums = at;
  at += align8(docs << 3);
  if (place) DocScratch.regionA = at;
  at += align8(docs << 3);
  if (place) DocScratch.regionB = at;
  at += align8(docs << 3);
  if (place) Postings.docLengths = at;
  at += align8(docs << 2);
  if (place) Postings.starts = at;
  at += align8((terms + 1) << 2);
  if (place) Postings.docs = at;
  at += align8(<usize>numPostings << 2);
  if (place) Postings.overflowAt = at;
  at += align8(<usize>numOverflow << 2);
  if (place) Postings.overflowFreq = at;
  at += align8(<usize>numOverflow << 2);
  if (place) DocScratch.matched = at;
  at += align8(((docs + 31) >>> 5) << 2);
  if (place) DocScratch.outDocs = at;
  at += align8(docs << 2);
  if (place) DocScratch.outScores = at;
  at += align8(docs << 2);
  if (place) DocScratch.termMaxX = at;
  at += align8(terms << 2);
  if (place) DocScratch.termMaxEpoch = at;
  at += align8(terms << 2);
  if (place) Postings.norms = at;
  at += align8(docs);
  if (place) Postings.freqs = at;
  at += align8(<usize>numPostings);
  return at - base;
}

export function freeIndex(): void {
  if (block != 0) heap.free(block);
  block = 0;
  Postings.docLengths = Postings.norms = Postings.starts = Postings.docs = Postings.freqs = 0;
  Postings.overflowAt = Postings.overflowFreq = 0;
  Postings.numDocs = Postings.numTerms = Postings.numPostings = Postings.numOverflow = 0;
}

/**
 * Checks what the host copied in, over every posting, in compiled code (a stored index may be corrupt, and a
 * docid past the last document would send a search outside its arrays): returns the first posting whose
 * docid is not below numDocs, -2 when the count of overflow bytes is not the overflow table's length, and
 * -1 when both hold. The host checks the per-term and per-document arrays itself (index-parts.ts).
 */
export function checkPostings(): i32 {
  const numDocs = Postings.numDocs;
  const numPostings = Postings.numPostings;
  let overflow: u32 = 0;
  for (let p: u32 = 0; p < numPostings; p++) {
    if (load<u32>(Postings.docs + (<usize>p << 2)) >= numDocs) return <i32>p;
    if (<u32>load<u8>(Postings.freqs + <usize>p) == FREQ_OVERFLOW) overflow++;
  }
  return overflow == Postings.numOverflow ? -1 : -2;
}

/** Frequency of posting p: its byte, or for FREQ_OVERFLOW the overflow table's entry. */
// @ts-ignore: decorator
@inline
export function freqAt(p: u32): u32 {
  const freq = <u32>load<u8>(Postings.freqs + <usize>p);
  return freq == FREQ_OVERFLOW ? overflowFreq(p) : freq;
}

/** Frequency of posting p whose byte is FREQ_OVERFLOW: binary search in the overflow table. */
export function overflowFreq(p: u32): u32 {
  let low: i32 = 0;
  let high: i32 = <i32>Postings.numOverflow - 1;
  while (low <= high) {
    const mid = (low + high) >>> 1;
    const at = load<u32>(Postings.overflowAt + (<usize>mid << 2));
    if (at == p) return load<u32>(Postings.overflowFreq + (<usize>mid << 2));
    if (at < p) low = mid + 1;
    else high = mid - 1;
  }
  return FREQ_OVERFLOW; // unreachable for a consistent index
}
