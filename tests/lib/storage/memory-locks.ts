import type { WorkLocks } from '../../../src/lib/storage/work-locks.ts';

/**
 * An exclusive Web Locks manager in memory, for Node tests (Node has no `navigator.locks`): requests for a
 * held name queue in order; `ifAvailable` gets `null` at once when the name is held; a `signal` that aborts
 * removes a queued request (its promise rejects with the reason). Every grant is logged.
 */
export class MemoryLocks implements WorkLocks {
  private readonly held = new Set<string>();
  private readonly queues = new Map<string, Array<() => void>>();
  readonly granted: string[] = [];
  readonly waited: string[] = [];

  isHeld(name: string): boolean {
    return this.held.has(name);
  }

  async request<T>(name: string, options: { ifAvailable?: boolean; signal?: AbortSignal }, callback: (lock: unknown) => Promise<T>): Promise<T> {
    options.signal?.throwIfAborted();
    if (this.held.has(name)) {
      if (options.ifAvailable) return callback(null);
      this.waited.push(name);
      await new Promise<void>((resolve, reject) => {
        const queue = this.queues.get(name) ?? [];
        this.queues.set(name, queue);
        const grant = () => {
          options.signal?.removeEventListener('abort', abort);
          resolve();
        };
        const abort = () => {
          const at = queue.indexOf(grant);
          if (at >= 0) queue.splice(at, 1);
          reject(options.signal?.reason);
        };
        options.signal?.addEventListener('abort', abort, { once: true });
        queue.push(grant);
      });
    }
    this.held.add(name);
    this.granted.push(name);
    try {
      return await callback({ name });
    } finally {
      const next = this.queues.get(name)?.shift();
      if (next === undefined) this.held.delete(name);
      else next(); // handed over: stays held
    }
  }
}
