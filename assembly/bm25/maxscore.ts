/**
 * Document-at-a-time scoring with max-score pruning (Turtle & Flood 1995, "Query evaluation: strategies
 * and optimizations"; the algorithm of Lucene's MaxScoreBulkScorer and PISA's maxscore), exact:
 *
 * - each clause's bound is the largest float score its term gives any document (`termMaxX`, exact since
 *   the score is monotone in tf · normInverse); clauses are sorted by bound, and prefix sums of the bounds
 *   split them into non-essential (together they cannot lift a document past the k-th score θ) and
 *   essential ones;
 * - documents are visited in increasing docid order, only those found in an essential list; the
 *   non-essential lists are probed (galloping search) for them, highest bound first, and probing stops
 *   as soon as the score so far plus the remaining bounds cannot beat θ.
 *
 * Ties: documents arrive in increasing docid order, so one scoring exactly θ would rank below every kept
 * document with score θ (lower docids) — it can never enter. Pruning "bound ≤ θ" is therefore exact, and
 * so is the comparison in the heap (`top-k.ts`). Bounds are sums of float32s in float64, inflated by
 * 2^-40 of their value so that no float64 rounding can make a bound fall below a true score.
 *
 * Worth it when k is small next to the number of matching documents; with k near that number (top 1000
 * of SciFact) nothing is skipped and term-at-a-time's simpler loop wins (`search.ts` picks).
 */
import { docKey, keyScore } from './hit-keys';
import { DocScratch, Postings } from './postings';
import { Query, clauseOrdinal, clauseWeight, postingX, saturate, termEnd, termMaxX, termStart } from './scoring';
import { heapDrain, heapFull, heapMin, heapOffer, heapReset } from './top-k';

/** Per clause, in bound order: term, weight, cursor, end, and the float64 sum of the bounds up to it. */
@unmanaged
class Cursors {
  static capacity: u32 = 0;
  static weight: usize = 0;
  static pos: usize = 0;
  static end: usize = 0;
  static bound: usize = 0;
  static prefix: usize = 0;
}

const BOUND_SLACK: f64 = 1 + 1.0 / <f64>(1 << 20) / <f64>(1 << 20);

function ensureCursors(count: u32): void {
  if (count <= Cursors.capacity && Cursors.weight != 0) return;
  if (Cursors.weight != 0) {
    heap.free(Cursors.weight);
    heap.free(Cursors.pos);
    heap.free(Cursors.end);
    heap.free(Cursors.bound);
    heap.free(Cursors.prefix);
  }
  Cursors.capacity = max<u32>(count, 64);
  const n = <usize>Cursors.capacity;
  Cursors.weight = heap.alloc(n << 2);
  Cursors.pos = heap.alloc(n << 2);
  Cursors.end = heap.alloc(n << 2);
  Cursors.bound = heap.alloc(n << 2);
  Cursors.prefix = heap.alloc(n << 3);
}

// @ts-ignore: decorator
@inline
function u32At(base: usize, i: u32): usize {
  return base + (<usize>i << 2);
}

/** Sets up the clauses' cursors in increasing bound order (insertion sort: queries have few terms). */
function prepare(numClauses: u32): void {
  ensureCursors(numClauses);
  for (let c: u32 = 0; c < numClauses; c++) {
    const ordinal = clauseOrdinal(c);
    const weight = clauseWeight(c);
    const bound = saturate(weight, termMaxX(ordinal));
    let i = c;
    while (i > 0 && load<f32>(u32At(Cursors.bound, i - 1)) > bound) {
      store<f32>(u32At(Cursors.bound, i), load<f32>(u32At(Cursors.bound, i - 1)));
      store<f32>(u32At(Cursors.weight, i), load<f32>(u32At(Cursors.weight, i - 1)));
      store<u32>(u32At(Cursors.pos, i), load<u32>(u32At(Cursors.pos, i - 1)));
      store<u32>(u32At(Cursors.end, i), load<u32>(u32At(Cursors.end, i - 1)));
      i--;
    }
    store<f32>(u32At(Cursors.bound, i), bound);
    store<f32>(u32At(Cursors.weight, i), weight);
    store<u32>(u32At(Cursors.pos, i), termStart(ordinal));
    store<u32>(u32At(Cursors.end, i), termEnd(ordinal));
  }
  let sum: f64 = 0;
  for (let i: u32 = 0; i < numClauses; i++) {
    sum += <f64>load<f32>(u32At(Cursors.bound, i));
    store<f64>(Cursors.prefix + (<usize>i << 3), sum * BOUND_SLACK);
  }
}

/** First position in [p, end) whose docid is ≥ target (galloping, then binary search). */
function advance(p: u32, end: u32, target: u32): u32 {
  const docs = Postings.docs;
  if (p >= end || load<u32>(u32At(docs, p)) >= target) return p;
  let low = p; // docs[low] < target
  let step: u32 = 1;
  let high = p + 1;
  while (high < end && load<u32>(u32At(docs, high)) < target) {
    low = high;
    step <<= 1;
    high = end - low > step ? low + step : end;
  }
  // docs[low] < target ≤ docs[high] (or high = end).
  low++;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (load<u32>(u32At(docs, mid)) < target) low = mid + 1;
    else high = mid;
  }
  return low;
}

// @ts-ignore: decorator
@inline
function isMarked(doc: u32): bool {
  return (load<u32>(DocScratch.matched + (<usize>(doc >>> 5) << 2)) & (1 << (doc & 31))) != 0;
}

function markExcluded(count: u32, on: bool): void {
  for (let i: u32 = 0; i < count; i++) {
    const doc = load<u32>(u32At(Query.excluded, i));
    if (doc >= Postings.numDocs) continue;
    const word = DocScratch.matched + (<usize>(doc >>> 5) << 2);
    store<u32>(word, on ? load<u32>(word) | (1 << (doc & 31)) : load<u32>(word) & ~(1 << (doc & 31)));
  }
}

/** Top k of the query into the result buffers, best first; returns how many. */
export function searchMaxScore(numClauses: u32, numExcluded: u32, k: u32): u32 {
  prepare(numClauses);
  markExcluded(numExcluded, true);
  heapReset(k);
  const docs = Postings.docs;
  const n = numClauses;
  let firstEssential: u32 = 0;
  let theta: f32 = -Infinity;
  for (;;) {
    // The next document: the smallest docid under an essential cursor.
    let doc: u32 = 0xffffffff;
    for (let i = firstEssential; i < n; i++) {
      const p = load<u32>(u32At(Cursors.pos, i));
      if (p < load<u32>(u32At(Cursors.end, i))) doc = min<u32>(doc, load<u32>(u32At(docs, p)));
    }
    if (doc == 0xffffffff) break;
    let score: f64 = 0;
    for (let i = firstEssential; i < n; i++) {
      const at = u32At(Cursors.pos, i);
      const p = load<u32>(at);
      if (p < load<u32>(u32At(Cursors.end, i)) && load<u32>(u32At(docs, p)) == doc) {
        score += <f64>saturate(load<f32>(u32At(Cursors.weight, i)), postingX(p, doc));
        store<u32>(at, p + 1);
      }
    }
    if (numExcluded != 0 && isMarked(doc)) continue;
    const full = heapFull();
    let pruned = false;
    for (let i = <i32>firstEssential - 1; i >= 0; i--) {
      if (full && <f32>(score * BOUND_SLACK + load<f64>(Cursors.prefix + (<usize>i << 3))) <= theta) {
        pruned = true;
        break;
      }
      const at = u32At(Cursors.pos, i);
      const end = load<u32>(u32At(Cursors.end, i));
      const p = advance(load<u32>(at), end, doc);
      store<u32>(at, p);
      if (p < end && load<u32>(u32At(docs, p)) == doc) {
        score += <f64>saturate(load<f32>(u32At(Cursors.weight, i)), postingX(p, doc));
      }
    }
    if (pruned) continue;
    if (heapOffer(docKey(<f32>score, doc)) && heapFull()) {
      theta = keyScore(<u32>(heapMin() >>> 32));
      while (firstEssential < n && <f32>load<f64>(Cursors.prefix + (<usize>firstEssential << 3)) <= theta) firstEssential++;
    }
  }
  markExcluded(numExcluded, false);
  return heapDrain(DocScratch.outDocs, DocScratch.outScores);
}
