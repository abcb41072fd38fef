/**
 * Applies the latest of frequent updates at most once per interval: the first at once, the ones that follow
 * within the interval as one trailing update with the latest value.
 *
 * Why progress goes through it: every applied update redraws text, and an evaluation's chunks come back
 * far more often than a person can read, taking CPU the ranking worker needs.
 */
export class LatestThrottle<T> {
  #lastApplied = Number.NEGATIVE_INFINITY;
  #pending: { value: T } | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly apply: (value: T) => void,
    private readonly intervalMs: number,
    private readonly now: () => number = () => performance.now(),
  ) {}

  push(value: T): void {
    const now = this.now();
    if (this.#timer === undefined && now - this.#lastApplied >= this.intervalMs) {
      this.#applyNow(value, now);
      return;
    }
    this.#pending = { value };
    this.#timer ??= setTimeout(() => this.flush(), Math.max(0, this.#lastApplied + this.intervalMs - now));
  }

  /** Applies the waiting update now, if there is one (before a final state is shown). */
  flush(): void {
    const pending = this.#pending;
    this.cancel();
    if (pending !== undefined) this.#applyNow(pending.value, this.now());
  }

  /** Drops the waiting update (a later state replaces it). */
  cancel(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#pending = undefined;
  }

  #applyNow(value: T, now: number): void {
    this.#lastApplied = now;
    this.apply(value);
  }
}
