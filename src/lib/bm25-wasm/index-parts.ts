import type { Bm25Index } from '../bm25/bm25-index.ts';
import { intToByte4 } from '../bm25/lucene-norms.ts';
import { FREQ_OVERFLOW } from './kernel.ts';

/**
 * Everything a BM25 index is, as the kernel stores it: the reference `Bm25Index` with term frequencies in
 * one byte each (255 = "see the overflow table") and the rare larger ones in a side table sorted by
 * posting index. This is the unit that is copied into kernel memory, serialized and deserialized.
 */
export interface Bm25IndexParts {
  /** External id of each document, by internal docid (insertion order). */
  docIds: readonly string[];
  /** Term of each term ordinal. */
  terms: readonly string[];
  /** Token count of each document. */
  docLengths: Uint32Array;
  /** Lucene's one-byte length norm of each document (`intToByte4(docLength)`). */
  norms: Uint8Array;
  /** CSR offsets, `terms.length + 1` of them. */
  starts: Uint32Array;
  /** Docid of each posting, ascending within a term. */
  docs: Uint32Array;
  /** Term frequency of each posting, or 255 when it is ≥ 255. */
  freqs: Uint8Array;
  /** Posting indexes whose frequency is ≥ 255, ascending. */
  overflowAt: Uint32Array;
  /** Their frequencies. */
  overflowFreq: Uint32Array;
  /** Documents with at least one token (N of the idf). */
  docCount: number;
  /** Tokens of all documents. */
  sumTotalTermFreq: number;
}

/** The kernel's form of a reference index (its arrays are shared where the layout is the same). */
export function partsFromBm25Index(index: Bm25Index): Bm25IndexParts {
  const numPostings = index.postingsFreqs.length;
  const freqs = new Uint8Array(numPostings);
  const overflowAt: number[] = [];
  const overflowFreq: number[] = [];
  for (let p = 0; p < numPostings; p++) {
    const freq = index.postingsFreqs[p]!;
    if (freq >= FREQ_OVERFLOW) {
      freqs[p] = FREQ_OVERFLOW;
      overflowAt.push(p);
      overflowFreq.push(freq);
    } else {
      freqs[p] = freq;
    }
  }
  return {
    docIds: index.docIds,
    terms: index.terms,
    docLengths: index.docLengths,
    norms: index.norms,
    starts: index.postingsStart,
    docs: index.postingsDocs,
    freqs,
    overflowAt: Uint32Array.from(overflowAt),
    overflowFreq: Uint32Array.from(overflowFreq),
    docCount: index.docCount,
    sumTotalTermFreq: index.sumTotalTermFreq,
  };
}

/** The reference form (for `explainBm25` and comparisons); frequencies are widened to 32 bits. */
export function bm25IndexFromParts(parts: Bm25IndexParts): Bm25Index {
  const postingsFreqs = Uint32Array.from(parts.freqs);
  parts.overflowAt.forEach((at, i) => {
    postingsFreqs[at] = parts.overflowFreq[i]!;
  });
  return {
    docIds: parts.docIds,
    docLengths: parts.docLengths,
    norms: parts.norms,
    terms: parts.terms,
    postingsStart: parts.starts,
    postingsDocs: parts.docs,
    postingsFreqs,
    docCount: parts.docCount,
    sumTotalTermFreq: parts.sumTotalTermFreq,
  };
}

/** Why a set of parts cannot be an index, or null when it is consistent (checked before loading). */
export function partsProblem(parts: Bm25IndexParts): string | null {
  const numDocs = parts.docIds.length;
  const numTerms = parts.terms.length;
  const numPostings = parts.docs.length;
  if (parts.docLengths.length !== numDocs || parts.norms.length !== numDocs) return 'per-document arrays differ in length';
  if (parts.starts.length !== numTerms + 1) return 'the term offsets do not match the terms';
  if (parts.starts[0] !== 0 || parts.starts[numTerms] !== numPostings) return 'the term offsets do not span the postings';
  if (parts.freqs.length !== numPostings) return 'postings docids and frequencies differ in length';
  if (parts.overflowAt.length !== parts.overflowFreq.length) return 'the overflow table is ragged';
  for (let t = 0; t < numTerms; t++) {
    if (parts.starts[t]! > parts.starts[t + 1]!) return `the offsets of term ${t} decrease`;
  }
  let overflowBytes = 0;
  for (let p = 0; p < numPostings; p++) {
    if (parts.docs[p]! >= numDocs) return `posting ${p} points past the last document`;
    if (parts.freqs[p] === FREQ_OVERFLOW) overflowBytes += 1;
  }
  if (overflowBytes !== parts.overflowAt.length) return 'the overflow table does not match the frequency bytes';
  for (let i = 0; i < parts.overflowAt.length; i++) {
    const at = parts.overflowAt[i]!;
    if (at >= numPostings || parts.freqs[at] !== FREQ_OVERFLOW || (i > 0 && at <= parts.overflowAt[i - 1]!)) {
      return `overflow entry ${i} is out of place`;
    }
    if (parts.overflowFreq[i]! < FREQ_OVERFLOW) return `overflow entry ${i} holds a small frequency`;
  }
  for (let d = 0; d < numDocs; d++) {
    if (parts.norms[d] !== intToByte4(parts.docLengths[d]!)) return `the norm of document ${d} does not match its length`;
  }
  return null;
}
