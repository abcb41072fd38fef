/**
 * Bounded top-k selection over (id, score) — the one heap of BM25's TypeScript search and the dense exact
 * search. Order: higher score first, and for equal scores the lower id first, which is Lucene's
 * (`TopScoreDocCollector` visits docids in increasing order and a later document only enters a full queue
 * if it scores strictly higher) and equals a stable full sort.
 *
 * A binary min-heap holds the k best seen so far with the *worst* of them at the root, so each further
 * candidate costs one comparison, and O(log k) when it enters. It lives in two typed arrays, not an array
 * of objects: an exact dense search offers every row of the corpus (5,183 × 300 queries on SciFact), and
 * an object per offer cost four times the dot products.
 */
export class TopK {
  private readonly ids: Int32Array;
  /** Doubles, so a score comes back exactly as offered. */
  private readonly scores: Float64Array;
  private size = 0;

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 0) throw new RangeError(`k must be a non-negative integer, got ${capacity}`);
    this.ids = new Int32Array(capacity);
    this.scores = new Float64Array(capacity);
  }

  /** Offers a candidate; it is kept if the heap has room or it ranks above the current worst. */
  offer(id: number, score: number): void {
    if (this.size < this.capacity) {
      this.ids[this.size] = id;
      this.scores[this.size] = score;
      this.siftUp(this.size++);
    } else if (this.size > 0 && (this.scores[0]! < score || (this.scores[0] === score && this.ids[0]! > id))) {
      this.ids[0] = id;
      this.scores[0] = score;
      this.siftDown(0);
    }
  }

  /** The kept candidates, best first, each made by `make`. Empties the heap. */
  sorted<T>(make: (id: number, score: number) => T): T[] {
    const out: T[] = new Array(this.size);
    // The root is the worst kept candidate: popping fills the list from its end.
    while (this.size > 0) {
      const last = --this.size;
      out[last] = make(this.ids[0]!, this.scores[0]!);
      this.ids[0] = this.ids[last]!;
      this.scores[0] = this.scores[last]!;
      this.siftDown(0);
    }
    return out;
  }

  private siftUp(i: number): void {
    const { ids, scores } = this;
    const id = ids[i]!;
    const score = scores[i]!;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      // Stop when the parent already ranks below the moving entry.
      if (!(score < scores[parent]! || (score === scores[parent]! && id > ids[parent]!))) break;
      ids[i] = ids[parent]!;
      scores[i] = scores[parent]!;
      i = parent;
    }
    ids[i] = id;
    scores[i] = score;
  }

  private siftDown(i: number): void {
    const { ids, scores, size } = this;
    const id = ids[i]!;
    const score = scores[i]!;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= size) break;
      const right = left + 1;
      let child = left;
      if (right < size && (scores[right]! < scores[left]! || (scores[right] === scores[left] && ids[right]! > ids[left]!))) child = right;
      // Stop when the moving entry ranks below its worst child.
      if (!(scores[child]! < score || (scores[child] === score && ids[child]! > id))) break;
      ids[i] = ids[child]!;
      scores[i] = scores[child]!;
      i = child;
    }
    ids[i] = id;
    scores[i] = score;
  }
}
