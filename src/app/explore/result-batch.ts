/**
 * The columns' rankings of one change of the query land together: a typed query re-ranks every column at
 * the same moment, and each answer drawn on its own cost a redraw and a frame before the next answer could
 * be taken in (three columns: three redraws, three layouts). A result waits while another column is still
 * ranking, at most `waitMs`, then every waiting result is applied in one task.
 */
export class ResultBatch {
  readonly #ranking = new Set<object>();
  #waiting: Array<() => void> = [];
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly waitMs: number) {}

  /** `owner` (a column) is asked for a ranking (its debounce included), or begins one. */
  started(owner: object): void {
    this.#ranking.add(owner);
  }

  /** `owner` is not ranking (its request was superseded or stopped): nothing waits for it. */
  idle(owner: object): void {
    if (!this.#ranking.delete(owner)) return;
    if (this.#ranking.size === 0) this.#flush();
  }

  /** `owner`'s answer: `apply` runs now when no other column is ranking, else with the last of them. */
  finished(owner: object, apply: () => void): void {
    this.#ranking.delete(owner);
    this.#waiting.push(apply);
    if (this.#ranking.size === 0) this.#flush();
    else this.#timer ??= setTimeout(() => this.#flush(), this.waitMs);
  }

  #flush(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    const waiting = this.#waiting;
    this.#waiting = [];
    for (const apply of waiting) apply();
  }
}
