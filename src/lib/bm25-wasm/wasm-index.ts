import type { Bm25Index } from '../bm25/bm25-index.ts';
import { queryTermWeights, type Bm25Query } from '../bm25/bm25-query.ts';
import { DEFAULT_BM25_HITS, type Bm25SearchOptions } from '../bm25/bm25-search.ts';
import {
  ANSERINI_BM25_PARAMS,
  bm25AvgFieldLength,
  bm25Idf,
  bm25NormInverseCache,
  bm25Weight,
  validateBm25Params,
  type Bm25Params,
} from '../bm25/bm25-similarity.ts';
import type { Hit } from '../types.ts';
import { bm25IndexFromParts, partsProblem, postingsProblem, termOrderProblem, type Bm25IndexParts } from './index-parts.ts';
import { Bm25Kernel } from './kernel.ts';

/**
 * How the kernel scores: `auto` (default) picks per query; `term-at-a-time` and `max-score` force one of
 * the two exact methods (the results are the same; tests compare both with the reference).
 */
export type Bm25Strategy = 'auto' | 'term-at-a-time' | 'max-score';

const STRATEGY_CODES: Record<Bm25Strategy, number> = { auto: 0, 'term-at-a-time': 1, 'max-score': 2 };

/** `searchBm25`'s options, plus the kernel's scoring method. */
export interface Bm25WasmSearchOptions extends Bm25SearchOptions {
  strategy?: Bm25Strategy;
}

export interface FromPartsOptions {
  /** Term → ordinal, when the caller already has it (the builder does), to skip rebuilding it. */
  termLookup?: Map<string, number>;
  /**
   * Term ordinals sorted by term (a stored index keeps them, index-codec.ts): terms are then found by binary
   * search, and no map is built. Without either, a map is built at the first lookup.
   */
  termOrder?: Uint32Array;
  /** Skip the consistency check (only for parts the builder just produced). */
  trusted?: boolean;
}

/**
 * A BM25 index held by one WebAssembly kernel instance; searches return exactly what `searchBm25`
 * (src/lib/bm25/bm25-search.ts) returns for the same index, query and options — same documents, same float
 * scores, same tie order (tests/lib/bm25-wasm/bm25-wasm.parity.test.ts).
 *
 * The host keeps the strings (document ids, terms) and does the per-query work that needs them: the bag of
 * query terms (counted, or weighted as given), term ordinals, idf and clause weights (with the reference's
 * own functions, so the float weights are bit-identical), and ids to exclude. The kernel does the per-posting work. k1 and b are
 * per-search options: changing them rewrites the 256-entry norm-inverse table, never the postings.
 */
export class Bm25WasmIndex {
  readonly docIds: readonly string[];
  readonly terms: readonly string[];
  readonly docCount: number;
  readonly sumTotalTermFreq: number;
  private readonly kernel: Bm25Kernel;
  private termLookup: Map<string, number> | undefined;
  private readonly termOrder: Uint32Array | undefined;
  private docLookup: Map<string, number> | undefined;
  /** Document frequencies by term ordinal, kept on the host so weighting a query needs no kernel call. */
  private readonly docFreqs: Uint32Array;
  private readonly avgdl: number;
  private paramsKey = '';

  private constructor(kernel: Bm25Kernel, parts: Bm25IndexParts, termLookup?: Map<string, number>, termOrder?: Uint32Array) {
    this.kernel = kernel;
    this.docIds = parts.docIds;
    this.terms = parts.terms;
    this.docCount = parts.docCount;
    this.sumTotalTermFreq = parts.sumTotalTermFreq;
    this.termLookup = termLookup;
    this.termOrder = termLookup === undefined ? termOrder : undefined;
    this.docFreqs = new Uint32Array(parts.terms.length);
    for (let t = 0; t < parts.terms.length; t++) this.docFreqs[t] = parts.starts[t + 1]! - parts.starts[t]!;
    this.avgdl = parts.docCount > 0 ? bm25AvgFieldLength(parts.sumTotalTermFreq, parts.docCount) : 1;
  }

  /**
   * Copies an index into a new kernel instance. Throws a RangeError for inconsistent parts (a corrupt or
   * foreign stored index must never be searched), unless `trusted` (the builder's own output).
   */
  static fromParts(module: WebAssembly.Module, parts: Bm25IndexParts, options: FromPartsOptions = {}): Bm25WasmIndex {
    const invalid = (problem: string) => new RangeError(`not a valid BM25 index: ${problem}`);
    if (!options.trusted) {
      const problem = partsProblem(parts) ?? (options.termOrder === undefined ? null : termOrderProblem(parts.terms, options.termOrder));
      if (problem !== null) throw invalid(problem);
    }
    const kernel = new Bm25Kernel(module);
    const k = kernel.exports;
    const numDocs = parts.docIds.length;
    const numTerms = parts.terms.length;
    const numPostings = parts.docs.length;
    k.allocateIndex(numDocs, numTerms, numPostings, parts.overflowAt.length);
    kernel.u32(k.indexDocLengths(), numDocs).set(parts.docLengths);
    kernel.u8(k.indexNorms(), numDocs).set(parts.norms);
    kernel.u32(k.indexStarts(), numTerms + 1).set(parts.starts);
    kernel.u32(k.indexDocs(), numPostings).set(parts.docs);
    kernel.u8(k.indexFreqs(), numPostings).set(parts.freqs);
    kernel.u32(k.indexOverflowAt(), parts.overflowAt.length).set(parts.overflowAt);
    kernel.u32(k.indexOverflowFreq(), parts.overflowFreq.length).set(parts.overflowFreq);
    if (!options.trusted) {
      const problem = postingsProblem(k.checkPostings());
      if (problem !== null) {
        k.freeIndex();
        throw invalid(problem);
      }
    }
    return new Bm25WasmIndex(kernel, parts, options.termLookup, options.termOrder);
  }

  get numDocs(): number {
    return this.docIds.length;
  }

  get numTerms(): number {
    return this.terms.length;
  }

  get numPostings(): number {
    return this.kernel.exports.indexNumPostings() >>> 0;
  }

  /** Bytes of the kernel's linear memory (postings, norms, scratch accumulators). */
  get wasmMemoryBytes(): number {
    return this.kernel.memoryBytes;
  }

  /** Term ordinal, or -1 when no document has the term. */
  termOrdinal(term: string): number {
    const order = this.termOrder;
    if (order === undefined) {
      this.termLookup ??= new Map(this.terms.map((known, ordinal) => [known, ordinal]));
      return this.termLookup.get(term) ?? -1;
    }
    let low = 0;
    let high = order.length - 1;
    while (low <= high) {
      const mid = (low + high) >>> 1;
      const ordinal = order[mid]!;
      const known = this.terms[ordinal]!;
      if (known === term) return ordinal;
      if (known < term) low = mid + 1;
      else high = mid - 1;
    }
    return -1;
  }

  /** Number of documents holding term ordinal `ordinal`. */
  docFreq(ordinal: number): number {
    return this.docFreqs[ordinal] ?? 0;
  }

  /** Internal docid of a document id, or -1. The lookup table is built on first use. */
  docOrdinal(id: string): number {
    this.docLookup ??= new Map(this.docIds.map((docId, doc) => [docId, doc]));
    return this.docLookup.get(id) ?? -1;
  }

  /** The index's arrays, copied out of kernel memory (for serializing). */
  toParts(): Bm25IndexParts {
    const view = this.partsView();
    return {
      ...view,
      docLengths: view.docLengths.slice(),
      norms: view.norms.slice(),
      starts: view.starts.slice(),
      docs: view.docs.slice(),
      freqs: view.freqs.slice(),
      overflowAt: view.overflowAt.slice(),
      overflowFreq: view.overflowFreq.slice(),
    };
  }

  /**
   * The index's arrays as views into kernel memory, not copied: valid until the kernel's memory grows (a
   * search may grow it), so read them at once and ask again after yielding.
   */
  partsView(): Bm25IndexParts {
    const { kernel } = this;
    const k = kernel.exports;
    const numDocs = this.numDocs;
    const numPostings = this.numPostings;
    const numOverflow = k.indexNumOverflow() >>> 0;
    return {
      docIds: this.docIds,
      terms: this.terms,
      docLengths: kernel.u32(k.indexDocLengths(), numDocs),
      norms: kernel.u8(k.indexNorms(), numDocs),
      starts: kernel.u32(k.indexStarts(), this.numTerms + 1),
      docs: kernel.u32(k.indexDocs(), numPostings),
      freqs: kernel.u8(k.indexFreqs(), numPostings),
      overflowAt: kernel.u32(k.indexOverflowAt(), numOverflow),
      overflowFreq: kernel.u32(k.indexOverflowFreq(), numOverflow),
      docCount: this.docCount,
      sumTotalTermFreq: this.sumTotalTermFreq,
    };
  }

  /** The same index as the TypeScript reference's plain data (for `explainBm25`). */
  toBm25Index(): Bm25Index {
    return bm25IndexFromParts(this.toParts());
  }

  /** Writes the norm-inverse table of (k1, b) into the kernel unless it is already there. */
  private useParams(params: Bm25Params): void {
    const key = `${params.k1}|${params.b}`;
    if (key === this.paramsKey) return;
    validateBm25Params(params);
    const k = this.kernel.exports;
    this.kernel.f32(k.normInverseTable(), 256).set(bm25NormInverseCache(this.avgdl, params));
    k.paramsChanged();
    this.paramsKey = key;
  }

  /**
   * Writes the query's clauses (distinct terms in the index, with weight boost · idf, where the boost is the
   * term's count or its given weight); returns how many.
   */
  private writeClauses(query: Bm25Query): number {
    const bag = queryTermWeights(query);
    const k = this.kernel.exports;
    const ptr = k.clauseBuffer(bag.length);
    const ordinals = this.kernel.u32(ptr, 2 * bag.length);
    const weights = this.kernel.f32(ptr, 2 * bag.length);
    let count = 0;
    for (const { term, weight: boost } of bag) {
      const ordinal = this.termOrdinal(term);
      if (ordinal < 0) continue;
      ordinals[2 * count] = ordinal;
      weights[2 * count + 1] = bm25Weight(boost, bm25Idf(this.docFreqs[ordinal]!, this.docCount));
      count += 1;
    }
    return count;
  }

  private excludedDocs(query: Bm25Query, options: Bm25SearchOptions): number[] {
    const excluded: number[] = [];
    const add = (id: string) => {
      const doc = this.docOrdinal(id);
      if (doc >= 0) excluded.push(doc);
    };
    if ((options.ignoreIdenticalIds ?? true) && query.id !== undefined) add(query.id);
    for (const id of options.excludeIds ?? []) add(id);
    return excluded;
  }

  /**
   * Runs one search in the kernel; returns how many results are in its result buffers and the docids to
   * drop from them (non-empty only with `dropAfterTopK`).
   */
  private run(query: Bm25Query, options: Bm25WasmSearchOptions): { count: number; dropAfter: ReadonlySet<number> } {
    const params = options.params ?? ANSERINI_BM25_PARAMS;
    const kRequested = options.k ?? DEFAULT_BM25_HITS;
    if (!(kRequested >= 0) || (!Number.isInteger(kRequested) && kRequested !== Infinity)) {
      throw new RangeError(`k must be a non-negative integer, got ${kRequested}`);
    }
    this.useParams(params);
    const numClauses = this.writeClauses(query);
    if (numClauses === 0 || kRequested === 0) return { count: 0, dropAfter: NOTHING };

    const k = this.kernel.exports;
    const excluded = this.excludedDocs(query, options);
    const dropAfter = (options.dropAfterTopK ?? false) && excluded.length > 0;
    if (!dropAfter && excluded.length > 0) this.kernel.u32(k.excludedBuffer(excluded.length), excluded.length).set(excluded);
    const limit = Math.min(kRequested, this.numDocs);
    const strategy = STRATEGY_CODES[options.strategy ?? 'auto'];
    const count = k.search(numClauses, dropAfter ? 0 : excluded.length, limit, strategy) >>> 0;
    return { count, dropAfter: dropAfter ? new Set(excluded) : NOTHING };
  }

  /**
   * Top-k internal docids and float scores, best first (the options of `searchBm25`, same defaults), written
   * into `rows` and `scores` from position `at` (which must have room for min(k, numDocs) more); returns how
   * many were written. An evaluation's chunk of queries is packed this way, without two arrays made and
   * copied again per query.
   */
  searchInto(query: Bm25Query, options: Bm25WasmSearchOptions, rows: Uint32Array, scores: Float64Array, at: number): number {
    const { count, dropAfter } = this.run(query, options);
    const k = this.kernel.exports;
    const docs = this.kernel.i32(k.resultDocs(), count);
    const found = this.kernel.f32(k.resultScores(), count);
    if (dropAfter.size === 0) {
      rows.set(docs, at);
      scores.set(found, at);
      return count;
    }
    let written = 0;
    for (let i = 0; i < count; i++) {
      if (dropAfter.has(docs[i]!)) continue;
      rows[at + written] = docs[i]!;
      scores[at + written++] = found[i]!;
    }
    return written;
  }

  /** BM25 top-k hits (document ids and Lucene-equal float scores), best first — `searchBm25`'s contract. */
  search(query: Bm25Query, options: Bm25WasmSearchOptions = {}): Hit[] {
    const { count, dropAfter } = this.run(query, options);
    const k = this.kernel.exports;
    const docs = this.kernel.i32(k.resultDocs(), count);
    const scores = this.kernel.f32(k.resultScores(), count);
    const hits: Hit[] = [];
    for (let i = 0; i < count; i++) {
      const doc = docs[i]!;
      if (!dropAfter.has(doc)) hits.push({ docId: this.docIds[doc]!, score: scores[i]! });
    }
    return hits;
  }
}

const NOTHING: ReadonlySet<number> = new Set();
