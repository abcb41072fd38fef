import type { Readable } from 'node:stream';

/**
 * Where a command writes its output and reads its standard input: the process's own streams when run from
 * the shell, strings when the tests run a command in the test's own process (starting Node and compiling
 * the CLI for each of a few hundred invocations cost more than most of the commands themselves).
 */
export interface CliIo {
  out(text: string): void;
  err(text: string): void;
  stdin(): Readable;
}

export const processIo: CliIo = {
  out: (text) => void process.stdout.write(text),
  err: (text) => void process.stderr.write(text),
  stdin: () => process.stdin,
};
