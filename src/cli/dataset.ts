/**
 * Node side of the BEIR loader: finds the files of a dataset folder and streams them from disk into the
 * pure loader (src/lib/data/beir.ts).
 *
 * Layout (as BEIR's zips unpack): `corpus.jsonl`, `queries.jsonl`, `qrels/<split>.tsv`, each optionally
 * gzipped (`.gz`). When both the plain and the gzipped file exist the plain one is read (no inflating).
 */
import { createReadStream } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadBeir, type BeirCollection, type LoadOptions, type NamedByteSource } from '../lib/data/beir.ts';
import { CliError } from './cli-error.ts';

export interface BeirFiles {
  corpus: string;
  queries: string;
  /** Split → path of its qrels file, splits in name order. */
  qrels: Map<string, string>;
}

export interface LoadBeirDirOptions extends LoadOptions {
  /** Splits to load (e.g. `['test']`); default: every `qrels/*.tsv`. */
  splits?: readonly string[];
}

/** Large reads: fewer chunks means fewer async steps per megabyte. */
const READ_CHUNK = 1 << 20;
const QRELS_FILE = /^(.+)\.tsv(\.gz)?$/;

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

/** The first of `names` present in `dir`, or a CliError naming what is missing. */
async function findOne(dir: string, names: readonly string[]): Promise<string> {
  for (const name of names) {
    const path = join(dir, name);
    if (await isFile(path)) return path;
  }
  throw new CliError(`${names.join(' or ')} not found in ${dir}`);
}

async function findQrels(dir: string, splits: readonly string[] | undefined): Promise<Map<string, string>> {
  const qrelsDir = join(dir, 'qrels');
  let names: string[];
  try {
    names = (await readdir(qrelsDir)).sort();
  } catch {
    throw new CliError(`no qrels folder in ${dir} (expected ${join(qrelsDir, '<split>.tsv')})`);
  }
  const available = new Map<string, string>();
  for (const name of names) {
    const split = QRELS_FILE.exec(name)?.[1];
    const path = join(qrelsDir, name);
    // Plain before gzipped when both exist (names are sorted, so "test.tsv" precedes "test.tsv.gz").
    if (split !== undefined && !available.has(split) && (await isFile(path))) available.set(split, path);
  }
  if (available.size === 0) throw new CliError(`no <split>.tsv file in ${qrelsDir}`);
  if (splits === undefined) return available;
  const chosen = new Map<string, string>();
  for (const split of splits) {
    const path = available.get(split);
    if (path === undefined) {
      const known = [...available.keys()].join(', ');
      throw new CliError(`${join(qrelsDir, `${split}.tsv`)} not found (splits in ${qrelsDir}: ${known})`);
    }
    chosen.set(split, path);
  }
  return chosen;
}

/** Locates the dataset's files; every missing piece is a CliError that names it. */
export async function findBeirFiles(dir: string, splits?: readonly string[]): Promise<BeirFiles> {
  let folder;
  try {
    folder = await stat(dir);
  } catch {
    throw new CliError(`dataset folder ${dir} not found`);
  }
  if (!folder.isDirectory()) throw new CliError(`${dir} is not a folder (expected a BEIR dataset folder)`);
  return {
    corpus: await findOne(dir, ['corpus.jsonl', 'corpus.jsonl.gz']),
    queries: await findOne(dir, ['queries.jsonl', 'queries.jsonl.gz']),
    qrels: await findQrels(dir, splits),
  };
}

async function fileSource(path: string): Promise<NamedByteSource> {
  const { size } = await stat(path);
  return { file: path, size, open: () => createReadStream(path, { highWaterMark: READ_CHUNK }) };
}

/**
 * Loads a BEIR dataset folder: docs, queries, qrels of the chosen splits and the validation report.
 * Malformed content throws `ParseError` (file:line: reason); a missing file throws `CliError`.
 */
export async function loadBeirDir(dir: string, options: LoadBeirDirOptions = {}): Promise<BeirCollection> {
  const files = await findBeirFiles(dir, options.splits);
  const qrels = new Map<string, NamedByteSource>();
  for (const [split, path] of files.qrels) qrels.set(split, await fileSource(path));
  return loadBeir({ corpus: await fileSource(files.corpus), queries: await fileSource(files.queries), qrels }, options);
}

/** The shared ground-truth folder: env `SHARED_DIR`, by default `../shared` beside the checkout. */
export function sharedDir(): string {
  const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
  return resolve(repoRoot, process.env.SHARED_DIR ?? '../shared');
}

/**
 * A `--dataset` value as a folder: the path itself when it is a folder, else — for a bare name such as
 * `scifact` — `SHARED_DIR/beir/<name>` when that is one. Otherwise the path as given (loading then names it).
 */
export async function resolveDatasetDir(dataset: string): Promise<string> {
  const direct = resolve(dataset);
  if (await isDirectory(direct)) return direct;
  if (/^[\w.-]+$/.test(dataset)) {
    const named = join(sharedDir(), 'beir', dataset);
    if (await isDirectory(named)) return named;
  }
  return direct;
}

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}
