/**
 * One import per collection id across every tab and worker of the origin, through the Web Locks API
 * (https://w3c.github.io/web-locks/): an import holds the lock `retrieval-playground/import/<id>` while it
 * writes. A tab that starts later and finds a row still `'importing'` can then tell an import that is running
 * in another tab (lock held: leave it alone) from one whose tab was closed mid-way (lock free: roll it back).
 * Where the API is missing (Node tests), imports run without locks: there is only one realm there.
 */

/** The part of `LockManager` used here, so tests can pass a fake. */
export interface ImportLocks {
  request<T>(name: string, options: { ifAvailable?: boolean }, callback: (lock: unknown) => Promise<T>): Promise<T>;
}

export function importLockName(collectionId: string): string {
  return `retrieval-playground/import/${collectionId}`;
}

/** The origin's lock manager, or undefined where there is none. */
export function defaultImportLocks(): ImportLocks | undefined {
  const nav = (globalThis as { navigator?: { locks?: ImportLocks } }).navigator;
  return nav?.locks;
}

/** Runs `work` holding the collection's import lock (waiting for it when another realm holds it). */
export function withImportLock<T>(locks: ImportLocks | undefined, collectionId: string, work: () => Promise<T>): Promise<T> {
  if (locks === undefined) return work();
  return locks.request(importLockName(collectionId), {}, () => work());
}

/**
 * Runs `work` only if nobody holds the collection's import lock (it is held for the duration); returns
 * `undefined` without running it when the lock is taken.
 */
export function ifImportIdle<T>(locks: ImportLocks | undefined, collectionId: string, work: () => Promise<T>): Promise<T | undefined> {
  if (locks === undefined) return work();
  return locks.request(importLockName(collectionId), { ifAvailable: true }, (lock) => (lock === null ? Promise.resolve(undefined) : work()));
}
