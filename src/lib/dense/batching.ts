/**
 * Batching for embedding: texts are embedded in order of decreasing length, so each padded batch holds
 * texts of similar length (padding to the longest member wastes little), and the batch size adapts to
 * the measured throughput.
 */

/** Indices of `texts` by decreasing length (ties: original order). */
export function lengthOrder(texts: readonly string[]): number[] {
  return texts.map((_, i) => i).sort((a, b) => texts[b]!.length - texts[a]!.length || a - b);
}

export interface BatchSizerOptions {
  /** First batch size. */
  initial: number;
  min?: number;
  max?: number;
  /** A growth step is kept only if docs/s rises by more than this fraction. */
  minGain?: number;
}

/**
 * A model reads at most its maxLength tokens of a text; about this many characters of English make a token
 * (WordPiece and BPE vocabularies of the registry's models), so characters past maxLength × this cost
 * nothing and are not counted as work.
 */
export const CHARS_PER_TOKEN = 4;

/**
 * The work of embedding `texts`: their characters, each text counted up to what a model of `maxTokens`
 * tokens reads of it (all of it when undefined), plus one per text.
 */
export function batchWork(texts: readonly string[], maxTokens?: number): number {
  const cap = maxTokens === undefined ? Infinity : maxTokens * CHARS_PER_TOKEN;
  let work = 0;
  for (const text of texts) work += Math.min(text.length, cap) + 1;
  return work;
}

/**
 * Adaptive batch size by hill climbing on throughput: double the size while throughput keeps rising by
 * more than `minGain`; when it stops rising, go back to the best size and keep it. A failed batch (out of
 * memory on a GPU, say) halves the size and pins max there.
 *
 * Throughput is compared at equal work, not in documents per second: texts come longest first, so raw
 * docs/s rises along the run by itself. The sizer is given the work of each batch (batchWork: characters,
 * those a model cuts off not counted; a batch of SciFact's longest abstracts, all cut at 128 tokens,
 * otherwise looked 3× the work of the next batch).
 *
 * The first batch at each size is not measured: onnxruntime plans and allocates its buffers for a new
 * shape on its first run, and counting it made every larger size look slower than the one before.
 */
export class BatchSizer {
  private size: number;
  private min: number;
  private max: number;
  private readonly minGain: number;
  private best = { size: 0, rate: 0 };
  private settled = false;
  /** Whether a batch of the current size has run (its first run is a warm-up). */
  private warmed = false;

  constructor(options: BatchSizerOptions) {
    this.min = Math.max(1, options.min ?? 1);
    this.max = Math.max(this.min, options.max ?? 512);
    this.size = clamp(options.initial, this.min, this.max);
    this.minGain = options.minGain ?? 0.05;
  }

  /** Size of the next batch. */
  current(): number {
    return this.size;
  }

  /** Records a finished batch: `work` (batchWork) embedded in `seconds`. */
  record(batchSize: number, work: number, seconds: number): void {
    if (this.settled || batchSize !== this.size || seconds <= 0) return;
    if (!this.warmed) {
      this.warmed = true;
      return;
    }
    this.warmed = false;
    const rate = work / seconds;
    if (rate > this.best.rate * (1 + this.minGain)) {
      this.best = { size: this.size, rate };
      const next = Math.min(this.max, this.size * 2);
      if (next === this.size) this.settled = true;
      this.size = next;
    } else {
      this.size = this.best.size || this.size;
      this.settled = true;
    }
  }

  /** A batch of this size failed: halve and never grow past the smaller size again. */
  failed(): boolean {
    if (this.size <= this.min) return false;
    this.size = Math.max(this.min, this.size >> 1);
    this.max = this.size;
    this.best = { size: this.size, rate: 0 };
    this.warmed = false;
    return true;
  }
}

function clamp(x: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, Math.floor(x)));
}

export interface EmbedProgress {
  done: number;
  total: number;
  docsPerSecond: number;
  /** Seconds left at the current rate (NaN before the first batch). */
  etaSeconds: number;
  batchSize: number;
}

/** Progress figures after `done` of `total` documents in `elapsedSeconds`. */
export function progressAt(done: number, total: number, elapsedSeconds: number, batchSize: number): EmbedProgress {
  const docsPerSecond = elapsedSeconds > 0 ? done / elapsedSeconds : 0;
  const etaSeconds = docsPerSecond > 0 ? (total - done) / docsPerSecond : Number.NaN;
  return { done, total, docsPerSecond, etaSeconds, batchSize };
}
