/**
 * One worker of the page, from start to close: created on first use, wrapped with comlink, watched
 * (WorkerWatch: an `error` or `messageerror` event, a WebAssembly abort, no answer to pings), and closed.
 * Every call goes through `call`, so a crash rejects it with a message naming the worker instead of leaving
 * it pending forever.
 *
 * After a crash the next call starts a fresh worker (`restart`, the default). A worker that needs set-up its
 * owner does — a model to load — is hosted with `restart: false`: calls after its crash reject with the
 * crash, and the owner (which heard of it through `onCrash`) starts a new host with the set-up on next use.
 *
 *   const host = new WorkerHost<Bm25WorkerApi>({ label: 'The BM25 worker (english analyzer)', create, ping: (api) => api.ping() });
 *   const info = await host.call((api) => api.openIndex(request, Comlink.proxy(onProgress)));
 *   await host.close();
 */
import * as Comlink from 'comlink';
import { WorkerWatch, type WatchedWorker, type WorkerCrashedError } from './worker-watch.ts';

/** What a host needs of a worker: comlink's endpoint and what WorkerWatch listens to (a Worker, or a fake in tests). */
export type HostedWorker = Comlink.Endpoint & WatchedWorker;

export interface WorkerHostOptions<Api> {
  /** Who the worker is, for messages: "The BM25 worker (english analyzer)". */
  label: string;
  /** Starts the worker (the constructors of worker-scripts.ts, or a fake). */
  create: () => HostedWorker;
  /** Answers when the worker's event loop is free; without it, a worker that hangs is not noticed. */
  ping?: (api: Comlink.Remote<Api>) => Promise<unknown>;
  /** See WorkerWatchOptions (defaults 15 s and 120 s). */
  pingEveryMs?: number;
  unresponsiveMs?: number;
  /** Start a fresh worker on the next call after a crash (default true). */
  restart?: boolean;
  /** The worker died (its calls in flight reject with the same error). */
  onCrash?: (error: WorkerCrashedError) => void;
}

interface Running<Api> {
  worker: HostedWorker;
  api: Comlink.Remote<Api>;
  watch: WorkerWatch;
}

export class WorkerHost<Api> {
  private current: Running<Api> | undefined;
  /** Why a host that does not restart refuses calls: its crash, or its close. */
  private ended: Error | undefined;
  private started = 0;

  constructor(private readonly options: WorkerHostOptions<Api>) {}

  get label(): string {
    return this.options.label;
  }

  /** A live worker is running (false before the first call, after a crash and after `close`). */
  get running(): boolean {
    return this.current !== undefined && !this.current.watch.dead;
  }

  /** Workers started so far (a restart after a crash counts). */
  get starts(): number {
    return this.started;
  }

  /**
   * The running worker's remote, starting one when none runs. Calls made on it directly are not watched:
   * prefer `call` (this is for calls that must not wait, such as a cancel, and for code that owns the worker's life).
   */
  get api(): Comlink.Remote<Api> {
    return this.start().api;
  }

  /** A call to the worker (started when none runs), rejected with WorkerCrashedError if the worker dies meanwhile. */
  // The result is typed from the call's promise as a whole: comlink types a remote method returning a union
  // as a union of promises, which `Promise<T>` would narrow to its first member.
  call<P extends Promise<unknown>>(work: (api: Comlink.Remote<Api>) => P): Promise<Awaited<P>> {
    let running: Running<Api>;
    try {
      running = this.start();
    } catch (error) {
      return Promise.reject(error);
    }
    return running.watch.guard(work(running.api) as Promise<Awaited<P>>);
  }

  /** A call only when a worker runs (a cancel means nothing to a fresh worker); undefined otherwise. */
  callIfRunning<P extends Promise<unknown>>(work: (api: Comlink.Remote<Api>) => P): Promise<Awaited<P>> | undefined {
    return this.running ? this.call(work) : undefined;
  }

  /**
   * Stops the worker: `dispose` (when given and the worker is alive) may free what it holds first, for at
   * most `timeoutMs`; then the worker is terminated. A host that restarts starts a fresh worker on its next
   * call; one that does not refuses further calls.
   */
  async close(dispose?: (api: Comlink.Remote<Api>) => Promise<unknown>, timeoutMs = 5000): Promise<void> {
    const running = this.current;
    this.current = undefined;
    if (this.options.restart === false) this.ended ??= new Error(`${this.options.label} was closed`);
    if (running === undefined) return;
    running.watch.stop();
    try {
      if (dispose !== undefined && !running.watch.dead) {
        let timer: ReturnType<typeof setTimeout> | undefined;
        const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)));
        await Promise.race([dispose(running.api), timeout]).finally(() => clearTimeout(timer));
      }
    } finally {
      running.api[Comlink.releaseProxy]();
      running.worker.terminate();
    }
  }

  private start(): Running<Api> {
    if (this.current !== undefined && !this.current.watch.dead) return this.current;
    if (this.ended !== undefined) throw this.ended;
    const worker = this.options.create();
    const api = Comlink.wrap<Api>(worker);
    const ping = this.options.ping;
    const running: Running<Api> = {
      worker,
      api,
      watch: new WorkerWatch(worker, {
        label: this.options.label,
        ...(ping === undefined ? {} : { ping: () => ping(api) }),
        ...(this.options.pingEveryMs === undefined ? {} : { pingEveryMs: this.options.pingEveryMs }),
        ...(this.options.unresponsiveMs === undefined ? {} : { unresponsiveMs: this.options.unresponsiveMs }),
        onCrash: (error) => {
          if (this.current === running) this.current = undefined;
          if (this.options.restart === false) this.ended ??= error;
          this.options.onCrash?.(error);
        },
      }),
    };
    this.current = running;
    this.started += 1;
    return running;
  }
}
