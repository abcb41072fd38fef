/**
 * Parity with trec_eval 9.0.8's own test suite (shared/trec_eval: qrels/results files and the
 * expected outputs out.test*, produced by the commands listed in fixtures.ts REFERENCE_RUNS). Every value
 * of a supported measure in each reference file must print identically (4 decimals, integers as
 * integers), and the formatted output must equal the reference lines of those measures, in order.
 */
import { createReadStream } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { readTrecQrels, readTrecRun } from '../../../src/lib/data/trec.ts';
import { evaluate, type EvalResult } from '../../../src/lib/eval/evaluate.ts';
import { formatTrecEval, formatValue } from '../../../src/lib/eval/trec-eval-output.ts';
import { shared } from '../../shared-dir.ts';
import { REFERENCE_RUNS, SUPPORTED_NAME, nameOf, outputLines, type ReferenceRun } from './fixtures.ts';

async function evaluateReference(reference: ReferenceRun): Promise<EvalResult> {
  const qrelsFile = shared('trec_eval', reference.qrels);
  const runFile = shared('trec_eval', reference.run);
  const qrels = await readTrecQrels(createReadStream(qrelsFile), { file: qrelsFile });
  const { run, runId } = await readTrecRun(createReadStream(runFile), { file: runFile });
  return evaluate(qrels, run, {
    measures: reference.measures,
    complete: reference.complete,
    maxDocs: reference.maxDocs,
    relevanceLevel: reference.relevanceLevel,
    runId,
  });
}

/** Our printed value per `name\tqid`, numeric values only. */
function ourValues(result: EvalResult): Map<string, string> {
  const values = new Map<string, string>();
  for (const query of result.queries) {
    if (!query.inRun) continue;
    for (const column of result.columns) {
      if (column.perQuery) values.set(`${column.name}\t${query.qid}`, formatValue(column, query.values[column.name]!));
    }
  }
  for (const column of result.columns) values.set(`${column.name}\tall`, formatValue(column, result.all[column.name]!));
  return values;
}

describe.each(REFERENCE_RUNS)('trec_eval 9.0.8 reference $output', (reference) => {
  let result: EvalResult;
  let referenceLines: string[];

  beforeAll(async () => {
    result = await evaluateReference(reference);
    referenceLines = outputLines(shared('trec_eval', reference.output)).filter((line) => SUPPORTED_NAME.test(nameOf(line)));
  });

  it('gives every supported (measure, qid) value of the reference to 4 decimals', () => {
    const ours = ourValues(result);
    let count = 0;
    const differences: string[] = [];
    for (const line of referenceLines) {
      const [paddedName, qid, value] = line.split('\t') as [string, string, string];
      const name = paddedName.trimEnd();
      if (name === 'runid') continue;
      const mine = ours.get(`${name}\t${qid}`);
      if (mine !== value.trim()) differences.push(`${name} ${qid}: reference ${value}, ours ${mine}`);
      count++;
    }
    console.info(`${reference.output}: ${count} values compared, ${differences.length} differ`);
    expect(differences).toEqual([]);
    expect(count).toBeGreaterThan(0);
  });

  it('prints the reference lines of the supported measures byte for byte, in order', () => {
    const printed = formatTrecEval(result, { perQuery: reference.perQuery }).split('\n').filter((line) => line !== '');
    expect(printed).toEqual(referenceLines);
  });
});

describe('comment lines (qrels.comment.test, results.comment.test)', () => {
  it('are skipped, leaving the same judgments and results as the files without comments', async () => {
    const read = (name: string) => createReadStream(shared('trec_eval', name));
    const [plainQrels, commentedQrels] = await Promise.all([
      readTrecQrels(read('qrels.test'), { file: 'qrels.test' }),
      readTrecQrels(read('qrels.comment.test'), { file: 'qrels.comment.test' }),
    ]);
    const [plainRun, commentedRun] = await Promise.all([
      readTrecRun(read('results.test'), { file: 'results.test' }),
      readTrecRun(read('results.comment.test'), { file: 'results.comment.test' }),
    ]);
    expect(commentedQrels).toEqual(plainQrels);
    expect(commentedRun).toEqual(plainRun);
    const printed = formatTrecEval(evaluate(commentedQrels, commentedRun.run, { measures: ['all_trec'], runId: commentedRun.runId }));
    const expected = outputLines(shared('trec_eval', 'out.test.a')).filter((line) => SUPPORTED_NAME.test(nameOf(line)));
    expect(printed.split('\n').filter((line) => line !== '')).toEqual(expected);
  });
});
