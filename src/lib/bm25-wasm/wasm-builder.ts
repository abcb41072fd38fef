import type { Bm25IndexParts } from './index-parts.ts';
import { Bm25Kernel } from './kernel.ts';
import { Bm25WasmIndex } from './wasm-index.ts';

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
