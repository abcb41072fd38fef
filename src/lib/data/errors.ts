/** What went wrong, as a stable code the UI and tests can switch on. */
export type ParseErrorKind =
  | 'invalid-utf8'
  | 'invalid-json'
  | 'invalid-field'
  | 'missing-field'
  | 'invalid-columns'
  | 'invalid-number'
  | 'duplicate-id'
  | 'truncated-gzip'
  | 'invalid-gzip'
  | 'io'
  /** The file holds no record at all (zero bytes, only blank lines, only a header, or every line skipped). */
  | 'empty-file'
  /** `onError: 'skip'` gave up: so many lines were bad that the file is probably not what it claims to be. */
  | 'too-many-errors';

/**
 * The only error the data layer throws for bad input. It names the file, the 1-based line (0 when the
 * problem is not tied to one line, e.g. a truncated archive) and what is wrong, so a person can fix it.
 */
export class ParseError extends Error {
  override readonly name = 'ParseError';

  constructor(
    readonly file: string,
    readonly line: number,
    readonly kind: ParseErrorKind,
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super(line > 0 ? `${file}:${line}: ${reason}` : `${file}: ${reason}`, options);
  }
}
