import type { Bm25Index } from './bm25-index.ts';

/**
 * Per-document views of an inverted index, for pseudo-relevance feedback: a document's analyzed terms with
 * their frequencies (Lucene's stored term vector, which Anserini's RM3 reads) and a term's occurrences in
 * the whole collection (Terrier's lexicon frequency F, which Bo1 reads).
 *
 * The index stores postings by term only, so the forward form (postings by document, CSR like the
 * postings) is built on first use in one pass over the postings and cached per index object: for SciFact,
 * about 0.6 M postings, a few milliseconds and ~5 MB.
 */

/** One term of a document and its frequency in that document. */
export interface TermFreq {
  term: string;
  tf: number;
}

interface ForwardIndex {
  /** `numDocs + 1` offsets into `ordinals` / `freqs`. */
  starts: Uint32Array;
  /** Term ordinals of each document, ascending within a document. */
  ordinals: Uint32Array;
  freqs: Uint32Array;
}

const forwardIndexes = new WeakMap<Bm25Index, ForwardIndex>();
const collectionFreqs = new WeakMap<Bm25Index, Float64Array>();

function forwardIndex(index: Bm25Index): ForwardIndex {
  let forward = forwardIndexes.get(index);
  if (forward !== undefined) return forward;
  const numDocs = index.docIds.length;
  const { postingsStart, postingsDocs, postingsFreqs } = index;
  const numPostings = postingsDocs.length;
  const starts = new Uint32Array(numDocs + 1);
  for (let p = 0; p < numPostings; p++) starts[postingsDocs[p]! + 1]! += 1;
  for (let d = 0; d < numDocs; d++) starts[d + 1]! += starts[d]!;
  const next = starts.slice(0, numDocs);
  const ordinals = new Uint32Array(numPostings);
  const freqs = new Uint32Array(numPostings);
  // Terms in ordinal order, so each document's ordinals come out ascending.
  for (let t = 0; t + 1 < postingsStart.length; t++) {
    for (let p = postingsStart[t]!; p < postingsStart[t + 1]!; p++) {
      const slot = next[postingsDocs[p]!]!++;
      ordinals[slot] = t;
      freqs[slot] = postingsFreqs[p]!;
    }
  }
  forward = { starts, ordinals, freqs };
  forwardIndexes.set(index, forward);
  return forward;
}

/** The terms of internal document `doc` with their frequencies, in term-ordinal order. */
export function docTermVector(index: Bm25Index, doc: number): TermFreq[] {
  if (!(doc >= 0 && doc < index.docIds.length)) throw new RangeError(`no document ${doc} in the index`);
  const { starts, ordinals, freqs } = forwardIndex(index);
  const vector: TermFreq[] = [];
  for (let s = starts[doc]!; s < starts[doc + 1]!; s++) vector.push({ term: index.terms[ordinals[s]!]!, tf: freqs[s]! });
  return vector;
}

/** Occurrences of term ordinal `ordinal` in all documents (Lucene's `totalTermFreq`, Terrier's F). */
export function collectionFreq(index: Bm25Index, ordinal: number): number {
  let sums = collectionFreqs.get(index);
  if (sums === undefined) {
    const { postingsStart, postingsFreqs } = index;
    sums = new Float64Array(index.terms.length);
    for (let t = 0; t < sums.length; t++) {
      let sum = 0;
      for (let p = postingsStart[t]!; p < postingsStart[t + 1]!; p++) sum += postingsFreqs[p]!;
      sums[t] = sum;
    }
    collectionFreqs.set(index, sums);
  }
  return ordinal >= 0 && ordinal < sums.length ? sums[ordinal]! : 0;
}
