/**
 * Running a command of the CLI in the test's own process, with its output collected: the same `runCli` that
 * `src/cli/main.ts` calls with the process's streams (tests/cli/main.test.ts runs that entry itself in a
 * child process, as a user does). Starting Node and compiling the CLI for each invocation took longer than
 * most commands do.
 */
import { Readable } from 'node:stream';
import { runCli } from '../../src/cli/run-cli.ts';

export interface CliResult {
  stdout: string;
  stderr: string;
  /** The exit code `npm run -s cli` would end with. */
  code: number;
}

export async function cli(args: readonly string[], stdin = ''): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, {
    out: (text) => {
      stdout += text;
    },
    err: (text) => {
      stderr += text;
    },
    stdin: () => Readable.from([Buffer.from(stdin)]),
  });
  return { stdout, stderr, code };
}

/** stdout of a command that must succeed (its stderr in the error otherwise). */
export async function cliStdout(args: readonly string[]): Promise<string> {
  const { stdout, stderr, code } = await cli(args);
  if (code !== 0) throw new Error(`cli ${args.join(' ')} exited ${code}: ${stderr}`);
  return stdout;
}
