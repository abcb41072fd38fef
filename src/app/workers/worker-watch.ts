/**
 * Notices when a worker dies, so calls to it fail with a message instead of waiting forever (a comlink
 * call to a dead worker never settles). A worker is dead when:
 * - it fires `error` — an exception at top level (its module failed to evaluate) or an uncaught one later;
 * - it fires `messageerror` — a message it sent could not be deserialized;
 * - a call fails with an error that leaves its WebAssembly unusable (`isFatalWorkerError`: out of memory,
 *   an Emscripten abort, a wasm trap) — every later call would fail the same way;
 * - it stops answering: while calls are pending it is pinged every `pingEveryMs`, and one ping unanswered
 *   for `unresponsiveMs` means it was terminated or hangs (a terminated worker fires no event at all).
 *   The allowance is long because a worker answers only between two synchronous stretches, and one
 *   inference batch of a large model on WASM can take tens of seconds.
 * A V8 heap out-of-memory in a dedicated worker is not among them: chromium then kills the whole page.
 *
 * Once dead, `crashed` rejects, every guarded call pending rejects with WorkerCrashedError, the worker
 * is terminated, and `onCrash` runs once; the owner starts a fresh worker on next use.
 */

export class WorkerCrashedError extends Error {
  override name = 'WorkerCrashedError';
}

export interface WorkerWatchOptions {
  /** Who the worker is, for messages: "The BM25 worker (english)". */
  label: string;
  /** Answers when the worker's event loop is free (a comlink call such as `api.ping()`). */
  ping?: () => Promise<unknown>;
  /** Default 15 s. */
  pingEveryMs?: number;
  /** Default 120 s. */
  unresponsiveMs?: number;
  onCrash?: (error: WorkerCrashedError) => void;
}

/** Errors after which a worker's WebAssembly (onnxruntime, the BM25 kernel, hnswlib) cannot be trusted. */
export function isFatalWorkerError(error: unknown): boolean {
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return /out of memory|Aborted\(|RuntimeError|memory access out of bounds|Cannot enlarge memory|Array buffer allocation failed|WebAssembly\.Memory/i.test(message);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The slice of Worker used here (a Worker, or a fake in unit tests). */
export interface WatchedWorker {
  addEventListener(type: 'error' | 'messageerror', listener: (event: Event) => void): void;
  removeEventListener(type: 'error' | 'messageerror', listener: (event: Event) => void): void;
  terminate(): void;
}

export class WorkerWatch {
  /** Rejects with WorkerCrashedError when the worker dies (never resolves). */
  readonly crashed: Promise<never>;
  private fail!: (error: WorkerCrashedError) => void;
  private error: WorkerCrashedError | undefined;
  private pending = 0;
  private timer: ReturnType<typeof setInterval> | undefined;
  private pingSentAt: number | undefined;
  private readonly onError = (event: Event) => {
    const message = (event as ErrorEvent).message || 'the worker script failed to load or threw';
    this.die(`${this.options.label} stopped: ${message}`);
  };
  private readonly onMessageError = () => this.die(`${this.options.label} sent a message that could not be read`);

  constructor(
    private readonly worker: WatchedWorker,
    private readonly options: WorkerWatchOptions,
  ) {
    this.crashed = new Promise<never>((_, reject) => (this.fail = reject));
    // Nobody may be waiting on `crashed` itself.
    this.crashed.catch(() => undefined);
    worker.addEventListener('error', this.onError);
    worker.addEventListener('messageerror', this.onMessageError);
  }

  get dead(): boolean {
    return this.error !== undefined;
  }

  /**
   * `call`'s outcome, or WorkerCrashedError as soon as the worker dies. A fatal error (isFatalWorkerError)
   * kills the worker and is rethrown as WorkerCrashedError naming it.
   */
  async guard<T>(call: Promise<T>): Promise<T> {
    if (this.error) {
      call.catch(() => undefined);
      throw this.error;
    }
    this.pending++;
    this.startPinging();
    try {
      return await Promise.race([call, this.crashed]);
    } catch (error) {
      if (!(error instanceof WorkerCrashedError) && isFatalWorkerError(error)) {
        this.die(`${this.options.label} failed (${messageOf(error)})`);
        throw this.error!;
      }
      throw error;
    } finally {
      this.pending--;
      if (this.pending === 0) this.stopPinging();
    }
  }

  /** Stops watching (the owner terminates the worker itself). */
  stop(): void {
    this.stopPinging();
    this.worker.removeEventListener('error', this.onError);
    this.worker.removeEventListener('messageerror', this.onMessageError);
  }

  private die(message: string): void {
    if (this.error) return;
    this.error = new WorkerCrashedError(`${message}. It is restarted on next use.`);
    this.stop();
    this.worker.terminate();
    this.fail(this.error);
    this.options.onCrash?.(this.error);
  }

  private startPinging(): void {
    const ping = this.options.ping;
    if (ping === undefined || this.timer !== undefined) return;
    const every = this.options.pingEveryMs ?? 15_000;
    const limit = this.options.unresponsiveMs ?? 120_000;
    this.timer = setInterval(() => {
      if (this.pingSentAt !== undefined) {
        if (Date.now() - this.pingSentAt >= limit) this.die(`${this.options.label} stopped answering for ${Math.round(limit / 1000)} s`);
        return;
      }
      const sentAt = Date.now();
      this.pingSentAt = sentAt;
      ping().then(
        () => {
          if (this.pingSentAt === sentAt) this.pingSentAt = undefined;
        },
        () => undefined,
      );
    }, Math.min(every, limit));
  }

  private stopPinging(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
    this.pingSentAt = undefined;
  }
}
