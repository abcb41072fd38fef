import { defaultLocks, ifLockFree, lockNames, withWorkLock, type WorkLocks } from './work-locks.ts';

/**
 * One import per collection id across every tab and worker of the origin (work-locks.ts): an import holds the
 * lock `retrieval-playground/import/<id>` while it writes. A tab that starts later and finds a row still
 * `'importing'` can then tell an import that is running in another tab (lock held: leave it alone) from one
 * whose tab was closed mid-way (lock free: roll it back).
 */

/** The part of `LockManager` used here, so tests can pass a fake. */
export type ImportLocks = WorkLocks;

function importLockName(collectionId: string): string {
  return lockNames.import(collectionId);
}

/** The origin's lock manager, or undefined where there is none. */
export function defaultImportLocks(): ImportLocks | undefined {
  return defaultLocks();
}

/** Runs `work` holding the collection's import lock (waiting for it when another realm holds it). */
export function withImportLock<T>(locks: ImportLocks | undefined, collectionId: string, work: () => Promise<T>): Promise<T> {
  return withWorkLock(locks, importLockName(collectionId), work);
}

/**
 * Runs `work` only if nobody holds the collection's import lock (it is held for the duration); returns
 * `undefined` without running it when the lock is taken.
 */
export function ifImportIdle<T>(locks: ImportLocks | undefined, collectionId: string, work: () => Promise<T>): Promise<T | undefined> {
  return ifLockFree(locks, importLockName(collectionId), work);
}
