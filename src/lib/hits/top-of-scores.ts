/**
 * The k best rows of a full score array (an exact dense search scores every row of the corpus), in
 * {@link TopK}'s order: higher score first, and for equal scores the lower row first.
 *
 * An evaluation asks for 1,000 of SciFact's 5,183 rows per query, a fifth of them: a heap fed every row
 * then spends most of its time sifting (it took longer than the dot products in a page profile). For such
 * a share of the rows (k above n / 20; a smaller k still goes through the heap) the k-th best score is
 * found by selection on a copy, one pass keeps the rows above it (and the first rows equal to it), and a
 * stable radix sort orders the kept ones. Scores come back exactly as given.
 */
import { TopK } from './top-k.ts';

/** Rows and their scores, best first (aligned). */
export interface RankedRows {
  rows: Int32Array;
  scores: Float64Array;
}

/** The `k` best rows of `scores` (all of them when k ≥ its length). `scratch`, when given, holds a copy. */
export function topOfScores(scores: Float64Array, k: number, scratch?: Float64Array): RankedRows {
  if (!Number.isInteger(k) || k < 0) throw new RangeError(`k must be a non-negative integer, got ${k}`);
  const n = scores.length;
  const size = Math.min(k, n);
  if (size === 0) return { rows: new Int32Array(0), scores: new Float64Array(0) };
  if (fewOfMany(size, n)) return viaHeap(scores, size);
  // NaN has no place in a numeric order: the heap's comparisons decide where it goes, as they always did.
  if (hasNaN(scores)) return viaHeap(scores, size);
  const copy = scratch !== undefined && scratch.length >= n ? scratch.subarray(0, n) : new Float64Array(n);
  copy.set(scores);
  const threshold = selectSmallest(copy, n - size);
  let above = 0;
  for (let r = 0; r < n; r++) if (scores[r]! > threshold) above++;
  // Rows equal to the threshold enter in row order until k are kept: the lower rows win the tie.
  let ties = size - above;
  const rows = new Int32Array(size);
  const kept = new Float64Array(size);
  let m = 0;
  for (let r = 0; r < n && m < size; r++) {
    const score = scores[r]!;
    if (score > threshold || (score === threshold && ties-- > 0)) {
      rows[m] = r;
      kept[m++] = score;
    }
  }
  return inScoreOrder(rows, kept);
}

/** Rows (given in increasing row order) ordered by score descending, equal scores keeping their row order. */
function inScoreOrder(rows: Int32Array, scores: Float64Array): RankedRows {
  const order = orderByScore(scores);
  const k = order.length;
  const outRows = new Int32Array(k);
  const outScores = new Float64Array(k);
  for (let i = 0; i < k; i++) {
    outRows[i] = rows[order[i]!]!;
    outScores[i] = scores[order[i]!]!;
  }
  return { rows: outRows, scores: outScores };
}

/**
 * The positions of `scores` ordered by score descending, equal scores in position order (a stable sort;
 * -0 and 0 are equal, as in comparisons). No score may be NaN. A least-significant-digit radix sort, a
 * byte per pass, on each score's bits made to sort as unsigned integers in descending order (faster than a
 * comparison sort on lists of 1,000). Passes where every key has the same byte are skipped.
 */
export function orderByScore(scores: Float64Array): Int32Array {
  const k = scores.length;
  // Plain loops and no destructuring below: this runs in workers before the optimizing compiler has seen
  // it, where callbacks and iterator protocols cost several times the loop.
  const plus = new Float64Array(k);
  for (let i = 0; i < k; i++) plus[i] = scores[i]! + 0;
  const bits = new Uint32Array(plus.buffer);
  // Words of the descending key: a non-negative score's bits with all but the sign flipped, a negative
  // score's bits as they are (a larger magnitude already sorts later).
  const high = new Uint32Array(k);
  const low = new Uint32Array(k);
  for (let i = 0; i < k; i++) {
    const hi = bits[2 * i + 1]!;
    const lo = bits[2 * i]!;
    const negative = hi >>> 31 === 1;
    high[i] = negative ? hi : (hi ^ 0x7fffffff) >>> 0;
    low[i] = negative ? lo : ~lo >>> 0;
  }
  let order = new Int32Array(k);
  for (let i = 0; i < k; i++) order[i] = i;
  let next = new Int32Array(k);
  const counts = new Int32Array(256);
  for (let pass = 0; pass < 8 && k > 1; pass++) {
    const words = pass < 4 ? low : high;
    const shift = (pass & 3) * 8;
    counts.fill(0);
    for (let i = 0; i < k; i++) counts[(words[i]! >>> shift) & 255]!++;
    if (counts[(words[0]! >>> shift) & 255] === k) continue;
    let sum = 0;
    for (let d = 0; d < 256; d++) {
      const count = counts[d]!;
      counts[d] = sum;
      sum += count;
    }
    for (let i = 0; i < k; i++) {
      const at = order[i]!;
      next[counts[(words[at]! >>> shift) & 255]!++] = at;
    }
    const sorted = next;
    next = order;
    order = sorted;
  }
  return order;
}

/** The value that would be at `index` if `values` were sorted ascending (reorders `values`). */
export function selectSmallest(values: Float64Array, index: number): number {
  let left = 0;
  let right = values.length - 1;
  while (right > left) {
    // Median of three as the pivot, so sorted or reversed input stays linear.
    const mid = (left + right) >>> 1;
    const pivot = medianOf(values[left]!, values[mid]!, values[right]!);
    let i = left;
    let j = right;
    while (i <= j) {
      while (values[i]! < pivot) i++;
      while (values[j]! > pivot) j--;
      if (i <= j) {
        const swap = values[i]!;
        values[i++] = values[j]!;
        values[j--] = swap;
      }
    }
    if (index <= j) right = j;
    else if (index >= i) left = i;
    else return values[index]!;
  }
  return values[index]!;
}

function medianOf(a: number, b: number, c: number): number {
  return a < b ? (b < c ? b : a < c ? c : a) : a < c ? a : b < c ? c : b;
}

/**
 * A few of many rows: most rows then cost a heap one comparison, less than a selection's or a sort's passes.
 */
export function fewOfMany(k: number, n: number): boolean {
  return k * 20 <= n;
}

export function hasNaN(scores: Float64Array): boolean {
  for (let r = 0; r < scores.length; r++) if (scores[r] !== scores[r]) return true;
  return false;
}

function viaHeap(scores: Float64Array, size: number): RankedRows {
  const top = new TopK(size);
  for (let r = 0; r < scores.length; r++) top.offer(r, scores[r]!);
  return rankedRowsOf(top.sorted((row, score) => ({ row, score })));
}

/** Rows with their scores (a heap's or an HNSW search's objects) as typed arrays. */
export function rankedRowsOf(hits: readonly { row: number; score: number }[]): RankedRows {
  return { rows: Int32Array.from(hits, (hit) => hit.row), scores: Float64Array.from(hits, (hit) => hit.score) };
}
