/**
 * `trec-eval -m judged.k` (Pyserini's extension, printed `judged_k`) run with a user's arguments (in-process through runCli), on a small
 * hand-computed collection, and next to trec_eval's own measures, whose lines must not change.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../temp-dir.ts';
import { describe, expect, it } from 'vitest';
import { shared } from '../shared-dir.ts';
import { cli, type CliResult } from './run-cli.ts';
import { outputLines } from '../lib/eval/fixtures.ts';


function trecEval(args: readonly string[]): Promise<CliResult> {
  return cli(['trec-eval', ...args]);
}

const dir = tempDir('judged-');

// q1: a relevant, b judged 0, c judged -1; q2: d; q3: e (not in the run); q4 is ranked but not judged.
const qrelsPath = join(dir, 'qrels');
writeFileSync(qrelsPath, 'q1 0 a 1\nq1 0 b 0\nq1 0 c -1\nq2 0 d 2\nq3 0 e 1\n');
// q1 ranks a x b y c z (x, y, z unjudged): top 5 holds a b c judged → 3/5 = 0.6; top 10 → 3/10 = 0.3.
// q2 ranks w d: top 5 → 1/5 = 0.2; top 10 → 0.1. Lines are out of order on purpose: ranks follow scores.
const runPath = join(dir, 'run');
writeFileSync(
  runPath,
  ['q1 Q0 x 2 4 t', 'q1 Q0 a 1 5 t', 'q1 Q0 b 3 3 t', 'q1 Q0 y 4 2 t', 'q1 Q0 c 5 1 t', 'q1 Q0 z 6 0.5 t', 'q2 Q0 w 1 2 t', 'q2 Q0 d 2 1 t', 'q4 Q0 e 1 1 t']
    .map((line) => `${line}\n`)
    .join(''),
);

const line = (name: string, qid: string, value: string) => `${name.padEnd(22)}\t${qid}\t${value}\n`;

describe('trec-eval -m judged.k', () => {
  it('prints judged_k per query with -q and the mean over the ranked judged queries', async () => {
    const { stdout, stderr, code } = await trecEval(['-q', '-m', 'judged.5,10', qrelsPath, runPath]);
    expect([stderr, code]).toEqual(['', 0]);
    expect(stdout).toBe(
      line('judged_5', 'q1', '0.6000') +
        line('judged_10', 'q1', '0.3000') +
        line('judged_5', 'q2', '0.2000') +
        line('judged_10', 'q2', '0.1000') +
        // (0.6 + 0.2) / 2 and (0.3 + 0.1) / 2
        line('judged_5', 'all', '0.4000') +
        line('judged_10', 'all', '0.2000'),
    );
  });

  it('counts a judged query the run lacks as 0 under -c', async () => {
    const { stdout } = await trecEval(['-c', '-mjudged.10,5', qrelsPath, runPath]);
    // (0.6 + 0.2 + 0) / 3 = 0.2667 and (0.3 + 0.1 + 0) / 3 = 0.1333; cutoffs sorted as trec_eval sorts them
    expect(stdout).toBe(line('judged_5', 'all', '0.2667') + line('judged_10', 'all', '0.1333'));
  });

  it('defaults to judged_10, prints after trec_eval measures, and follows -J', async () => {
    expect((await trecEval(['-m', 'judged', '-m', 'P.5', qrelsPath, runPath])).stdout).toBe(
      // P_5: q1 a → 1/5, q2 d → 1/5
      line('P_5', 'all', '0.2000') + line('judged_10', 'all', '0.2000'),
    );
    // -J keeps a b for q1 (c is judged -1, which -J drops) and d for q2: 2/10 and 1/10
    expect((await trecEval(['-J', '-m', 'judged.10', qrelsPath, runPath])).stdout).toBe(line('judged_10', 'all', '0.1500'));
  });

  it('reports judged_k in --json', async () => {
    const { stdout } = await trecEval(['--json', '-m', 'judged.5', qrelsPath, runPath]);
    expect(JSON.parse(stdout)).toEqual({ measures: ['judged_5'], all: { judged_5: 0.4 } });
  });

  it('refuses a non-positive cutoff with one line', async () => {
    const { stderr, code } = await trecEval(['-m', 'judged.0', qrelsPath, runPath]);
    expect(code).not.toBe(0);
    expect(stderr).toMatch(/judged.0.*cutoffs must be positive/);
  });

  it("leaves trec_eval's own lines byte-identical when judged is added (out.test.aq)", async () => {
    const { stdout } = await trecEval(['-m', 'all_trec', '-q', '-m', 'judged.10', shared('trec_eval', 'qrels.test'), shared('trec_eval', 'results.test')]);
    const lines = stdout.split('\n').filter((l) => l !== '');
    const judged = lines.filter((l) => l.startsWith('judged_10 '));
    expect(lines.filter((l) => !l.startsWith('judged_10 '))).toEqual(outputLines(shared('trec_eval', '9.0.8', 'out.test.aq')));
    // one per query of results.test (301, 302, 303) and the all line
    expect(judged.map((l) => l.split('\t')[1])).toEqual(['301', '302', '303', 'all']);
  });
});
