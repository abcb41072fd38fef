/**
 * The `trec-eval` command, run with a user's arguments (in-process through runCli; main.test.ts runs the real entry), against trec_eval
 * 9.0.8's expected outputs in shared/trec_eval: the lines of the supported measures must be
 * byte-identical and in the same order.
 */
import { describe, expect, it } from 'vitest';
import { parseTrecEvalArgs } from '../../src/cli/trec-eval.ts';
import { shared } from '../shared-dir.ts';
import { cli, type CliResult } from './run-cli.ts';
import { REFERENCE_RUNS, outputLines } from '../lib/eval/fixtures.ts';


function trecEval(args: readonly string[]): Promise<CliResult> {
  return cli(['trec-eval', ...args]);
}

describe.each(REFERENCE_RUNS)('trec-eval CLI vs trec_eval 9.0.8 $output', (reference) => {
  it(`prints every line of 9.0.8/${reference.output} byte for byte`, async () => {
    const zscores = reference.zscores === undefined ? [] : ['-Z', shared('trec_eval', reference.zscores)];
    const args = [...reference.cliArgs, ...zscores, shared('trec_eval', reference.qrels), shared('trec_eval', reference.run)];
    const { stdout, stderr, code } = await trecEval(args);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const expected = outputLines(shared('trec_eval', '9.0.8', reference.output));
    expect(stdout).toBe(expected.map((line) => `${line}\n`).join(''));
  });
});

describe('trec-eval CLI', () => {
  const qrels = () => shared('trec_eval', 'qrels.test');
  const results = () => shared('trec_eval', 'results.test');

  it('prints one JSON object with --json', async () => {
    const { stdout, code } = await trecEval(['--json', '-q', '-m', 'P.5', '-mrunid', qrels(), results()]);
    expect(code).toBe(0);
    const json = JSON.parse(stdout) as { runid: string; measures: string[]; queries: Record<string, Record<string, number>>; all: Record<string, number> };
    expect(json.runid).toBe('STANDARD');
    expect(json.measures).toEqual(['P_5']);
    expect(Object.keys(json.queries)).toEqual(['301', '302', '303']);
    expect(json.all.P_5!.toFixed(4)).toBe('0.2667'); // out.test.a: P_5 all 0.2667
  });

  it.each([
    [['-m', 'prefs_simp'], /measure 'prefs_simp' needs preference judgments/],
    [['-m', 'bogus'], /unsupported measure 'bogus'/],
    [['-R', 'qrels_prefs', '-m', 'map'], /measure 'map' cannot be computed from preference judgments/],
    [['-m', 'P.0'], /cutoffs must be positive/],
    [['-D', '1'], /option -D is not supported/],
    [['-R', 'prefs', '-m', 'prefs'], /qrels.test:1: expected 5 fields "qid jg jsg docid rel_level", found 4/],
    [['-R', 'qrels_jg', '-m', 'map'], /measure 'map' needs ordinary qrels/],
    [['-m', 'P_avgjg'], /measure 'P_avgjg' needs judgment groups/],
    [['-R', 'bogus'], /illegal rel_info format 'bogus'/],
    [['-T', 'bogus'], /illegal retrieval results format 'bogus'/],
    [['-Z', '/nonexistent/z'], /cannot read zscores file/],
  ])('fails with one line for %j', async (extra, message) => {
    const { stderr, code } = await trecEval([...extra, qrels(), results()]);
    expect(code).not.toBe(0);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(message);
  });

  it('fails with one line for a missing or malformed file', async () => {
    const missing = await trecEval([qrels(), '/nonexistent/run']);
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toMatch(/results.*\/nonexistent\/run/);
    const malformed = await trecEval([results(), results()]);
    expect(malformed.code).not.toBe(0);
    expect(malformed.stderr).toMatch(/results.test:1: expected 4 fields/);
  });
});

describe('parseTrecEvalArgs', () => {
  it("accepts trec_eval's flag forms", () => {
    const parsed = parseTrecEvalArgs(['-qc', '-mP.5', '-m', 'map', '-M100', '-l', '2', 'qrels', '--measure=recall.10', 'run', '-n']);
    expect(parsed).toMatchObject({
      perQuery: true,
      complete: true,
      summary: false,
      maxDocs: 100,
      relevanceLevel: 2,
      measures: ['P.5', 'map', 'recall.10'],
      qrelsPath: 'qrels',
      runPath: 'run',
    });
    expect(parseTrecEvalArgs(['-l2', '-M', '5', 'a', '-']).runPath).toBe('-');
  });

  it.each([[['-l', 'x', 'a', 'b']], [['-M-1', 'a', 'b']], [['a']], [['-m']], [['--bogus', 'a', 'b']]])('refuses %j', (args) => {
    expect(() => parseTrecEvalArgs(args)).toThrow();
  });
});
