/**
 * Top-k selection by score with a binary min-heap: O(n log k) instead of sorting all n scores. Ties are
 * broken by the lower row index, so results are deterministic and equal to a stable full sort.
 */

export interface ScoredRow {
  row: number;
  score: number;
}

/** True when a ranks strictly below b (lower score, or same score and higher row). */
function worse(a: ScoredRow, b: ScoredRow): boolean {
  return a.score < b.score || (a.score === b.score && a.row > b.row);
}

/** Keeps the k best of the rows offered to it. */
export class TopK {
  private readonly heap: ScoredRow[] = [];

  constructor(private readonly k: number) {}

  offer(row: number, score: number): void {
    if (this.k <= 0) return;
    const item = { row, score };
    const heap = this.heap;
    if (heap.length < this.k) {
      heap.push(item);
      this.siftUp(heap.length - 1);
    } else if (heap[0] && worse(heap[0], item)) {
      heap[0] = item;
      this.siftDown(0);
    }
  }

  /** The kept rows, best first. */
  sorted(): ScoredRow[] {
    return [...this.heap].sort((a, b) => b.score - a.score || a.row - b.row);
  }

  private siftUp(i: number): void {
    const heap = this.heap;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!worse(heap[i]!, heap[parent]!)) break;
      [heap[i], heap[parent]] = [heap[parent]!, heap[i]!];
      i = parent;
    }
  }

  private siftDown(i: number): void {
    const heap = this.heap;
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let smallest = i;
      if (left < heap.length && worse(heap[left]!, heap[smallest]!)) smallest = left;
      if (right < heap.length && worse(heap[right]!, heap[smallest]!)) smallest = right;
      if (smallest === i) return;
      [heap[i], heap[smallest]] = [heap[smallest]!, heap[i]!];
      i = smallest;
    }
  }
}
