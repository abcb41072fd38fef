/**
 * `--vectors` and `--query-vectors`: dense vectors made elsewhere (Pyserini's `embeddings.jsonl`, Parquet, or
 * `.npy` with an ids file), read by the page's own reader (src/lib/import/vector-file.ts), matched to the
 * dataset as the page matches them (vector-import.ts), and ranked as the dense model `vectors/…`. A `.npy`
 * takes its ids from `--ids`/`--query-ids`, or from the file of the same name ending in `.ids.txt` beside it.
 */
import { createReadStream, existsSync } from 'node:fs';
import { ParseError } from '../lib/data/errors.ts';
import { vectorFileFormat, readVectorFile, type VectorFileInput, type VectorRows } from '../lib/import/vector-file.ts';
import { alignCorpusVectors, importedModelOf, queriesWithoutVectors, queryVectorsByText, type QueryVectors } from '../lib/import/vector-import.ts';
import type { VectorMatrix } from '../lib/dense/vector-matrix.ts';
import type { Doc, Query } from '../lib/types.ts';
import { CliError } from './cli-error.ts';

/** The file flags as given. */
export interface VectorFileFlags {
  vectors: string;
  queryVectors?: string;
  ids?: string;
  queryIds?: string;
}

/** Vectors from files, matched to a dataset: what NodeSearch ranks the model `model` with. */
export interface ImportedVectors {
  model: string;
  /** Corpus vectors in the dataset's document order, unit length. */
  corpus: VectorMatrix;
  queries: QueryVectors;
  /** The query file's name, for messages. */
  queryFile: string;
}

/** The vector file flags of `eval` and `tune`. */
export const VECTOR_OPTIONS = {
  vectors: { type: 'string' },
  'query-vectors': { type: 'string' },
  ids: { type: 'string' },
  'query-ids': { type: 'string' },
} as const;

export const VECTOR_USAGE = `  --vectors <file>          dense: corpus vectors made elsewhere (Pyserini embeddings.jsonl, .parquet with id
                            and embedding columns, or .npy), used instead of a model; needs --query-vectors
  --query-vectors <file>    the queries' vectors, same formats (every evaluated query needs one)
  --ids <file> --query-ids <file>  .npy only: ids one per line (default: <name>.ids.txt beside the .npy)`;

/** The flags, checked: `--query-vectors` goes with `--vectors`, ids only for `.npy`. */
export function vectorFileFlags(values: { vectors?: string | undefined; 'query-vectors'?: string | undefined; ids?: string | undefined; 'query-ids'?: string | undefined }, retriever: string): VectorFileFlags | undefined {
  const { vectors } = values;
  const queryVectors = values['query-vectors'];
  if (vectors === undefined) {
    if (queryVectors !== undefined || values.ids !== undefined || values['query-ids'] !== undefined) throw new CliError('--query-vectors, --ids and --query-ids go with --vectors');
    return undefined;
  }
  if (queryVectors === undefined) throw new CliError('--vectors needs --query-vectors: the queries must be in the same vector space');
  if (!['dense', 'ledr', 'rrf', 'convex', 'wsum'].includes(retriever)) throw new CliError(`--vectors applies to the dense retrievers (dense, ledr, rrf, convex, and wsum's --fuse), not ${retriever}`);
  for (const file of [vectors, queryVectors]) if (vectorFileFormat(file) === undefined) throw new CliError(`${file}: expected a .jsonl (Pyserini), .parquet or .npy file`);
  return { vectors, queryVectors, ...(values.ids === undefined ? {} : { ids: values.ids }), ...(values['query-ids'] === undefined ? {} : { queryIds: values['query-ids'] }) };
}

function diskInput(path: string): VectorFileInput {
  if (!existsSync(path)) throw new CliError(`${path}: no such file`);
  return { name: path, open: async () => createReadStream(path) };
}

/** The ids file of a `.npy`: the flag's, or `<name>.ids.txt` beside it. */
function idsInput(path: string, flag: string | undefined, flagName: string): VectorFileInput | undefined {
  if (vectorFileFormat(path) !== 'npy') {
    if (flag !== undefined) throw new CliError(`${flagName} applies to .npy files only`);
    return undefined;
  }
  const ids = flag ?? `${path.replace(/\.npy$/i, '')}.ids.txt`;
  if (!existsSync(ids)) throw new CliError(`${path}: a .npy needs its ids, one per line: give ${flagName} <file> or put them in ${ids}`);
  return diskInput(ids);
}

async function readFlagged(path: string, ids: string | undefined, flagName: string): Promise<VectorRows> {
  const idFile = idsInput(path, ids, flagName);
  return readVectorFile({ file: diskInput(path), ...(idFile === undefined ? {} : { ids: idFile }) });
}

/** A ParseError (a bad file, or one that does not fit the dataset) as the CLI's one-line error. */
function asCliError(error: unknown): never {
  if (error instanceof ParseError) throw new CliError(error.message);
  throw error;
}

/**
 * Reads and matches the files to a dataset. Every query to rank must have a vector: otherwise the error
 * says how many lack one and names the first few.
 */
export async function loadImportedVectors(flags: VectorFileFlags, dataset: { name: string; docs: readonly Doc[]; queries: ReadonlyMap<string, Query> }, ranked: readonly Query[]): Promise<ImportedVectors> {
  try {
    const corpusRows = await readFlagged(flags.vectors, flags.ids, '--ids');
    const queryRows = await readFlagged(flags.queryVectors!, flags.queryIds, '--query-ids');
    const corpus = alignCorpusVectors(corpusRows, dataset.docs.map((doc) => doc.id), dataset.name);
    const queries = queryVectorsByText(queryRows, dataset.queries, dataset.name, corpus.dim);
    const missing = queriesWithoutVectors(ranked, queries);
    if (missing.length > 0) {
      const shown = missing.slice(0, 3).join(', ');
      throw new CliError(`${flags.queryVectors}: ${missing.length} of the ${ranked.length} queries to rank have no vector (${shown}${missing.length > 3 ? ', …' : ''})`);
    }
    return { model: importedModelOf(corpusRows, queryRows), corpus, queries, queryFile: flags.queryVectors! };
  } catch (error) {
    return asCliError(error);
  }
}
