import { intToByte4 } from './lucene-norms.ts';

/**
 * An inverted index with exactly the statistics Lucene 8.7's `BM25Similarity` reads, over terms that were
 * already analyzed (e.g. by the EnglishAnalyzer in `src/lib/analysis`). It is plain data — strings and
 * typed arrays, no class instances or Maps — so it crosses worker boundaries by structured clone, stores in
 * IndexedDB and can be copied into WebAssembly memory as it is.
 *
 * Documents are numbered 0, 1, 2, … in insertion order: that number is Lucene's internal docid (one
 * segment, no deletions, as written by a single-threaded `IndexWriter`), which breaks ties between equal
 * scores. Postings are stored CSR-style: the postings of term `t` are the slots
 * `postingsStart[t] .. postingsStart[t + 1] − 1` of `postingsDocs` (ascending docids) and `postingsFreqs`.
 */
export interface Bm25Index {
  /** External id of each document, by internal docid. */
  readonly docIds: readonly string[];
  /**
   * Field length of each document: its number of tokens, i.e. Lucene's `FieldInvertState.getLength()` minus
   * overlaps (tokens at position increment 0, which the EnglishAnalyzer never produces). Stop words removed
   * by the analyzer leave position gaps but are not tokens, so they do not count.
   */
  readonly docLengths: Uint32Array;
  /** The length as Lucene stores it: one byte, `SmallFloat.intToByte4(docLength)`. Scoring uses this. */
  readonly norms: Uint8Array;
  /** Term of each term ordinal, in order of first appearance. */
  readonly terms: readonly string[];
  /** `terms.length + 1` offsets into the postings arrays; `postingsStart[t + 1] − postingsStart[t]` = df. */
  readonly postingsStart: Uint32Array;
  /** Docids of every posting, grouped by term, ascending within a term. */
  readonly postingsDocs: Uint32Array;
  /** Term frequency (occurrences in the document) of every posting. */
  readonly postingsFreqs: Uint32Array;
  /** Lucene's `CollectionStatistics.docCount()`: documents with at least one token in the field. */
  readonly docCount: number;
  /** Lucene's `sumTotalTermFreq()`: all tokens of all documents. */
  readonly sumTotalTermFreq: number;
}

/** One document to index: its id and its analyzed terms in order (repeats count as term frequency). */
export interface AnalyzedDoc {
  id: string;
  terms: readonly string[];
}

/** An append-only Uint32Array that doubles its capacity as needed. */
class GrowableUint32 {
  private data = new Uint32Array(1024);
  length = 0;

  push(value: number): void {
    if (this.length === this.data.length) {
      const bigger = new Uint32Array(this.data.length * 2);
      bigger.set(this.data);
      this.data = bigger;
    }
    this.data[this.length++] = value;
  }

  get(index: number): number {
    return this.data[index]!;
  }

  toArray(): Uint32Array {
    return this.data.slice(0, this.length);
  }
}

/**
 * Builds a `Bm25Index` one document at a time (so a corpus can be streamed). Postings are collected as
 * (term, freq) pairs in document order and grouped by term once at the end with a stable counting sort,
 * which keeps the docids of each term ascending without sorting.
 */
export class Bm25IndexBuilder {
  private readonly docIds: string[] = [];
  private readonly seenIds = new Set<string>();
  private readonly docLengths = new GrowableUint32();
  private readonly termOrdinals = new Map<string, number>();
  private readonly terms: string[] = [];
  private readonly pairTerms = new GrowableUint32();
  private readonly pairFreqs = new GrowableUint32();
  /** Index of each document's first (term, freq) pair; its pairs end where the next document's start. */
  private readonly docPairStart = new GrowableUint32();
  private sumTotalTermFreq = 0;
  private docCount = 0;

  /** Adds a document; ids must be unique (a repeated id would come back twice in every ranking). */
  add(id: string, terms: readonly string[]): void {
    if (this.seenIds.has(id)) throw new RangeError(`document id "${id}" is added twice`);
    this.seenIds.add(id);
    this.docIds.push(id);
    this.docLengths.push(terms.length);
    this.docPairStart.push(this.pairTerms.length);
    this.sumTotalTermFreq += terms.length;
    if (terms.length > 0) this.docCount += 1;

    const freqs = new Map<number, number>();
    for (const term of terms) {
      let ordinal = this.termOrdinals.get(term);
      if (ordinal === undefined) {
        ordinal = this.terms.length;
        this.termOrdinals.set(term, ordinal);
        this.terms.push(term);
      }
      freqs.set(ordinal, (freqs.get(ordinal) ?? 0) + 1);
    }
    for (const [ordinal, freq] of freqs) {
      this.pairTerms.push(ordinal);
      this.pairFreqs.push(freq);
    }
  }

  /** Number of documents added so far. */
  get size(): number {
    return this.docIds.length;
  }

  build(): Bm25Index {
    const numTerms = this.terms.length;
    const numPairs = this.pairTerms.length;
    const numDocs = this.docIds.length;

    const postingsStart = new Uint32Array(numTerms + 1);
    for (let p = 0; p < numPairs; p++) postingsStart[this.pairTerms.get(p) + 1]! += 1;
    for (let t = 0; t < numTerms; t++) postingsStart[t + 1]! += postingsStart[t]!;

    const next = postingsStart.slice(0, numTerms);
    const postingsDocs = new Uint32Array(numPairs);
    const postingsFreqs = new Uint32Array(numPairs);
    for (let doc = 0; doc < numDocs; doc++) {
      const end = doc + 1 < numDocs ? this.docPairStart.get(doc + 1) : numPairs;
      for (let p = this.docPairStart.get(doc); p < end; p++) {
        const slot = next[this.pairTerms.get(p)]!++;
        postingsDocs[slot] = doc;
        postingsFreqs[slot] = this.pairFreqs.get(p);
      }
    }

    const docLengths = this.docLengths.toArray();
    return {
      docIds: [...this.docIds],
      docLengths,
      norms: Uint8Array.from(docLengths, (length) => intToByte4(length)),
      terms: [...this.terms],
      postingsStart,
      postingsDocs,
      postingsFreqs,
      docCount: this.docCount,
      sumTotalTermFreq: this.sumTotalTermFreq,
    };
  }
}

/** Builds an index from documents in order (the first document gets internal docid 0). */
export function buildBm25Index(docs: Iterable<AnalyzedDoc>): Bm25Index {
  const builder = new Bm25IndexBuilder();
  for (const doc of docs) builder.add(doc.id, doc.terms);
  return builder.build();
}

const termLookups = new WeakMap<Bm25Index, Map<string, number>>();
const docLookups = new WeakMap<Bm25Index, Map<string, number>>();

/** Term ordinal of a term, or -1 when no document has it. The lookup table is built once per index object. */
export function termOrdinal(index: Bm25Index, term: string): number {
  let lookup = termLookups.get(index);
  if (lookup === undefined) {
    lookup = new Map(index.terms.map((t, ordinal) => [t, ordinal]));
    termLookups.set(index, lookup);
  }
  return lookup.get(term) ?? -1;
}

/** Internal docid of an external document id, or -1 when the index does not hold it. */
export function docOrdinal(index: Bm25Index, id: string): number {
  let lookup = docLookups.get(index);
  if (lookup === undefined) {
    lookup = new Map(index.docIds.map((d, doc) => [d, doc]));
    docLookups.set(index, lookup);
  }
  return lookup.get(id) ?? -1;
}

/** Document frequency of a term ordinal. */
export function docFreq(index: Bm25Index, ordinal: number): number {
  return index.postingsStart[ordinal + 1]! - index.postingsStart[ordinal]!;
}

/** Frequency of a term ordinal in a document (0 if absent), by binary search in its postings. */
export function termFreq(index: Bm25Index, ordinal: number, doc: number): number {
  let low = index.postingsStart[ordinal]!;
  let high = index.postingsStart[ordinal + 1]! - 1;
  while (low <= high) {
    const mid = (low + high) >>> 1;
    const found = index.postingsDocs[mid]!;
    if (found === doc) return index.postingsFreqs[mid]!;
    if (found < doc) low = mid + 1;
    else high = mid - 1;
  }
  return 0;
}
