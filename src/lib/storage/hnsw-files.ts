import { fnv1a } from '../data/fingerprint.ts';

/**
 * Saved HNSW graphs are files of hnswlib-wasm's Emscripten file system, mirrored to IndexedDB by IDBFS: one
 * record per file in the object store `FILE_DATA` of the database `/hnswlib-index`, keyed by the file's path
 * (`/hnswlib-index/<name>`). Deleting a collection must remove its graphs too; doing that through hnswlib
 * would load its wasm into the page (and its module does not export `FS`), so the records are deleted here
 * with plain IndexedDB. A realm that has the file system mounted drops the file at its next `syncFS(read)`,
 * which every load and save does first (dense-corpus.ts), all under the `hnswFiles` lock (work-locks.ts).
 *
 * File names start with a hash of the collection id (`rp-<collection>-<graph>-<rows>.hnsw`), so the graphs
 * of a collection are found by prefix even when the tab that saved one closed before recording it.
 */

export const HNSW_FS_DATABASE = '/hnswlib-index';
const HNSW_FS_STORE = 'FILE_DATA';
const PATH_PREFIX = `${HNSW_FS_DATABASE}/`;

/** The prefix of every graph file of a collection. */
export function collectionGraphPrefix(collectionId: string): string {
  return `rp-${fnv1a(collectionId)}-`;
}

/** The file name of a graph: the collection's prefix, a hash of what the graph is built from, and its size. */
export function graphFileName(collectionId: string, graphKey: string, rows: number): string {
  return `${collectionGraphPrefix(collectionId)}${fnv1a(graphKey)}-${rows}.hnsw`;
}

function request<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

/** The file system's database, or undefined when hnswlib never created it (it is not created here). */
function openFileSystem(factory: IDBFactory): Promise<IDBDatabase | undefined> {
  return new Promise((resolve, reject) => {
    const open = factory.open(HNSW_FS_DATABASE);
    let absent = false;
    open.onupgradeneeded = () => {
      absent = true;
      open.transaction?.abort();
    };
    open.onsuccess = () => {
      const db = open.result;
      if (db.objectStoreNames.contains(HNSW_FS_STORE)) resolve(db);
      else {
        db.close();
        resolve(undefined);
      }
    };
    open.onerror = (event) => {
      if (absent) {
        event.preventDefault();
        resolve(undefined);
      } else reject(open.error);
    };
    open.onblocked = () => reject(new Error(`${HNSW_FS_DATABASE} is blocked by another connection`));
  });
}

function defaultFactory(): IDBFactory | undefined {
  return (globalThis as { indexedDB?: IDBFactory }).indexedDB;
}

/** Deletes the graph files whose names start with `prefix` (e.g. `collectionGraphPrefix(id)`); returns their names. */
export async function deleteGraphFiles(prefix: string, factory: IDBFactory | undefined = defaultFactory()): Promise<string[]> {
  if (factory === undefined || prefix.length === 0) return [];
  const db = await openFileSystem(factory);
  if (db === undefined) return [];
  try {
    const transaction = db.transaction(HNSW_FS_STORE, 'readwrite');
    const store = transaction.objectStore(HNSW_FS_STORE);
    const first = PATH_PREFIX + prefix;
    // Every key that starts with `first` sorts between it and `first` followed by the highest code unit.
    const range = IDBKeyRange.bound(first, `${first}\uffff`);
    const keys = (await request(store.getAllKeys(range))) as string[];
    await request(store.delete(range));
    await new Promise<void>((resolve, reject) => {
      transaction.oncomplete = () => resolve();
      transaction.onerror = () => reject(transaction.error);
      transaction.onabort = () => reject(transaction.error);
    });
    return keys.map((key) => key.slice(PATH_PREFIX.length));
  } finally {
    db.close();
  }
}
