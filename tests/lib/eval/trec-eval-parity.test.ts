/**
 * Parity with trec_eval 9.0.8's own test suite: the qrels/results files of shared/trec_eval and the
 * outputs 9.0.8 printed for them, read in place from shared/trec_eval/9.0.8 (the commands are listed in
 * fixtures.ts REFERENCE_RUNS). EVERY line of every output — all measures of `-m all_trec`, measure
 * parameters, -q -c -M -l -Z, judgment groups (-R qrels_jg), preferences (-R prefs, -R qrels_prefs with
 * `-m all_prefs`) — must be printed byte for byte, in order.
 */
import { createReadStream, readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { mergeJudgmentGroups, readTrecQrels, readTrecQrelsJg, readTrecRun } from '../../../src/lib/data/trec.ts';
import { readTrecPrefs, readTrecQrelsPrefs, type Prefs } from '../../../src/lib/data/trec-prefs.ts';
import { evaluate, type EvalResult } from '../../../src/lib/eval/evaluate.ts';
import { formatTrecEval } from '../../../src/lib/eval/trec-eval-output.ts';
import { parseZScores } from '../../../src/lib/eval/zscores.ts';
import { shared } from '../../shared-dir.ts';
import { REFERENCE_RUNS, outputLines, type ReferenceRun } from './fixtures.ts';

async function readPrefs(reference: ReferenceRun, file: string): Promise<Prefs | undefined> {
  if (reference.relFormat === 'prefs') return readTrecPrefs(createReadStream(file), { file });
  if (reference.relFormat === 'qrels_prefs') return readTrecQrelsPrefs(createReadStream(file), { file });
  return undefined;
}

async function evaluateReference(reference: ReferenceRun): Promise<EvalResult> {
  const qrelsFile = shared('trec_eval', reference.qrels);
  const runFile = shared('trec_eval', reference.run);
  const judgmentGroups = reference.relFormat === 'qrels_jg' ? await readTrecQrelsJg(createReadStream(qrelsFile), { file: qrelsFile }) : undefined;
  const prefs = await readPrefs(reference, qrelsFile);
  const qrels =
    judgmentGroups !== undefined
      ? mergeJudgmentGroups(judgmentGroups)
      : prefs !== undefined
        ? new Map()
        : await readTrecQrels(createReadStream(qrelsFile), { file: qrelsFile });
  const { run, runId } = await readTrecRun(createReadStream(runFile), { file: runFile });
  const zscoresFile = reference.zscores === undefined ? undefined : shared('trec_eval', reference.zscores);
  return evaluate(qrels, run, {
    measures: reference.measures,
    complete: reference.complete,
    maxDocs: reference.maxDocs,
    relevanceLevel: reference.relevanceLevel,
    runId,
    ...(judgmentGroups === undefined ? {} : { judgmentGroups }),
    ...(prefs === undefined ? {} : { prefs }),
    ...(zscoresFile === undefined ? {} : { zscores: parseZScores(readFileSync(zscoresFile, 'utf8'), zscoresFile) }),
  });
}

describe.each(REFERENCE_RUNS)('trec_eval 9.0.8 reference $output', (reference) => {
  let printed: string[];
  let expected: string[];

  beforeAll(async () => {
    const result = await evaluateReference(reference);
    printed = formatTrecEval(result, { perQuery: reference.perQuery }).split('\n').filter((line) => line !== '');
    expected = outputLines(shared('trec_eval', '9.0.8', reference.output));
  });

  it('prints every line of the reference byte for byte, in order', () => {
    const differences = expected.flatMap((line, i) => (printed[i] === line ? [] : [`line ${i + 1}: reference ${JSON.stringify(line)}, ours ${JSON.stringify(printed[i])}`]));
    expect(differences).toEqual([]);
    expect(printed).toHaveLength(expected.length);
    expect(expected.length).toBeGreaterThan(25);
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
    expect(printed.split('\n').filter((line) => line !== '')).toEqual(outputLines(shared('trec_eval', '9.0.8', 'out.test.a')));
  });
});
