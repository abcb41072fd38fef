import { ParseError } from '../data/errors.ts';
import { fnv1a } from '../data/fingerprint.ts';
import { vectorSettings } from '../dense/embedding-text.ts';
import { importedVectorsModel, importedVectorsSpec, normalizeRows } from '../dense/imported-vectors.ts';
import type { VectorMatrix } from '../dense/vector-matrix.ts';
import { loadQueries, readDocumentBatches } from '../storage/collections.ts';
import type { PlaygroundDatabase } from '../storage/db.ts';
import { corpusContent, putCompleteSets, queriesFingerprint, type EmbeddingSetSpec } from '../storage/embedding-sets.ts';
import type { Query } from '../types.ts';
import { readVectorFile, type VectorFileInput, type VectorRows } from './vector-file.ts';

/**
 * Vector files matched to a collection, and stored as its embedding sets of a `vectors/…` model
 * (dense/imported-vectors.ts), which a dense column then searches like any other model's. Every check runs
 * before anything is written, and both sets are written in one transaction: a bad file stores nothing.
 */

/** At most this many ids are quoted in a message. */
const QUOTED_IDS = 3;

function quoted(ids: readonly string[]): string {
  const shown = ids.slice(0, QUOTED_IDS).map((id) => JSON.stringify(id)).join(', ');
  return ids.length > QUOTED_IDS ? `${shown}, …` : shown;
}

/**
 * The corpus vectors in the collection's document order, scaled to unit length. Throws a `ParseError`
 * naming the file when an id is not a document of the collection, or a document has no vector.
 */
export function alignCorpusVectors(rows: VectorRows, docIds: readonly string[], collection: string): VectorMatrix {
  const rowOf = new Map(rows.ids.map((id, row) => [id, row]));
  const known = new Set(docIds);
  const unknown = rows.ids.filter((id) => !known.has(id));
  if (unknown.length > 0) throw new ParseError(rows.file, 0, 'invalid-field', `${unknown.length} ids are not documents of ${collection}: ${quoted(unknown)}`);
  const missing = docIds.filter((id) => !rowOf.has(id));
  if (missing.length > 0) throw new ParseError(rows.file, 0, 'missing-field', `${missing.length} of the ${docIds.length} documents of ${collection} have no vector: ${quoted(missing)}`);
  const { dim } = rows.vectors;
  const data = new Float32Array(docIds.length * dim);
  docIds.forEach((id, r) => {
    const from = rowOf.get(id)! * dim;
    data.set(rows.vectors.data.subarray(from, from + dim), r * dim);
  });
  return normalizeRows({ rows: docIds.length, dim, data });
}

/** Query vectors by query text (a vector depends on its text), unit length; the first vector of a text wins. */
export interface QueryVectors {
  texts: string[];
  vectors: VectorMatrix;
}

/**
 * The query vectors of a collection's queries, named by their texts. Throws a `ParseError` naming the
 * file when an id is not a query of the collection, or the dimension differs from the corpus vectors'.
 */
export function queryVectorsByText(rows: VectorRows, queries: ReadonlyMap<string, Pick<Query, 'text'>>, collection: string, dim: number): QueryVectors {
  if (rows.vectors.dim !== dim) throw new ParseError(rows.file, 1, 'invalid-field', `query vectors of ${rows.vectors.dim} dimensions, the corpus vectors have ${dim}`);
  const unknown = rows.ids.filter((id) => !queries.has(id));
  if (unknown.length > 0) throw new ParseError(rows.file, 0, 'invalid-field', `${unknown.length} ids are not queries of ${collection}: ${quoted(unknown)}`);
  const texts: string[] = [];
  const seen = new Set<string>();
  const data = new Float32Array(rows.ids.length * dim);
  rows.ids.forEach((id, row) => {
    const text = queries.get(id)!.text;
    if (seen.has(text)) return;
    seen.add(text);
    data.set(rows.vectors.data.subarray(row * dim, (row + 1) * dim), texts.length * dim);
    texts.push(text);
  });
  return { texts, vectors: normalizeRows({ rows: texts.length, dim, data: data.slice(0, texts.length * dim) }) };
}

/** The ids of queries that have no vector in `vectors` (of those given), for messages before an evaluation. */
export function queriesWithoutVectors(queries: readonly Pick<Query, 'id' | 'text'>[], vectors: QueryVectors): string[] {
  const texts = new Set(vectors.texts);
  return queries.filter((query) => !texts.has(query.text)).map((query) => query.id);
}

/** The model id of a pair of files: both fingerprints and the corpus file's name. */
export function importedModelOf(corpus: VectorRows, queries: VectorRows | undefined): string {
  const fingerprint = queries === undefined ? corpus.fingerprint : fnv1a(`${corpus.fingerprint}|${queries.fingerprint}`);
  return importedVectorsModel(fingerprint, corpus.file.split(/[\\/]/).pop() ?? corpus.file);
}

function setSpec(collectionId: string, model: string, part: 'corpus' | 'queries'): EmbeddingSetSpec {
  return { collectionId, part, modelId: model, dtype: 'fp32', encoding: 'f32', settings: vectorSettings(importedVectorsSpec(model), part) };
}

export interface StoredImportedVectors {
  /** The dense model a column names to use them. */
  model: string;
  docs: number;
  queries: number;
  dim: number;
}

/**
 * Checks corpus (and query) vectors against a stored collection and stores them as its sets of their
 * `vectors/…` model. Throws a `ParseError` (nothing stored) when they do not fit the collection.
 */
export async function storeImportedVectors(
  db: PlaygroundDatabase,
  collectionId: string,
  files: { corpus: VectorRows; queries?: VectorRows },
  options: { signal?: AbortSignal } = {},
): Promise<StoredImportedVectors> {
  const collection = await db.collections.get(collectionId);
  if (collection === undefined || collection.status !== 'ready') throw new Error(`collection "${collectionId}" is not stored in this browser`);
  const name = `"${collection.name}"`;
  const docIds: string[] = [];
  for await (const rows of readDocumentBatches(db, collectionId, options.signal === undefined ? {} : { signal: options.signal })) for (const row of rows) docIds.push(row.id);
  const corpus = alignCorpusVectors(files.corpus, docIds, name);
  const queries = files.queries === undefined ? undefined : queryVectorsByText(files.queries, await loadQueries(db, collectionId), name, corpus.dim);
  options.signal?.throwIfAborted();
  const model = importedModelOf(files.corpus, files.queries);
  const sets = [{ spec: setSpec(collectionId, model, 'corpus'), content: corpusContent(collection), ids: docIds, vectors: corpus }];
  if (queries !== undefined) {
    sets.push({ spec: setSpec(collectionId, model, 'queries'), content: { docCount: queries.texts.length, fingerprint: queriesFingerprint(collection) }, ids: queries.texts, vectors: queries.vectors });
  }
  await putCompleteSets(db, sets, name);
  return { model, docs: docIds.length, queries: queries?.texts.length ?? 0, dim: corpus.dim };
}

/** Vector files to import: corpus and query vectors, and the ids files of `.npy` ones. */
export interface VectorFileSet {
  corpus: VectorFileInput;
  corpusIds?: VectorFileInput;
  queries: VectorFileInput;
  queryIds?: VectorFileInput;
}

/** How far an import is: the file being read, its rows read, and the share of both files read (0 … 1, by size). */
export interface VectorImportProgress {
  file: string;
  rows: number;
  share: number;
}

/** Reads the files (reporting progress) and stores them (`storeImportedVectors`): all or nothing. */
export async function importVectorFiles(
  db: PlaygroundDatabase,
  collectionId: string,
  files: VectorFileSet,
  options: { signal?: AbortSignal; onProgress?: (progress: VectorImportProgress) => void } = {},
): Promise<StoredImportedVectors> {
  const { signal, onProgress } = options;
  let rows = 0;
  let share = 0;
  // The files' shares of the whole, by size where known (a big corpus file and a small query file).
  const corpusWeight = files.corpus.size !== undefined && files.queries.size !== undefined && files.corpus.size + files.queries.size > 0 ? files.corpus.size / (files.corpus.size + files.queries.size) : 0.5;
  const read = (file: VectorFileInput, ids: VectorFileInput | undefined, from: number, weight: number) => {
    const report = () => onProgress?.({ file: file.name, rows, share: from + share * weight });
    return readVectorFile({
      file,
      ...(ids === undefined ? {} : { ids }),
      ...(signal === undefined ? {} : { signal }),
      onRows: (n) => {
        rows = n;
        report();
      },
      onShare: (s) => {
        share = s;
        report();
      },
    });
  };
  const corpus = await read(files.corpus, files.corpusIds, 0, corpusWeight);
  rows = 0;
  share = 0;
  const queries = await read(files.queries, files.queryIds, corpusWeight, 1 - corpusWeight);
  return storeImportedVectors(db, collectionId, { corpus, queries }, signal === undefined ? {} : { signal });
}
