/**
 * Builds the CSR postings from a stream of documents given as term ordinals (the host maps strings to
 * ordinals, in order of first appearance, exactly as `Bm25IndexBuilder` does).
 *
 * Each batch is counted document by document into (term, freq) pairs — `lastDoc[t]` says whether term t
 * was already seen in the current document and `slot[t]` where its pair is — so no per-document hash map
 * is needed. `builderFinish` groups the pairs by term with a stable counting sort, which keeps each term's
 * docids ascending without sorting.
 */
import { intToByte4 } from './norms';
import { FREQ_OVERFLOW, Postings, allocateIndex } from './postings';

const NO_DOC: u32 = 0xffffffff;

@unmanaged
class Builder {
  static numDocs: u32 = 0;
  static numPairs: u32 = 0;
  static pairCap: u32 = 0;
  static pairTerm: usize = 0;
  static pairFreq: usize = 0;
  static docCap: u32 = 0;
  static docPairStart: usize = 0;
  static docLength: usize = 0;
  static termCap: u32 = 0;
  static lastDoc: usize = 0;
  static slot: usize = 0;
  static tokenCap: u32 = 0;
  static tokens: usize = 0;
  static lengthCap: u32 = 0;
  static lengths: usize = 0;
}

/** Capacity at least `needed`, doubling so that n appends cost O(n) copies in total. */
function grownCapacity(current: u32, needed: u32): u32 {
  let capacity = max<u32>(current, 1024);
  while (capacity < needed) capacity = capacity < 0x40000000 ? capacity << 1 : needed;
  return capacity;
}

function resize(ptr: usize, bytes: usize): usize {
  return ptr == 0 ? heap.alloc(max<usize>(bytes, 16)) : heap.realloc(ptr, max<usize>(bytes, 16));
}

/** Room for the ordinals of a batch (u32 each); the host writes them, then calls builderAddBatch. */
export function builderTokenBuffer(count: u32): usize {
  if (count > Builder.tokenCap) {
    Builder.tokenCap = grownCapacity(Builder.tokenCap, count);
    Builder.tokens = resize(Builder.tokens, <usize>Builder.tokenCap << 2);
  }
  return Builder.tokens;
}

/** Room for the token counts of a batch's documents (u32 each). */
export function builderLengthBuffer(count: u32): usize {
  if (count > Builder.lengthCap) {
    Builder.lengthCap = grownCapacity(Builder.lengthCap, count);
    Builder.lengths = resize(Builder.lengths, <usize>Builder.lengthCap << 2);
  }
  return Builder.lengths;
}

function ensureTerms(numTerms: u32): void {
  if (numTerms <= Builder.termCap) return;
  const old = Builder.termCap;
  Builder.termCap = grownCapacity(old, numTerms);
  Builder.lastDoc = resize(Builder.lastDoc, <usize>Builder.termCap << 2);
  Builder.slot = resize(Builder.slot, <usize>Builder.termCap << 2);
  memory.fill(Builder.lastDoc + (<usize>old << 2), 0xff, <usize>(Builder.termCap - old) << 2);
}

function ensureDocs(numDocs: u32): void {
  if (numDocs <= Builder.docCap) return;
  Builder.docCap = grownCapacity(Builder.docCap, numDocs);
  Builder.docPairStart = resize(Builder.docPairStart, <usize>Builder.docCap << 2);
  Builder.docLength = resize(Builder.docLength, <usize>Builder.docCap << 2);
}

function ensurePairs(numPairs: u32): void {
  if (numPairs <= Builder.pairCap) return;
  Builder.pairCap = grownCapacity(Builder.pairCap, numPairs);
  Builder.pairTerm = resize(Builder.pairTerm, <usize>Builder.pairCap << 2);
  Builder.pairFreq = resize(Builder.pairFreq, <usize>Builder.pairCap << 2);
}

/**
 * Adds `numDocs` documents whose token counts are in the length buffer and whose ordinals (all below
 * `numTerms`) follow each other in the token buffer (`numTokens` in all).
 */
export function builderAddBatch(numDocs: u32, numTokens: u32, numTerms: u32): void {
  ensureTerms(numTerms);
  ensureDocs(Builder.numDocs + numDocs);
  ensurePairs(Builder.numPairs + numTokens);
  const lastDoc = Builder.lastDoc;
  const slot = Builder.slot;
  const pairTerm = Builder.pairTerm;
  const pairFreq = Builder.pairFreq;
  let token = Builder.tokens;
  let pairs = Builder.numPairs;
  for (let i: u32 = 0; i < numDocs; i++) {
    const doc = Builder.numDocs++;
    const length = load<u32>(Builder.lengths + (<usize>i << 2));
    store<u32>(Builder.docPairStart + (<usize>doc << 2), pairs);
    store<u32>(Builder.docLength + (<usize>doc << 2), length);
    const end = token + (<usize>length << 2);
    for (; token < end; token += 4) {
      const term = <usize>load<u32>(token);
      if (load<u32>(lastDoc + (term << 2)) != doc) {
        store<u32>(lastDoc + (term << 2), doc);
        store<u32>(slot + (term << 2), pairs);
        store<u32>(pairTerm + (<usize>pairs << 2), <u32>term);
        store<u32>(pairFreq + (<usize>pairs << 2), 1);
        pairs++;
      } else {
        const at = pairFreq + (<usize>load<u32>(slot + (term << 2)) << 2);
        store<u32>(at, load<u32>(at) + 1);
      }
    }
  }
  Builder.numPairs = pairs;
}

export function builderNumDocs(): u32 {
  return Builder.numDocs;
}

export function builderNumPairs(): u32 {
  return Builder.numPairs;
}

/** Sorts the overflow table (posting index, freq) by posting index: few entries, so a Shell sort. */
function sortOverflow(count: u32): void {
  const at = Postings.overflowAt;
  const freq = Postings.overflowFreq;
  let gap = count >>> 1;
  while (gap > 0) {
    for (let i = gap; i < count; i++) {
      const key = load<u32>(at + (<usize>i << 2));
      const value = load<u32>(freq + (<usize>i << 2));
      let j = i;
      while (j >= gap && load<u32>(at + (<usize>(j - gap) << 2)) > key) {
        store<u32>(at + (<usize>j << 2), load<u32>(at + (<usize>(j - gap) << 2)));
        store<u32>(freq + (<usize>j << 2), load<u32>(freq + (<usize>(j - gap) << 2)));
        j -= gap;
      }
      store<u32>(at + (<usize>j << 2), key);
      store<u32>(freq + (<usize>j << 2), value);
    }
    gap >>>= 1;
  }
}

/** Turns the pairs into the index (`Postings`) for `numTerms` terms and releases the builder's memory. */
export function builderFinish(numTerms: u32): void {
  ensureTerms(numTerms);
  const numDocs = Builder.numDocs;
  const numPairs = Builder.numPairs;
  let numOverflow: u32 = 0;
  for (let p: u32 = 0; p < numPairs; p++) {
    if (load<u32>(Builder.pairFreq + (<usize>p << 2)) >= FREQ_OVERFLOW) numOverflow++;
  }
  allocateIndex(numDocs, numTerms, numPairs, numOverflow);

  const starts = Postings.starts;
  for (let p: u32 = 0; p < numPairs; p++) {
    const at = starts + ((<usize>load<u32>(Builder.pairTerm + (<usize>p << 2)) + 1) << 2);
    store<u32>(at, load<u32>(at) + 1);
  }
  for (let t: u32 = 0; t < numTerms; t++) {
    const at = starts + ((<usize>t + 1) << 2);
    store<u32>(at, load<u32>(at) + load<u32>(at - 4));
  }

  // `slot` becomes the next free posting of each term.
  const next = Builder.slot;
  memory.copy(next, starts, <usize>numTerms << 2);
  let overflow: u32 = 0;
  for (let doc: u32 = 0; doc < numDocs; doc++) {
    const length = load<u32>(Builder.docLength + (<usize>doc << 2));
    store<u32>(Postings.docLengths + (<usize>doc << 2), length);
    store<u8>(Postings.norms + <usize>doc, intToByte4(length));
    const end = doc + 1 < numDocs ? load<u32>(Builder.docPairStart + ((<usize>doc + 1) << 2)) : numPairs;
    for (let p = load<u32>(Builder.docPairStart + (<usize>doc << 2)); p < end; p++) {
      const term = <usize>load<u32>(Builder.pairTerm + (<usize>p << 2));
      const position = load<u32>(next + (term << 2));
      store<u32>(next + (term << 2), position + 1);
      store<u32>(Postings.docs + (<usize>position << 2), doc);
      const freq = load<u32>(Builder.pairFreq + (<usize>p << 2));
      if (freq >= FREQ_OVERFLOW) {
        store<u8>(Postings.freqs + <usize>position, <u8>FREQ_OVERFLOW);
        store<u32>(Postings.overflowAt + (<usize>overflow << 2), position);
        store<u32>(Postings.overflowFreq + (<usize>overflow << 2), freq);
        overflow++;
      } else {
        store<u8>(Postings.freqs + <usize>position, <u8>freq);
      }
    }
  }
  sortOverflow(numOverflow);
  builderReset();
}

/** Forgets the documents added so far and frees the builder's memory (the finished index stays). */
export function builderReset(): void {
  if (Builder.pairTerm != 0) heap.free(Builder.pairTerm);
  if (Builder.pairFreq != 0) heap.free(Builder.pairFreq);
  if (Builder.docPairStart != 0) heap.free(Builder.docPairStart);
  if (Builder.docLength != 0) heap.free(Builder.docLength);
  if (Builder.lastDoc != 0) heap.free(Builder.lastDoc);
  if (Builder.slot != 0) heap.free(Builder.slot);
  if (Builder.tokens != 0) heap.free(Builder.tokens);
  if (Builder.lengths != 0) heap.free(Builder.lengths);
  Builder.pairTerm = Builder.pairFreq = Builder.docPairStart = Builder.docLength = 0;
  Builder.lastDoc = Builder.slot = Builder.tokens = Builder.lengths = 0;
  Builder.numDocs = Builder.numPairs = Builder.pairCap = Builder.docCap = 0;
  Builder.termCap = Builder.tokenCap = Builder.lengthCap = 0;
}
