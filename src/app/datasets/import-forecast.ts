import type { ClassifiedFile } from '../../lib/import/classify.ts';
import type { StorageEstimateLike } from '../../lib/storage/quota.ts';
import { forecastStorage, forecastWarning } from '../../lib/storage/storage-forecast.ts';

/** The browser's view of this origin's quota, or undefined where it gives none. */
export async function storageEstimate(): Promise<StorageEstimateLike | undefined> {
  try {
    return await navigator.storage?.estimate?.();
  } catch {
    return undefined;
  }
}

/** The device's memory in GiB as Chromium reports it (`navigator.deviceMemory`), undefined elsewhere. */
export function deviceMemoryGiB(): number | undefined {
  const reported = (navigator as Navigator & { deviceMemory?: unknown }).deviceMemory;
  return typeof reported === 'number' ? reported : undefined;
}

/**
 * The warning before importing these recognised files, when their corpus is estimated not to fit the
 * quota left or the tab's memory (storage-forecast.ts); undefined when it fits or nothing is known.
 */
export async function localImportWarning(files: readonly ClassifiedFile[]): Promise<string | undefined> {
  const corpus = files.filter((file) => file.role === 'corpus' && !file.ignored);
  if (corpus.length === 0) return undefined;
  const bytes = corpus.reduce((sum, file) => sum + file.size, 0);
  // A .gz or .zip holds compressed text: its bytes store several times over.
  const gzip = corpus.some((file) => /\.(gz|zip)(\/|$)/i.test(file.path));
  const size = { bytes, gzip };
  const name = corpus.length === 1 ? corpus[0]!.path : `${corpus[0]!.path} and ${corpus.length - 1} more`;
  return forecastWarning(name, size, forecastStorage(size, await storageEstimate(), deviceMemoryGiB()));
}
