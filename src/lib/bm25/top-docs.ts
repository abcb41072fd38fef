/**
 * Bounded top-k selection over (docid, score) with Lucene's order: higher score first, and for equal
 * scores the lower internal docid first (`TopScoreDocCollector` visits docids in increasing order and a
 * later document only enters a full queue if it scores strictly higher).
 *
 * A binary min-heap holds the k best seen so far with the *worst* of them at the root, so each further
 * candidate costs one comparison, and O(log k) when it enters.
 */
export interface ScoredDoc {
  doc: number;
  score: number;
}

/** True when (scoreA, docA) ranks below (scoreB, docB). */
function ranksBelow(scoreA: number, docA: number, scoreB: number, docB: number): boolean {
  return scoreA < scoreB || (scoreA === scoreB && docA > docB);
}

export class TopDocs {
  private readonly docs: Int32Array;
  private readonly scores: Float64Array;
  private size = 0;

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 0) throw new RangeError(`k must be a non-negative integer, got ${capacity}`);
    this.docs = new Int32Array(capacity);
    this.scores = new Float64Array(capacity);
  }

  /** Offers a candidate; it is kept if the heap has room or it ranks above the current worst. */
  offer(doc: number, score: number): void {
    if (this.size < this.capacity) {
      this.docs[this.size] = doc;
      this.scores[this.size] = score;
      this.siftUp(this.size++);
    } else if (this.capacity > 0 && ranksBelow(this.scores[0]!, this.docs[0]!, score, doc)) {
      this.docs[0] = doc;
      this.scores[0] = score;
      this.siftDown(0);
    }
  }

  /** The kept candidates, best first. */
  sorted(): ScoredDoc[] {
    const out: ScoredDoc[] = [];
    for (let i = 0; i < this.size; i++) out.push({ doc: this.docs[i]!, score: this.scores[i]! });
    return out.sort((x, y) => y.score - x.score || x.doc - y.doc);
  }

  private siftUp(index: number): void {
    let child = index;
    while (child > 0) {
      const parent = (child - 1) >> 1;
      if (!ranksBelow(this.scores[child]!, this.docs[child]!, this.scores[parent]!, this.docs[parent]!)) break;
      this.swap(child, parent);
      child = parent;
    }
  }

  private siftDown(index: number): void {
    let parent = index;
    for (;;) {
      const left = 2 * parent + 1;
      if (left >= this.size) return;
      const right = left + 1;
      let worst = left;
      if (right < this.size && ranksBelow(this.scores[right]!, this.docs[right]!, this.scores[left]!, this.docs[left]!)) {
        worst = right;
      }
      if (!ranksBelow(this.scores[worst]!, this.docs[worst]!, this.scores[parent]!, this.docs[parent]!)) return;
      this.swap(parent, worst);
      parent = worst;
    }
  }

  private swap(i: number, j: number): void {
    const doc = this.docs[i]!;
    const score = this.scores[i]!;
    this.docs[i] = this.docs[j]!;
    this.scores[i] = this.scores[j]!;
    this.docs[j] = doc;
    this.scores[j] = score;
  }
}
