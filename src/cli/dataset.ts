/**
 * `--dataset PATH` for the CLI: whatever the page's "Import from this computer" takes (a BEIR folder or
 * zip, a Pyserini JSON collection as one file or a folder of parts, a folder of .txt/.md files, CSV,
 * parquet, gzipped or not) is read by the page's own code: the files are classified by
 * src/lib/import/classify.ts (through local.ts), planned by `localImportPlan` and parsed by `planRecords`,
 * exactly as the import worker does; only the records land in memory instead of IndexedDB. The Node side
 * (walking a folder, file-backed Blobs, file streams) is in disk-files.ts.
 *
 * A dataset needs documents only. Queries and judgments are optional: `search` works on a plain corpus,
 * and asking for a split the dataset does not judge is a CliError that says so.
 */
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BeirCollection } from '../lib/data/beir.ts';
import type { ErrorPolicy } from '../lib/data/record-stream.ts';
import { validateCollection } from '../lib/data/validate.ts';
import type { ImportPlan } from '../lib/import/import-file.ts';
import { expandInputs, inspectEntries, localImportPlan } from '../lib/import/local.ts';
import { planRecords } from '../lib/import/records.ts';
import type { Inspection } from '../lib/import/classify.ts';
import type { CollectionRecords } from '../lib/storage/collections.ts';
import { documentsOf } from '../lib/data/corpus.ts';
import type { Doc, Qrels, Query } from '../lib/types.ts';
import { CliError } from './cli-error.ts';
import { diskInputs, onDisk } from './disk-files.ts';

export interface LoadDatasetOptions {
  /**
   * Splits whose judgments are read (e.g. `['test']`); default: every split. A split the dataset does not
   * judge is a CliError naming the splits it has.
   */
  splits?: readonly string[];
  /** See `ErrorPolicy`; skipped lines end up in the report. Default `'throw'`. */
  onError?: ErrorPolicy;
  maxSkipped?: number;
  signal?: AbortSignal;
}

/** Where each part of a dataset was read from (paths on disk; zip entries as `<zip path>/<entry>`). */
export interface DatasetFiles {
  corpus: string;
  /** Further files of the same corpus (a folder of Pyserini parts, of text files). */
  corpusParts: string[];
  /** Absent: the dataset has no queries file. */
  queries?: string;
  /** Split → its judgments file, for every split the dataset has (read or not). */
  qrels: Map<string, string>;
}

export interface Dataset extends BeirCollection {
  /** The dataset's path, resolved. */
  path: string;
  /** Its last path component: what `eval` and `search` print as the dataset. */
  name: string;
  files: DatasetFiles;
}

/** The shared ground-truth folder: env `SHARED_DIR`, by default `../shared` beside the checkout. */
export function sharedDir(): string {
  const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
  return resolve(repoRoot, process.env.SHARED_DIR ?? '../shared');
}

/**
 * The folders a bare `--dataset` name (such as `scifact`) is looked up in when it is not a path: the
 * resolved path first, then `SHARED_DIR/beir/<name>`.
 */
function candidates(dataset: string): string[] {
  const direct = resolve(dataset);
  return /^[\w.-]+$/.test(dataset) ? [direct, join(sharedDir(), 'beir', dataset)] : [direct];
}

/** What classify.ts made of the files, as one message: its problems, then what each file was taken for. */
function inspectionProblem(path: string, inspection: Inspection): string {
  const files = inspection.files.map((file) => `${file.path}: ${file.note}`).join('; ');
  return `${path}: ${inspection.problems.join('; ')}${files === '' ? ' (no files)' : ` (files: ${files})`}`;
}

/** The page's import plan for the files at `path`, read from disk. */
async function planFor(dataset: string): Promise<{ path: string; plan: ImportPlan }> {
  for (const path of candidates(dataset)) {
    const inputs = await diskInputs(path);
    if (inputs === undefined) continue;
    const entries = await expandInputs(inputs.inputs);
    const inspection = await inspectEntries(entries);
    if (inspection.plan === undefined) throw new CliError(inspectionProblem(path, inspection));
    const meta = { id: `local/${basename(path)}`, name: basename(path), source: { kind: 'local' as const, detail: path } };
    let plan: ImportPlan;
    try {
      plan = localImportPlan(entries, inspection, meta);
    } catch (error) {
      // An incomplete field mapping: the page asks the person, the CLI can only say which field is missing.
      throw new CliError(`${error instanceof Error ? error.message : String(error)} (in ${path})`);
    }
    return { path, plan: onDisk(plan, inputs) };
  }
  throw new CliError(`dataset folder or file ${resolve(dataset)} not found`);
}

function filesOf(plan: ImportPlan): DatasetFiles {
  return {
    corpus: plan.corpus.name,
    corpusParts: (plan.corpusParts ?? []).map((file) => file.name),
    ...(plan.queries === undefined ? {} : { queries: plan.queries.name }),
    qrels: new Map(plan.qrels.map((file) => [file.split ?? 'test', file.name])),
  };
}

/** The message for a split the dataset does not judge: BEIR's layout keeps its file-naming form. */
function missingSplit(path: string, split: string, qrels: ReadonlyMap<string, string>): string {
  if (qrels.size === 0) return `${path} has no judgments (qrels), so no split "${split}" to evaluate; search works without them`;
  const folders = new Set([...qrels.values()].map((file) => dirname(file)));
  const known = [...qrels.keys()].join(', ');
  const [folder] = folders;
  if (folders.size === 1 && folder !== undefined && basename(folder) === 'qrels') return `${join(folder, `${split}.tsv`)} not found (splits in ${folder}: ${known})`;
  return `${path} has no judgments for split "${split}" (splits: ${known})`;
}

/** The plan with only the asked splits' judgments (the others are not read). */
function withSplits(path: string, plan: ImportPlan, splits: readonly string[] | undefined): ImportPlan {
  if (splits === undefined) return plan;
  const available = filesOf(plan).qrels;
  const missing = splits.find((split) => !available.has(split));
  if (missing !== undefined) throw new CliError(missingSplit(path, missing, available));
  return { ...plan, qrels: splits.map((split) => plan.qrels.find((file) => (file.split ?? 'test') === split)!) };
}

/** The streams an import writes, gathered in memory, with the page's validation report. */
async function collect(records: CollectionRecords): Promise<BeirCollection> {
  const docs: Doc[] = [];
  for await (const item of records.documents) for (const doc of documentsOf(item)) docs.push(doc);
  const queries = new Map<string, Query>();
  if (records.queries !== undefined) for await (const query of records.queries) queries.set(query.id, query);
  const qrels = new Map<string, Qrels>();
  for (const { split, judgments } of records.qrels) {
    const bySplit: Qrels = new Map();
    for await (const { queryId, docId, grade } of judgments) {
      let docGrades = bySplit.get(queryId);
      if (docGrades === undefined) bySplit.set(queryId, (docGrades = new Map()));
      docGrades.set(docId, grade);
    }
    qrels.set(split, bySplit);
  }
  const logs = records.logs?.();
  return { docs, queries, qrels, report: validateCollection({ docs, queries, qrels, ...(logs === undefined ? {} : { logs }) }) };
}

/**
 * Loads a dataset (see the module comment): a path, or a bare name under `SHARED_DIR/beir`. Malformed
 * content throws the parsers' `ParseError` (file:line: reason); a missing dataset, files that make no
 * collection, or a split it does not judge throw `CliError`.
 */
export async function loadDataset(dataset: string, options: LoadDatasetOptions = {}): Promise<Dataset> {
  const found = await planFor(dataset);
  const plan = withSplits(found.path, found.plan, options.splits);
  const { onError, maxSkipped, signal } = options;
  const records = planRecords(plan, { ...(onError === undefined ? {} : { onError }), ...(maxSkipped === undefined ? {} : { maxSkipped }), ...(signal === undefined ? {} : { signal }) });
  const collection = await collect(records);
  return { ...collection, path: found.path, name: basename(found.path), files: filesOf(found.plan) };
}
