/**
 * Vectors made elsewhere, imported into the open collection from the dense column's settings: the files are
 * read by the core's reader (src/lib/import/vector-file.ts) and stored as the collection's sets of a
 * `vectors/…` model (vector-import.ts: checked first, stored all or nothing), as a job in the tray with a
 * progress bar and Cancel. A failure is a notice naming the file and line; none throws.
 */
import { readVectorFile, type VectorFileInput, type VectorRows } from '../../lib/import/vector-file.ts';
import { listImportedVectors, storeImportedVectors, type StoredImportedVectors } from '../../lib/import/vector-import.ts';
import { database } from '../../lib/storage/db.ts';
import { formatCount } from '../shell/format.ts';
import { jobs } from '../shell/jobs.svelte.ts';
import { notices } from '../shell/notices.svelte.ts';

/** The files picked: corpus and query vectors, and the ids files of `.npy` ones. */
export interface PickedVectorFiles {
  corpus: File;
  corpusIds?: File | undefined;
  queries: File;
  queryIds?: File | undefined;
}

function fileInput(file: File): VectorFileInput {
  return {
    name: file.name,
    open: async () => file.stream() as ReadableStream<Uint8Array>,
    random: async () => ({ byteLength: file.size, slice: (start, end) => file.slice(start, end).arrayBuffer() }),
  };
}

async function readPicked(file: File, ids: File | undefined, signal: AbortSignal, onRows: (rows: number) => void): Promise<VectorRows> {
  return readVectorFile({ file: fileInput(file), ...(ids === undefined ? {} : { ids: fileInput(ids) }), signal, onRows });
}

/** Imports the files into `collectionId`; resolves with what was stored (undefined: failed or cancelled, said in a notice). */
export async function importVectorFiles(collectionId: string, files: PickedVectorFiles): Promise<StoredImportedVectors | undefined> {
  const job = jobs.start(`Import vectors ${files.corpus.name}`, { unit: 'vectors' });
  try {
    const corpus = await readPicked(files.corpus, files.corpusIds, job.signal, (rows) => job.progress(rows, undefined, `reading ${files.corpus.name}`));
    const queries = await readPicked(files.queries, files.queryIds, job.signal, (rows) => job.progress(corpus.ids.length + rows, undefined, `reading ${files.queries.name}`));
    job.progress(corpus.ids.length + queries.ids.length, corpus.ids.length + queries.ids.length, 'checking and storing');
    const stored = await storeImportedVectors(database(), collectionId, { corpus, queries }, { signal: job.signal });
    job.finish(`${formatCount(stored.docs)} documents, ${formatCount(stored.queries)} queries, ${stored.dim} dimensions`);
    return stored;
  } catch (error) {
    job.fail(error);
    if (!job.signal.aborted) notices.error(error);
    return undefined;
  }
}

/** The `vectors/…` models stored for a collection (empty when it cannot be read). */
export function importedVectorModels(collectionId: string): Promise<Array<{ model: string; docs: number; dim: number }>> {
  return listImportedVectors(database(), collectionId).catch(() => []);
}
