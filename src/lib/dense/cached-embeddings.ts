/**
 * Embeds a dataset part through the cache: a stored entry under the same key is decoded and returned
 * (`hit`), otherwise the vectors are computed, encoded and stored.
 * Only a stored entry with the same ids in the same order counts as a hit.
 */
import { decodeMatrix, encodeMatrix } from './vector-codec.ts';
import type { EmbeddingStore } from './embedding-store.ts';
import type { VectorMatrix } from './vector-matrix.ts';
import type { VectorEncoding } from './vector-codec.ts';

export interface CachedEmbeddings {
  vectors: VectorMatrix;
  hit: boolean;
}

export async function embedThroughCache(
  store: EmbeddingStore,
  key: string,
  ids: readonly string[],
  encoding: VectorEncoding,
  compute: () => Promise<VectorMatrix>,
): Promise<CachedEmbeddings> {
  const stored = await store.get(key);
  if (stored && stored.ids.length === ids.length && stored.ids.every((id, i) => id === ids[i])) {
    return { vectors: decodeMatrix(stored.matrix), hit: true };
  }
  const computed = await compute();
  const matrix = encodeMatrix(computed, encoding);
  await store.put({ key, ids: [...ids], matrix, createdAt: Date.now() });
  // A lossy encoding is applied now too, so the first run and every reload rank with the same vectors.
  return { vectors: encoding === 'f32' ? computed : decodeMatrix(matrix), hit: false };
}
