import type { Bm25IndexParts } from './index-parts.ts';
import { Bm25Kernel } from './kernel.ts';
import { Bm25WasmIndex } from './wasm-index.ts';

/** Names the numbers of `Analyzer.termNumbers`. */
export interface TermNumbering {
  term(number: number): string;
}

/** Tokens gathered on the host before one kernel call (large batches amortize the call and the copy). */
const BATCH_TOKENS = 1 << 16;

/**
 * Builds a `Bm25WasmIndex` one document at a time, with the semantics of `Bm25IndexBuilder`
 * (src/lib/bm25/bm25-index.ts): documents numbered in insertion order, terms numbered in order of first
 * appearance, ids unique. The host turns terms into ordinals (strings stay in JavaScript); a scratch kernel
 * instance counts term frequencies and groups postings by term; `build` copies the finished arrays into a
 * fresh instance sized to the index, so the builder's growth slack is not kept.
 */
export class Bm25WasmBuilder {
  private readonly module: WebAssembly.Module;
  private kernel: Bm25Kernel | undefined;
  private readonly docIds: string[] = [];
  private readonly seenIds = new Set<string>();
  private readonly termLookup = new Map<string, number>();
  private readonly terms: string[] = [];
  private tokens = new Uint32Array(BATCH_TOKENS);
  private lengths: number[] = [];
  private numTokens = 0;
  private sumTotalTermFreq = 0;
  private docCount = 0;
  /** The analyzer whose term numbers `addNumbered` takes, and each number's ordinal (-1: not met yet). */
  private numbering: TermNumbering | undefined;
  private ordinalOfNumber = new Int32Array(1024).fill(-1);

  constructor(module: WebAssembly.Module) {
    this.module = module;
    this.kernel = new Bm25Kernel(module);
  }

  /** Adds a document; ids must be unique (a repeated id would come back twice in every ranking). */
  add(id: string, terms: readonly string[]): void {
    if (this.seenIds.has(id)) throw new RangeError(`document id "${id}" is added twice`);
    this.seenIds.add(id);
    this.docIds.push(id);
    this.sumTotalTermFreq += terms.length;
    if (terms.length > 0) this.docCount += 1;
    if (this.numTokens + terms.length > this.tokens.length) {
      this.flush();
      if (terms.length > this.tokens.length) this.tokens = new Uint32Array(terms.length);
    }
    const { tokens, termLookup } = this;
    let n = this.numTokens;
    for (const term of terms) {
      let ordinal = termLookup.get(term);
      if (ordinal === undefined) {
        ordinal = this.terms.length;
        termLookup.set(term, ordinal);
        this.terms.push(term);
      }
      tokens[n++] = ordinal;
    }
    this.numTokens = n;
    this.lengths.push(terms.length);
  }

  /**
   * Adds a document given as an analyzer's term numbers (Analyzer.termNumbers): the same index as `add`
   * with the terms, without a string lookup per token. One builder takes the numbers of one analyzer.
   */
  addNumbered(id: string, numbers: Int32Array, numbering: TermNumbering): void {
    if (this.numbering !== undefined && this.numbering !== numbering) throw new Error('a builder takes the term numbers of one analyzer');
    this.numbering = numbering;
    if (this.seenIds.has(id)) throw new RangeError(`document id "${id}" is added twice`);
    this.seenIds.add(id);
    this.docIds.push(id);
    const length = numbers.length;
    this.sumTotalTermFreq += length;
    if (length > 0) this.docCount += 1;
    if (this.numTokens + length > this.tokens.length) {
      this.flush();
      if (length > this.tokens.length) this.tokens = new Uint32Array(length);
    }
    const { tokens, termLookup } = this;
    let ordinalOf = this.ordinalOfNumber;
    let n = this.numTokens;
    for (let t = 0; t < length; t++) {
      const number = numbers[t]!;
      if (number >= ordinalOf.length) {
        const bigger = new Int32Array(Math.max(number + 1, ordinalOf.length * 2)).fill(-1);
        bigger.set(ordinalOf);
        this.ordinalOfNumber = ordinalOf = bigger;
      }
      let ordinal = ordinalOf[number]!;
      if (ordinal < 0) {
        const term = numbering.term(number);
        ordinal = termLookup.get(term) ?? -1;
        if (ordinal < 0) {
          ordinal = this.terms.length;
          termLookup.set(term, ordinal);
          this.terms.push(term);
        }
        ordinalOf[number] = ordinal;
      }
      tokens[n++] = ordinal;
    }
    this.numTokens = n;
    this.lengths.push(length);
  }

  /** Number of documents added so far. */
  get size(): number {
    return this.docIds.length;
  }

  private scratch(): Bm25Kernel {
    if (!this.kernel) throw new Error('this builder has already built its index');
    return this.kernel;
  }

  /** Hands the gathered documents to the kernel. */
  private flush(): void {
    const numDocs = this.lengths.length;
    if (numDocs === 0) return;
    const kernel = this.scratch();
    const k = kernel.exports;
    const tokenPtr = k.builderTokenBuffer(this.numTokens);
    const lengthPtr = k.builderLengthBuffer(numDocs);
    kernel.u32(tokenPtr, this.numTokens).set(this.tokens.subarray(0, this.numTokens));
    kernel.u32(lengthPtr, numDocs).set(this.lengths);
    k.builderAddBatch(numDocs, this.numTokens, this.terms.length);
    this.lengths = [];
    this.numTokens = 0;
  }

  /** Finishes the index; the builder cannot be used afterwards. */
  build(): Bm25WasmIndex {
    this.flush();
    const kernel = this.scratch();
    const k = kernel.exports;
    const numTerms = this.terms.length;
    k.builderFinish(numTerms);
    const numDocs = this.docIds.length;
    const numPostings = k.indexNumPostings() >>> 0;
    const numOverflow = k.indexNumOverflow() >>> 0;
    // Views into the scratch instance: fromParts copies them into the new one before the scratch is dropped.
    const parts: Bm25IndexParts = {
      docIds: this.docIds,
      terms: this.terms,
      docLengths: kernel.u32(k.indexDocLengths(), numDocs),
      norms: kernel.u8(k.indexNorms(), numDocs),
      starts: kernel.u32(k.indexStarts(), numTerms + 1),
      docs: kernel.u32(k.indexDocs(), numPostings),
      freqs: kernel.u8(k.indexFreqs(), numPostings),
      overflowAt: kernel.u32(k.indexOverflowAt(), numOverflow),
      overflowFreq: kernel.u32(k.indexOverflowFreq(), numOverflow),
      docCount: this.docCount,
      sumTotalTermFreq: this.sumTotalTermFreq,
    };
    const index = Bm25WasmIndex.fromParts(this.module, parts, { termLookup: this.termLookup, trusted: true });
    this.kernel = undefined;
    return index;
  }
}
