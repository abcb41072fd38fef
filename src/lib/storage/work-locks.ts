/**
 * Long jobs that write shared results — imports, index builds, embedding runs, hnswlib's file system — hold a
 * Web Lock (https://w3c.github.io/web-locks/) named after what they write, so that two tabs (or two workers)
 * never do the same work at once: the second waits, then finds the first one's result stored and loads it.
 * A lock is released when its tab closes, so a job interrupted by a closed tab never blocks the next one.
 * Where the API is missing (Node tests, the CLI), work runs without locks: there is only one realm there.
 */

/** The part of `LockManager` used here, so tests can pass a fake. */
export interface WorkLocks {
  request<T>(name: string, options: { ifAvailable?: boolean; signal?: AbortSignal }, callback: (lock: unknown) => Promise<T>): Promise<T>;
}

const PREFIX = 'retrieval-playground/';

/** Lock names, one namespace per kind of work. */
export const lockNames = {
  /** An import of the collection (import-locks.ts). */
  import: (collectionId: string) => `${PREFIX}import/${collectionId}`,
  /** The build of a stored index (its `indexes` row key). */
  index: (indexKey: string) => `${PREFIX}index/${indexKey}`,
  /** An embedding run of a set (its `embeddingSets` row key). */
  embedding: (setKey: string) => `${PREFIX}embedding/${setKey}`,
  /** hnswlib-wasm's IndexedDB-backed file system: a sync writes a realm's whole view of it back. */
  hnswFiles: `${PREFIX}hnsw-files`,
} as const;

/** The origin's lock manager, or undefined where there is none. */
export function defaultLocks(): WorkLocks | undefined {
  const nav = (globalThis as { navigator?: { locks?: WorkLocks } }).navigator;
  return nav?.locks;
}

export interface WorkLockOptions {
  /** Called once, before waiting, when another realm holds the lock. */
  onWait?: () => void;
  /** Stops waiting for the lock (the promise rejects with the signal's reason); work already started is not stopped. */
  signal?: AbortSignal;
}

const TAKEN = Symbol('taken');

/**
 * Runs `work` holding the lock `name`; when another realm holds it, calls `onWait` and waits for it.
 * `locks` null or undefined: runs at once, unlocked.
 */
export async function withWorkLock<T>(locks: WorkLocks | null | undefined, name: string, work: () => Promise<T>, options: WorkLockOptions = {}): Promise<T> {
  if (locks === null || locks === undefined) return work();
  options.signal?.throwIfAborted();
  const first = await locks.request(name, { ifAvailable: true }, async (lock): Promise<{ value: T } | typeof TAKEN> => (lock === null ? TAKEN : { value: await work() }));
  if (first !== TAKEN) return first.value;
  options.signal?.throwIfAborted();
  options.onWait?.();
  return locks.request(name, options.signal === undefined ? {} : { signal: options.signal }, () => work());
}

/** Runs `work` only if nobody holds the lock (held for the duration); `undefined` without running it otherwise. */
export function ifLockFree<T>(locks: WorkLocks | null | undefined, name: string, work: () => Promise<T>): Promise<T | undefined> {
  if (locks === null || locks === undefined) return work();
  return locks.request(name, { ifAvailable: true }, (lock) => (lock === null ? Promise.resolve(undefined) : work()));
}
