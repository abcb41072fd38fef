/** A problem with the command line or its files, reported as one line with this exit code. */
export class CliError extends Error {
  override readonly name = 'CliError';

  constructor(
    message: string,
    readonly exitCode = 2,
  ) {
    super(message);
  }
}
