import { parseArgs, type ParseArgsConfig } from 'node:util';
import { CliError } from './cli-error.ts';

/** A command's flags as `parseArgs` reads them (with their tokens), or a CliError naming the bad one. */
export function parseFlags<O extends NonNullable<ParseArgsConfig['options']>>(args: string[], options: O) {
  try {
    return parseArgs({ args, options, allowPositionals: false, strict: true, tokens: true });
  } catch (error) {
    throw new CliError(`${error instanceof Error ? error.message : String(error)} (try --help)`);
  }
}
