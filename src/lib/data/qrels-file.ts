import type { Qrels } from '../types.ts';
import { ParseError } from './errors.ts';
import { readLines } from './lines.ts';
import { createQrelsLog, readQrels } from './qrels.ts';
import { formatBeirQrels, formatTrecQrels } from './qrels-writers.ts';
import { readTrecQrels } from './trec.ts';

/**
 * A judgments file of either format the playground writes (qrels-writers.ts), told apart by its first
 * data line: three tab-separated fields (or BEIR's header) is BEIR TSV, four fields separated by white
 * space is TREC qrels (`qid 0 docid grade`). Each is then read by its own reader, so the rules (duplicates,
 * comments, grades) are those of the import of a whole collection.
 */

export type QrelsFormat = 'trec' | 'beir';

export const QRELS_FORMATS: Record<QrelsFormat, { label: string; extension: string }> = {
  trec: { label: 'TREC qrels', extension: 'qrels' },
  beir: { label: 'BEIR TSV', extension: 'tsv' },
};

/** The format of a qrels file from its first non-blank, non-comment line; undefined when it is neither. */
export function qrelsFormatOf(firstLine: string): QrelsFormat | undefined {
  const line = firstLine.replace(/\r$/, '');
  const tabs = line.split('\t');
  if (tabs.length === 3) return 'beir';
  const fields = line.trim().split(/[ \t\v\f\r]+/);
  if (fields.length === 4) return 'trec';
  return undefined;
}

export interface ReadQrelsFile {
  format: QrelsFormat;
  qrels: Qrels;
  judgments: number;
  /** BEIR files: (query, document) pairs judged again on a later line (the first grade was kept). */
  duplicates: number;
}

async function firstDataLine(bytes: Uint8Array, file: string): Promise<string | undefined> {
  for await (const line of readLines(sourceOf(bytes), { file })) {
    const text = line.text.trim();
    if (text.length > 0 && !text.startsWith('#')) return line.text.replace(/^\uFEFF/, '');
  }
  return undefined;
}

async function* sourceOf(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  yield bytes;
}

/** Reads a TREC or BEIR qrels file (its bytes); throws ParseError naming the file and line. */
export async function readQrelsFile(bytes: Uint8Array, file: string): Promise<ReadQrelsFile> {
  const first = await firstDataLine(bytes, file);
  if (first === undefined) throw new ParseError(file, 0, 'empty-file', 'the file holds no judgments');
  const format = qrelsFormatOf(first);
  if (format === undefined) {
    throw new ParseError(file, 1, 'invalid-columns', 'neither TREC qrels ("qid 0 docid grade") nor BEIR TSV ("query-id<TAB>corpus-id<TAB>score")');
  }
  let qrels: Qrels;
  let duplicates = 0;
  if (format === 'trec') {
    qrels = await readTrecQrels(sourceOf(bytes), { file });
  } else {
    const log = createQrelsLog();
    qrels = await readQrels(sourceOf(bytes), { file, log });
    duplicates = log.duplicates.length;
  }
  let judgments = 0;
  for (const docs of qrels.values()) judgments += docs.size;
  if (judgments === 0) throw new ParseError(file, 0, 'empty-file', 'the file holds no judgments');
  return { format, qrels, judgments, duplicates };
}

/** Qrels as the text of a file in `format`. */
export function formatQrelsFile(qrels: Qrels, format: QrelsFormat): string {
  return format === 'trec' ? formatTrecQrels(qrels) : formatBeirQrels(qrels);
}
