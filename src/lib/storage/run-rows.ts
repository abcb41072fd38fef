/**
 * A stored run row's ranking, whichever form it holds: packed (evaluations) or TREC text (imported files,
 * and evaluations stored before runs were packed).
 */
import { textSource } from '../data/lines.ts';
import { unpackRun } from '../data/packed-run.ts';
import { formatTrecRun, readTrecRun } from '../data/trec.ts';
import type { Run } from '../types.ts';
import type { RunRow } from './db.ts';

/** The run of a row; `file` names it in a parse error of TREC text. */
export async function runOfRow(row: RunRow, file: string): Promise<Run> {
  if (row.packed !== undefined) return unpackRun(row.packed);
  if (row.trec !== undefined) return (await readTrecRun(textSource(row.trec), { file, gzip: false })).run;
  throw new Error(`the stored run ${file} holds no ranking`);
}

/** The run as TREC text (for export), tagged `tag` when it has to be formatted. */
export function trecTextOfRow(row: RunRow, tag: string): string {
  if (row.trec !== undefined) return row.trec;
  if (row.packed !== undefined) return formatTrecRun(unpackRun(row.packed), tag);
  throw new Error(`the stored run ${row.key} holds no ranking`);
}
