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

/**
 * Why a set of parts cannot be an index, or null when it is consistent as far as the per-term and
 * per-document arrays and the overflow table go (checked before loading). The per-posting checks — docids in
 * range, one overflow entry per overflow byte — run in the kernel once the postings are copied in
 * (`checkPostings`, `postingsProblem`): a loop over every posting costs a stored index's open tens of
 * milliseconds in a worker's first, interpreted run of it, and little in compiled WebAssembly.
 */
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

/** What the kernel's `checkPostings` answered, as `partsProblem` words it (null: sound). */
export function postingsProblem(checked: number): string | null {
  if (checked === -1) return null;
  if (checked === -2) return 'the overflow table does not match the frequency bytes';
  return `posting ${checked} points past the last document`;
}

/**
 * Term ordinals sorted by their terms, in the order `<` compares strings (UTF-16 code units): a stored index
 * keeps it, so opening one finds a query's terms by binary search instead of first putting every term in a
 * map (tens of milliseconds for SciFact's 28,865 terms in a worker's first run).
 */
export function termOrderOf(terms: readonly string[]): Uint32Array {
  const order = new Uint32Array(terms.length);
  for (let t = 0; t < order.length; t++) order[t] = t;
  // Terms are distinct, so no two compare equal.
  return order.sort((a, b) => (terms[a]! < terms[b]! ? -1 : 1));
}

/** Why `order` is not `termOrderOf(terms)`, or null: strictly increasing terms along it make it that permutation. */
export function termOrderProblem(terms: readonly string[], order: Uint32Array): string | null {
  if (order.length !== terms.length) return 'the term order does not match the terms';
  for (let i = 0; i < order.length; i++) {
    if (order[i]! >= terms.length) return `the term order names term ${order[i]}, past the last one`;
    if (i > 0 && !(terms[order[i - 1]!]! < terms[order[i]!]!)) return `the term order is not sorted at ${i}`;
  }
  return null;
}
