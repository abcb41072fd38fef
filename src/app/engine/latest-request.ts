/**
 * "Only the latest request counts", for work that follows an input: a request either runs at once (a new
 * query) or when the input has rested for `debounceMs` (typing, a slider); a newer request aborts the
 * running one and its result is dropped, so a slow old answer never replaces a newer one on screen. The
 * same request twice in a row is ignored.
 */

/** How long typing or a slider rests before an Explore column ranks (short enough to feel live). */
export const DEBOUNCE_MS = 250;

export interface LatestRequestHandlers<Request, Result> {
  /** The request was accepted (it will run after the debounce, or now). */
  onScheduled?(request: Request): void;
  /** Work begins. */
  onStart?(request: Request): void;
  onResult(request: Request, result: Result): void;
  /** The work failed (not called for requests that were superseded or stopped). */
  onError(request: Request, error: unknown): void;
}

/**
 * Timers that end together (within `slackMs`) run in one task. The columns of one typed change each
 * debounce their ranking: with a timer each, a first column's answer could be taken in, with whatever it
 * set off, between their timers, holding the last column's start back.
 */
export class TimerGroup {
  readonly #pending = new Map<number, { due: number; run: () => void }>();
  #lastId = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #timerDue = Infinity;

  constructor(private readonly slackMs = 4) {}

  /** Runs `run` in `delay` ms, with the others due then; returns its id for `clear`. */
  set(run: () => void, delay: number): number {
    const id = ++this.#lastId;
    this.#pending.set(id, { due: Date.now() + delay, run });
    this.#arm();
    return id;
  }

  clear(id: number | undefined): void {
    if (id !== undefined) this.#pending.delete(id);
  }

  #arm(): void {
    let first = Infinity;
    for (const { due } of this.#pending.values()) first = Math.min(first, due);
    if (first >= this.#timerDue) return;
    clearTimeout(this.#timer);
    this.#timerDue = first;
    this.#timer = setTimeout(() => this.#fire(), Math.max(0, first - Date.now()));
  }

  #fire(): void {
    this.#timer = undefined;
    this.#timerDue = Infinity;
    const now = Date.now();
    const due = [...this.#pending].filter(([, timer]) => timer.due <= now + this.slackMs);
    for (const [id] of due) this.#pending.delete(id);
    for (const [, timer] of due) timer.run();
    this.#arm();
  }
}

/** The debounces of every LatestRequest (the page's Explore columns). */
const debounces = new TimerGroup();

export class LatestRequest<Request, Result> {
  private key: string | undefined;
  private request: Request | undefined;
  private timer: number | undefined;
  private controller: AbortController | undefined;
  /** The run stopped by `cancel` (its AbortError is reported, unlike a superseded one's). */
  private cancelled: AbortController | undefined;

  constructor(
    private readonly work: (request: Request, signal: AbortSignal) => Promise<Result>,
    private readonly handlers: LatestRequestHandlers<Request, Result>,
    private readonly debounceMs: number,
  ) {}

  /**
   * Asks for `request` (identified by `key`); `immediate` skips the debounce. Returns false when it is the
   * request already shown or being computed.
   */
  ask(key: string, request: Request, immediate: boolean): boolean {
    if (key === this.key) return false;
    this.key = key;
    this.request = request;
    this.schedule(immediate ? 0 : this.debounceMs);
    return true;
  }

  /** Runs the last request again, now (after a failure). */
  retry(): void {
    if (this.request !== undefined) this.schedule(0);
  }

  /**
   * Stops the running request as a failure: `onError` gets the AbortError, and `retry` runs it again (asking
   * for the same request does not). Nothing happens when nothing runs.
   */
  cancel(): void {
    const controller = this.controller;
    if (controller === undefined) return;
    this.cancelled = controller;
    controller.abort(new DOMException('cancelled', 'AbortError'));
  }

  /** Drops what is pending or running; the next `ask` runs even if it repeats the last request. */
  stop(): void {
    this.key = undefined;
    debounces.clear(this.timer);
    this.timer = undefined;
    this.controller?.abort(new DOMException('stopped', 'AbortError'));
    this.controller = undefined;
  }

  private schedule(delay: number): void {
    debounces.clear(this.timer);
    this.controller?.abort(new DOMException('superseded', 'AbortError'));
    this.controller = undefined;
    const request = this.request!;
    this.handlers.onScheduled?.(request);
    this.timer = debounces.set(() => {
      this.timer = undefined;
      void this.run(request);
    }, delay);
  }

  private async run(request: Request): Promise<void> {
    const controller = new AbortController();
    this.controller = controller;
    this.handlers.onStart?.(request);
    try {
      const result = await this.work(request, controller.signal);
      if (!controller.signal.aborted) this.handlers.onResult(request, result);
    } catch (error) {
      if (!controller.signal.aborted || this.cancelled === controller) this.handlers.onError(request, error);
    } finally {
      if (this.controller === controller) this.controller = undefined;
      if (this.cancelled === controller) this.cancelled = undefined;
    }
  }
}
