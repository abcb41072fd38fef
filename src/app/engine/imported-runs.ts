/**
 * Imported TREC runs (`qid Q0 docid rank score tag`), kept in the `runs` table of IndexedDB so a run column
 * survives a reload. The file is parsed with trec_eval's rules (src/lib/data/trec.ts) when imported — a
 * malformed line is a ParseError naming file and line — and again when a column needs it.
 */
import { textSource } from '../../lib/data/lines.ts';
import { readTrecRun } from '../../lib/data/trec.ts';
import type { PlaygroundDatabase, RunRow } from '../../lib/storage/db.ts';
import { runOfRow } from '../../lib/storage/run-rows.ts';
import type { Run } from '../../lib/types.ts';
import type { RunBackend } from './backends.ts';

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

/** Reads stored runs back (the engine memoizes what it loads). */
export class StoredRuns implements RunBackend {
  constructor(private readonly db: () => PlaygroundDatabase) {}

  async load(collectionId: string, runKey: string): Promise<Run | undefined> {
    const row = await this.db().runs.get(runKey);
    if (row === undefined || row.collectionId !== collectionId) return undefined;
    return runOfRow(row, String(row.retriever['file'] ?? runKey));
  }
}
