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

export class LatestRequest<Request, Result> {
  private key: string | undefined;
  private request: Request | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
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
    clearTimeout(this.timer);
    this.timer = undefined;
    this.controller?.abort(new DOMException('stopped', 'AbortError'));
    this.controller = undefined;
  }

  private schedule(delay: number): void {
    clearTimeout(this.timer);
    this.controller?.abort(new DOMException('superseded', 'AbortError'));
    this.controller = undefined;
    const request = this.request!;
    this.handlers.onScheduled?.(request);
    this.timer = setTimeout(() => {
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
