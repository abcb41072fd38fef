import { ParseError } from '../data/errors.ts';

/*
 * Import failures as plain data, apart from the importer (importer.ts) so that the page can read them
 * without loading the parsers and decompressors the import worker runs.
 */

/** Why an import failed, as plain data: a `ParseError` keeps its file, line and kind. */
export interface ImportFailure {
  name: string;
  message: string;
  file?: string;
  line?: number;
  kind?: string;
  reason?: string;
}

/**
 * Problems confined to one line (or table row), which `onError: 'skip'` drops and lists in the report;
 * everything else (a damaged archive, an unreadable or empty file, too many bad lines) concerns the file
 * as a whole and fails the import whatever the policy (see `ErrorPolicy`).
 */
const LINE_PROBLEMS: ReadonlySet<string> = new Set(['invalid-utf8', 'invalid-json', 'invalid-field', 'missing-field', 'invalid-columns', 'invalid-number']);

/**
 * Whether importing again with "skip bad lines" can get past this failure: a problem on one line of a file.
 * A missing column named on a table's header line is a problem of the whole file, but is told apart only by
 * trying: such a retry fails again with the same message.
 */
export function canRetrySkipping(failure: ImportFailure): boolean {
  return failure.name === 'ParseError' && (failure.line ?? 0) > 0 && failure.kind !== undefined && LINE_PROBLEMS.has(failure.kind);
}

export function importFailure(error: unknown): ImportFailure {
  if (error instanceof ParseError) {
    return { name: error.name, message: error.message, file: error.file, line: error.line, kind: error.kind, reason: error.reason };
  }
  if (error instanceof Error) return { name: error.name, message: error.message };
  return { name: 'Error', message: String(error) };
}
