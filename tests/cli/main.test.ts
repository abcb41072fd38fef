/**
 * The command line's entry (`src/cli/main.ts`) as a user runs it, in a child process: the process's own
 * streams, exit codes and standard input. The other CLI tests run the same commands in-process through
 * `runCli` (run-cli.ts); these check what only a real process shows.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { repoRoot, shared } from '../shared-dir.ts';
import { outputLines, REFERENCE_RUNS } from '../lib/eval/fixtures.ts';
import { cli } from './run-cli.ts';

const execFileAsync = promisify(execFile);
const tsx = join(repoRoot, 'node_modules', '.bin', 'tsx');

async function mainProcess(args: readonly string[], stdin = ''): Promise<{ stdout: string; stderr: string; code: number }> {
  const child = execFileAsync(tsx, ['src/cli/main.ts', ...args], { cwd: repoRoot, maxBuffer: 1 << 26 });
  child.child.stdin?.end(stdin);
  try {
    const { stdout, stderr } = await child;
    return { stdout, stderr, code: 0 };
  } catch (error) {
    const failed = error as { stdout: string; stderr: string; code: number };
    return { stdout: failed.stdout, stderr: failed.stderr, code: failed.code };
  }
}

describe('src/cli/main.ts in a child process', () => {
  it('prints the usage with --help and exits 0', async () => {
    const { stdout, code } = await mainProcess(['--help']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^usage: npm run -s cli -- <command>/);
  });

  it('reports a bad command line in one stderr line with exit code 2, as runCli does', async () => {
    const spawned = await mainProcess(['trec-eval', '-m', 'bogus', shared('trec_eval', 'qrels.test'), shared('trec_eval', 'results.test')]);
    expect(spawned.code).toBe(2);
    expect(spawned.stdout).toBe('');
    expect(spawned.stderr).toMatch(/^error: unsupported measure 'bogus' \(supported: runid, [^\n]*\)\n$/);
    expect(await cli(['trec-eval', '-m', 'bogus', shared('trec_eval', 'qrels.test'), shared('trec_eval', 'results.test')])).toEqual(spawned);
  });

  it('trec-eval writes 9.0.8/out.test.a byte for byte to its stdout', async () => {
    const reference = REFERENCE_RUNS.find((r) => r.output === 'out.test.a')!;
    const { stdout, stderr, code } = await mainProcess(['trec-eval', ...reference.cliArgs, shared('trec_eval', reference.qrels), shared('trec_eval', reference.run)]);
    expect({ stderr, code }).toEqual({ stderr: '', code: 0 });
    expect(stdout).toBe(outputLines(shared('trec_eval', '9.0.8', reference.output)).map((line) => `${line}\n`).join(''));
  });

  it('reads standard input: analyze lines, and a run file given as -', async () => {
    const analyzed = await mainProcess(['analyze', '--analyzer', 'english'], 'The running dogs\n\nof war\n');
    expect(analyzed).toEqual({ stdout: 'run dog\n\nwar\n', stderr: '', code: 0 });
    const run = 'q1 Q0 a 1 2 t\nq1 Q0 b 2 1 t\n';
    const fromStdin = await mainProcess(['trec-eval', '-m', 'P.1', shared('trec_eval', 'qrels.test'), '-'], run);
    expect(fromStdin.code).toBe(2);
    expect(fromStdin.stderr).toMatch(/^error: no queries with both results and relevance info\n$/);
  });
});
