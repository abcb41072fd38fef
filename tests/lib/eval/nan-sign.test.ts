/**
 * NaN printed as trec_eval 9.0.8 prints it on x86-64 (`-nan` for 0/0, `nan` for a NaN read from a zscores
 * file, the sign surviving through z-scores and the running sums). Expected lines: trec_eval 9.0.8 built with
 * its own Makefile on this machine, on the inputs below.
 */
import { describe, expect, it } from 'vitest';
import { evaluate } from '../../../src/lib/eval/evaluate.ts';
import { formatTrecEval } from '../../../src/lib/eval/trec-eval-output.ts';
import { parseZScores } from '../../../src/lib/eval/zscores.ts';
import { qrelsOf, runOf } from './fixtures.ts';

// q1 retrieves only an unjudged document: with -J its ranking is empty and iprec_at_recall is 0/0.
const qrels = qrelsOf({ q1: { d1: 1 }, q2: { d1: 1 } });
const run = runOf({ q1: [['x', 1]], q2: [['d1', 1]] });
const name = 'iprec_at_recall_0.00';

function printed(zscores?: string, judgedDocsOnly = true): string[] {
  const result = evaluate(qrels, run, {
    measures: ['iprec_at_recall.0'],
    judgedDocsOnly,
    ...(zscores === undefined ? {} : { zscores: parseZScores(zscores, 'z') }),
  });
  return formatTrecEval(result, { perQuery: true })
    .trimEnd()
    .split('\n')
    .map((line) => line.split('\t').slice(1).join(' '));
}

describe('NaN sign', () => {
  it('prints 0/0 as -nan, in the query row and the mean', () => {
    expect(printed()).toEqual(['q1   -nan', 'q2 1.0000', 'all   -nan']);
  });

  it("keeps a zscores file's nan or -nan; the value's own NaN wins over the mean's", () => {
    expect(printed(`q1 ${name} 0 1\nq2 ${name} nan 1\n`)).toEqual(['q1   -nan', 'q2    nan', 'all    nan']);
    expect(printed(`q1 ${name} nan 1\nq2 ${name} -nan 1\n`)).toEqual(['q1   -nan', 'q2   -nan', 'all   -nan']);
  });

  it('gives the mean the sign of the last NaN summed', () => {
    expect(printed(`q1 ${name} nan 1\nq2 ${name} -nan 1\n`, false)).toEqual(['q1    nan', 'q2   -nan', 'all   -nan']);
    expect(printed(`q1 ${name} -nan 1\nq2 ${name} nan 1\n`, false)).toEqual(['q1   -nan', 'q2    nan', 'all    nan']);
    expect(printed(`q1 ${name} nan 1\nq2 ${name} 1 nan\n`, false)).toEqual(['q1    nan', 'q2    nan', 'all    nan']);
  });
});
