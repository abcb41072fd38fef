/**
 * BM25 kernel (AssemblyScript → WebAssembly): one instance holds one inverted index in linear memory and
 * scores queries against it with Lucene 8.7's float arithmetic. The host side is `src/lib/bm25-wasm/`.
 */
export {
  builderAddBatch,
  builderFinish,
  builderLengthBuffer,
  builderNumDocs,
  builderNumPairs,
  builderReset,
  builderTokenBuffer,
} from './builder';
export { clauseBuffer, excludedBuffer, normInverseTable, paramsChanged } from './scoring';
export { resultDocs, resultScores, search } from './search';
export { allocateIndex, checkPostings, freeIndex } from './postings';
import { Postings } from './postings';

/** Pointers and sizes of the index arrays, for the host to fill (loading) or read (saving). */
export function indexDocLengths(): usize {
  return Postings.docLengths;
}
export function indexNorms(): usize {
  return Postings.norms;
}
export function indexStarts(): usize {
  return Postings.starts;
}
export function indexDocs(): usize {
  return Postings.docs;
}
export function indexFreqs(): usize {
  return Postings.freqs;
}
export function indexOverflowAt(): usize {
  return Postings.overflowAt;
}
export function indexOverflowFreq(): usize {
  return Postings.overflowFreq;
}
export function indexNumDocs(): u32 {
  return Postings.numDocs;
}
export function indexNumTerms(): u32 {
  return Postings.numTerms;
}
export function indexNumPostings(): u32 {
  return Postings.numPostings;
}
export function indexNumOverflow(): u32 {
  return Postings.numOverflow;
}
