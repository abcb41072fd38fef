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

/** A flag's number, checked (a bad one is a CliError naming the flag and what it expects); undefined when absent. */
export function numberOption(name: string, text: string | undefined, check: (n: number) => boolean, what: string): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (text.trim() === '' || !Number.isFinite(value) || !check(value)) throw new CliError(`--${name} ${text}: expected ${what}`);
  return value;
}

export const positiveInteger = (n: number) => Number.isInteger(n) && n > 0;
