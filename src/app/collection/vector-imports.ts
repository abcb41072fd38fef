/**
 * Vectors made elsewhere, for the dense column's settings: the import itself runs in the import worker
 * (`collections.importVectors`, a job with progress and Cancel); this lists what a collection holds.
 */
import { listImportedVectors } from '../../lib/storage/embedding-sets.ts';
import { database } from '../../lib/storage/db.ts';

/** The `vectors/…` models stored for a collection (empty when it cannot be read). */
export function importedVectorModels(collectionId: string): Promise<Array<{ model: string; docs: number; dim: number }>> {
  return listImportedVectors(database(), collectionId).catch(() => []);
}
