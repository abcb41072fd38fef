/**
 * Running out of storage. IndexedDB refuses a write with a `QuotaExceededError` DOMException when the
 * origin's quota is used up (https://w3c.github.io/IndexedDB/#dom-idbtransaction-error, the Storage
 * standard's "storage quota"). Dexie passes it on in several wrappers: as the error itself (same `name`), as
 * `inner` of an `AbortError` when the transaction aborted because of it, or inside `failures` of a
 * `BulkError` from `bulkAdd`. `isQuotaError` looks through all of them.
 */

/** The browser's view of this origin's storage (`navigator.storage.estimate()`), when it gives one. */
export interface StorageEstimateLike {
  usage?: number;
  quota?: number;
}

const QUOTA_NAMES = new Set(['QuotaExceededError', 'NS_ERROR_DOM_QUOTA_REACHED']);

/** True when `error` (or anything it wraps) says the storage quota was exceeded. */
export function isQuotaError(error: unknown, depth = 0): boolean {
  if (depth > 4 || typeof error !== 'object' || error === null) return false;
  const record = error as { name?: unknown; inner?: unknown; cause?: unknown; failures?: unknown };
  if (typeof record.name === 'string' && QUOTA_NAMES.has(record.name)) return true;
  if (isQuotaError(record.inner, depth + 1) || isQuotaError(record.cause, depth + 1)) return true;
  if (Array.isArray(record.failures)) return record.failures.some((failure) => isQuotaError(failure, depth + 1));
  if (typeof record.failures === 'object' && record.failures !== null) {
    return Object.values(record.failures).some((failure) => isQuotaError(failure, depth + 1));
  }
  return false;
}

/**
 * The browser's own words for a quota refusal (`QuotaExceededError: …` as Chromium raises it), found
 * through the same wrappers as {@link isQuotaError}; undefined when `error` holds none.
 */
export function browserQuotaMessage(error: unknown, depth = 0): string | undefined {
  if (depth > 5 || error === null || typeof error !== 'object') return undefined;
  const record = error as { name?: unknown; message?: unknown; inner?: unknown; cause?: unknown; failures?: unknown };
  // Dexie's wrappers copy the name of what they wrap: the innermost error carries the browser's message.
  const inner =
    browserQuotaMessage(record.inner, depth + 1) ??
    browserQuotaMessage(record.cause, depth + 1) ??
    (record.failures !== null && typeof record.failures === 'object'
      ? Object.values(record.failures as object).map((failure) => browserQuotaMessage(failure, depth + 1)).find((text) => text !== undefined)
      : undefined);
  if (inner !== undefined) return inner;
  if (typeof record.name === 'string' && QUOTA_NAMES.has(record.name)) {
    return typeof record.message === 'string' && record.message !== '' ? `${record.name}: ${record.message}` : record.name;
  }
  return undefined;
}

/** ` The browser said: "…".` for a message, or nothing. */
function browserSaid(cause: unknown): string {
  const text = browserQuotaMessage(cause);
  return text === undefined ? '' : ` The browser said: "${text}".`;
}

/** `12 MB`, `3.4 MB`: sizes in the storage messages. */
export function megabytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(bytes < 10 * 1024 * 1024 ? 1 : 0)} MB`;
}

/**
 * The import of a collection did not fit into the browser's storage. Everything it had written was
 * removed again; the message says what did not fit and how far it got.
 */
export class StorageFullError extends Error {
  override readonly name = 'StorageFullError';

  constructor(
    readonly collectionName: string,
    /** What was being written when the browser refused: "documents", "queries", "judgments (test)". */
    readonly writing: string,
    /** Records of that kind stored before the refusal. */
    readonly storedSoFar: number,
    readonly estimate: StorageEstimateLike | undefined,
    options?: { cause?: unknown; storedBytes?: number },
  ) {
    const used =
      estimate?.usage !== undefined && estimate.quota !== undefined
        ? ` This site already uses ${megabytes(estimate.usage)} of the ${megabytes(estimate.quota)} the browser allows it.`
        : '';
    super(
      `Not enough storage for "${collectionName}": the browser refused to store its ${writing} ` +
        `(${storedSoFar.toLocaleString('en-US')} stored before it stopped), so nothing of it was kept.${used} ` +
        `Delete collections you no longer need, or allow this site more storage, and try again.${browserSaid(options?.cause)}`,
      options,
    );
    this.storedBytes = options?.storedBytes ?? 0;
  }

  /** Bytes of records (their UTF-8 text and row overhead) stored before the refusal: what fitted. */
  readonly storedBytes: number;
}

/**
 * An embedding run could not store its next checkpoint: the browser's storage is full. The checkpoints
 * stored before stay, so the run goes on from there once space is freed (never from the start).
 */
export class EmbeddingStorageFullError extends Error {
  override readonly name = 'EmbeddingStorageFullError';

  constructor(
    /** What was being embedded, for the message (a collection name, or its id). */
    readonly label: string,
    /** Vectors stored before the refusal. */
    readonly storedSoFar: number,
    readonly total: number,
    options?: { cause?: unknown },
  ) {
    super(
      `Not enough storage for the embeddings of ${label}: the browser refused to store more after ` +
        `${storedSoFar.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} documents. Those are kept: delete ` +
        `collections you no longer need, or allow this site more storage, and open the column again to go on from there.${browserSaid(options?.cause)}`,
      options,
    );
  }
}
