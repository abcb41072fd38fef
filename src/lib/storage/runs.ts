/**
 * Rows of the `runs` table (db.ts) as runs: an imported TREC run file (`qid Q0 docid rank score tag`), kept so
 * that a run column survives a reload, and the ranking any row holds, packed (evaluations,
 * evaluation-runs.ts) or as TREC text (imported files, and evaluations stored before runs were packed). A
 * file is parsed with trec_eval's rules (src/lib/data/trec.ts) when imported — a malformed line is a
 * ParseError naming file and line — and again when a column needs it.
 */
import { textSource } from '../data/lines.ts';
import { packedRunOf, unpackRun } from '../data/packed-run.ts';
import { formatTrecRun, readTrecRun } from '../data/trec.ts';
import type { Run } from '../types.ts';
import type { PlaygroundDatabase, RunRow } from './db.ts';

/** The `split` of imported rows: they are not tied to a split (a run covers whatever queries it holds). */
export const IMPORTED_SPLIT = 'imported';

export interface ImportedRunSummary {
  runKey: string;
  name: string;
  queries: number;
  hits: number;
  /** Query ids of the run that the collection does not have. */
  unknownQueries: string[];
  runId: string | undefined;
}

/** A run name from a file name: no folders, no extension, at most 60 characters. */
export function runNameOf(fileName: string): string {
  const base = fileName.split(/[\\/]/).pop() ?? fileName;
  const name = base.replace(/\.(txt|run|trec|tsv)(\.gz)?$/i, '').trim();
  return (name === '' ? 'run' : name).slice(0, 60);
}

/**
 * Parses `text` as a TREC run and stores it for the collection. Throws the parser's ParseError on a bad
 * line (nothing is stored then). `knownQueries` lets the summary name the run's queries the collection lacks.
 */
export async function importTrecRun(
  db: PlaygroundDatabase,
  collectionId: string,
  file: { name: string; text: string },
  knownQueries: ReadonlySet<string>,
): Promise<ImportedRunSummary> {
  const parsed = await readTrecRun(textSource(file.text), { file: file.name, gzip: false });
  const name = runNameOf(file.name);
  const runKey = `${collectionId}|${IMPORTED_SPLIT}|${name}|${Date.now().toString(36)}`;
  const row: RunRow = {
    key: runKey,
    collectionId,
    split: IMPORTED_SPLIT,
    retriever: { kind: 'run', name, file: file.name, runId: parsed.runId ?? null },
    trec: file.text,
    createdAt: Date.now(),
    timings: {},
  };
  await db.runs.put(row);
  let hits = 0;
  for (const ranking of parsed.run.values()) hits += ranking.length;
  return {
    runKey,
    name,
    queries: parsed.run.size,
    hits,
    unknownQueries: [...parsed.run.keys()].filter((qid) => !knownQueries.has(qid)),
    runId: parsed.runId,
  };
}

/** The stored row under `key`, if any. */
export function findRunRow(db: PlaygroundDatabase, key: string): Promise<RunRow | undefined> {
  return db.runs.get(key);
}

/** The run of a row; `file` names it in a parse error of TREC text. */
export async function runOfRow(row: RunRow, file: string): Promise<Run> {
  if (row.packed !== undefined) return unpackRun(await packedRunOf(row.packed));
  if (row.trec !== undefined) return (await readTrecRun(textSource(row.trec), { file, gzip: false })).run;
  throw new Error(`the stored run ${file} holds no ranking`);
}

/** The run as TREC text (for export), tagged `tag` when it has to be formatted. */
export async function trecTextOfRow(row: RunRow, tag: string): Promise<string> {
  if (row.trec !== undefined) return row.trec;
  if (row.packed !== undefined) return formatTrecRun(unpackRun(await packedRunOf(row.packed)), tag);
  throw new Error(`the stored run ${row.key} holds no ranking`);
}

/** The run stored under `runKey` for a collection (undefined when there is none, or it is another collection's). */
export async function loadStoredRun(db: PlaygroundDatabase, collectionId: string, runKey: string): Promise<Run | undefined> {
  const row = await findRunRow(db, runKey);
  if (row === undefined || row.collectionId !== collectionId) return undefined;
  return runOfRow(row, String(row.retriever['file'] ?? runKey));
}
