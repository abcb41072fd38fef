/**
 * BM25 term scores with Lucene 8.7's float arithmetic (`BM25Scorer.score`), and what a query hands the
 * kernel. The TypeScript twin is `src/lib/bm25/bm25-similarity.ts`:
 *
 *   score(t, d) = w_t − w_t / (1 + tf · normInverse[norm(d)])      float32, each operation rounded
 *
 * WebAssembly's f32 operations are IEEE single precision with round-to-nearest and no fused multiply-add,
 * which is what Java's float arithmetic and the reference's `Math.fround` after every operation give. The
 * weights w_t (boost · idf) and the 256-entry normInverse table come from the host, computed by the
 * reference's own functions; changing k1 or b rewrites the table and bumps `Params.epoch`.
 */
import { DocScratch, Postings, freqAt } from './postings';

@unmanaged
class Params {
  static normInverse: usize = 0;
  /** Incremented whenever normInverse changes; per-term maxima computed under an older one are stale. */
  static epoch: u32 = 1;
}

@unmanaged
export class Query {
  /** (term ordinal u32, weight f32) per clause, written by the host. */
  static clauses: usize = 0;
  static capacity: u32 = 0;
  static excluded: usize = 0;
  static excludedCapacity: u32 = 0;
}

/** The 256 float32 `1 / (k1 · ((1 − b) + b · length / avgdl))` of the norm bytes; the host fills it. */
export function normInverseTable(): usize {
  if (Params.normInverse == 0) Params.normInverse = heap.alloc(256 << 2);
  return Params.normInverse;
}

/** Tells the kernel the norm-inverse table was rewritten (new k1 or b). */
export function paramsChanged(): void {
  Params.epoch++;
}

/** Room for `count` clauses: (term ordinal u32, weight f32) pairs; the host fills them. */
export function clauseBuffer(count: u32): usize {
  if (count > Query.capacity || Query.clauses == 0) {
    if (Query.clauses != 0) heap.free(Query.clauses);
    Query.capacity = max<u32>(count, 64);
    Query.clauses = heap.alloc(<usize>Query.capacity << 3);
  }
  return Query.clauses;
}

/** Room for `count` docids that must not be returned (the query's own document, …). */
export function excludedBuffer(count: u32): usize {
  if (count > Query.excludedCapacity || Query.excluded == 0) {
    if (Query.excluded != 0) heap.free(Query.excluded);
    Query.excludedCapacity = max<u32>(count, 16);
    Query.excluded = heap.alloc(<usize>Query.excludedCapacity << 2);
  }
  return Query.excluded;
}

// @ts-ignore: decorator
@inline
export function clauseOrdinal(c: u32): u32 {
  return load<u32>(Query.clauses + (<usize>c << 3));
}

// @ts-ignore: decorator
@inline
export function clauseWeight(c: u32): f32 {
  return load<f32>(Query.clauses + (<usize>c << 3), 4);
}

/** `tf · normInverse[norm(doc)]` of posting p, in float32: the one input of the saturation. */
// @ts-ignore: decorator
@inline
export function postingX(p: u32, doc: u32): f32 {
  const inverse = load<f32>(Params.normInverse + (<usize>load<u8>(Postings.norms + <usize>doc) << 2));
  return <f32>freqAt(p) * inverse;
}

/** `w − w / (1 + x)` in float32; non-decreasing in x (every rounding step is monotone). */
// @ts-ignore: decorator
@inline
export function saturate(weight: f32, x: f32): f32 {
  return weight - weight / (<f32>1 + x);
}

/**
 * The largest `postingX` over a term's postings under the current parameters, computed on first use
 * after a change of k1 or b and cached per term. Since `saturate` is monotone, `saturate(w, termMaxX(t))`
 * is exactly the largest float score the term gives any document: max-score's upper bound.
 */
export function termMaxX(term: u32): f32 {
  const epochAt = DocScratch.termMaxEpoch + (<usize>term << 2);
  const maxAt = DocScratch.termMaxX + (<usize>term << 2);
  if (load<u32>(epochAt) == Params.epoch) return load<f32>(maxAt);
  let best: f32 = 0;
  const end = load<u32>(Postings.starts + ((<usize>term + 1) << 2));
  for (let p = load<u32>(Postings.starts + (<usize>term << 2)); p < end; p++) {
    best = max<f32>(best, postingX(p, load<u32>(Postings.docs + (<usize>p << 2))));
  }
  store<f32>(maxAt, best);
  store<u32>(epochAt, Params.epoch);
  return best;
}

/** Postings of a term: [start, end). */
// @ts-ignore: decorator
@inline
export function termStart(term: u32): u32 {
  return load<u32>(Postings.starts + (<usize>term << 2));
}

// @ts-ignore: decorator
@inline
export function termEnd(term: u32): u32 {
  return load<u32>(Postings.starts + ((<usize>term + 1) << 2));
}
