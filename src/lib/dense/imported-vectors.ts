import type { Embedder } from './embedder.ts';
import { customModelSpec, type ModelSpec } from './registry.ts';
import { normalizeInPlace, type VectorMatrix } from './vector-matrix.ts';

/**
 * Vectors from file as a dense "model": the id `vectors/<fingerprint>/<file name>` names the imported files
 * (their content fingerprints, so another file of the same name is another model) and ends in the file's
 * name, which column headers show. Nothing is embedded: the corpus and the collection's queries have
 * vectors from the files; any other text (a typed query) has none, and asking for one is an error that
 * says so.
 */

const PREFIX = 'vectors/';

/** The model id of vectors imported from `fileName` with content `fingerprint` (corpus and queries together). */
export function importedVectorsModel(fingerprint: string, fileName: string): string {
  return `${PREFIX}${fingerprint}/${fileName.replaceAll('/', '_')}`;
}

export function isImportedVectorsModel(model: string): boolean {
  return model.startsWith(PREFIX);
}

/** The file name a `vectors/…` model shows. */
export function importedVectorsName(model: string): string {
  return model.slice(model.indexOf('/', PREFIX.length) + 1);
}

/** The spec of a `vectors/…` model: cosine over vectors normalized at import, no prefixes, one dtype. */
export function importedVectorsSpec(model: string, dim = 0): ModelSpec {
  return customModelSpec(model, { label: `vectors from ${importedVectorsName(model)}`, source: 'local', dim, dtypes: ['fp32'], defaultDtype: 'fp32', maxLength: 0 });
}

/** A text that has no imported vector (a typed query, or a query the file left out). */
export class MissingQueryVectorError extends Error {
  override readonly name = 'MissingQueryVectorError';

  constructor(
    readonly model: string,
    readonly texts: readonly string[],
  ) {
    const first = texts[0] ?? '';
    super(
      `no vector for the query "${first.length > 60 ? `${first.slice(0, 57)}…` : first}"${texts.length > 1 ? ` (and ${texts.length - 1} more)` : ''}: ` +
        `vectors from ${importedVectorsName(model)} rank only the queries whose vectors were imported`,
    );
  }
}

/** The error of a collection that has no vectors of this model (imported into another collection, or deleted). */
export function vectorsNotStored(model: string, collection: string): Error {
  return new Error(`the vectors of ${importedVectorsName(model)} are not stored for ${collection}: import them in the dense column's settings (model → Vectors from files…)`);
}

/** Every row scaled to unit length in place (a zero row stays zero), so a dot product is the cosine. */
export function normalizeRows(vectors: VectorMatrix): VectorMatrix {
  for (let r = 0; r < vectors.rows; r++) normalizeInPlace(vectors.data.subarray(r * vectors.dim, (r + 1) * vectors.dim));
  return vectors;
}

/** The embedder of a `vectors/…` model: it embeds nothing (its corpus and query sets are stored). */
export function importedVectorsEmbedder(model: string): Embedder {
  const refuse = async (texts: readonly string[]): Promise<VectorMatrix> => {
    throw new MissingQueryVectorError(model, texts);
  };
  return {
    spec: importedVectorsSpec(model),
    device: 'cpu-lookup',
    dtype: 'fp32',
    embed: refuse,
    embedEach: refuse,
    dispose: async () => undefined,
  };
}
