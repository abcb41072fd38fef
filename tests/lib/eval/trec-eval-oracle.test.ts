/**
 * Differential test against a real trec_eval 9.0.8 binary, on random inputs the reference outputs do not
 * cover: qrels with negative grades and ties in scores, judgment groups, preferences with several groups
 * and sub-groups, with -q -c -M -l -J -N and measure parameters. The whole output must be identical.
 *
 * Needs the binary (build it from usnistgov/trec_eval at tag v9.0.8 with its Makefile) named by
 * TREC_EVAL_908=/path/to/trec_eval; without it the suite is skipped with a printed notice.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { tempDir } from '../../temp-dir.ts';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readTrecPrefs, readTrecQrelsPrefs } from '../../../src/lib/data/trec-prefs.ts';
import { mergeJudgmentGroups, readTrecQrels, readTrecQrelsJg, readTrecRun } from '../../../src/lib/data/trec.ts';
import { evaluate, type EvaluateOptions } from '../../../src/lib/eval/evaluate.ts';
import { SeededRandom } from '../../../src/lib/eval/seeded-random.ts';
import { formatTrecEval } from '../../../src/lib/eval/trec-eval-output.ts';
import { bytesOf } from './fixtures.ts';

const binary = process.env.TREC_EVAL_908;
if (!binary) console.log('[trec-eval-oracle] skipped: set TREC_EVAL_908 to a trec_eval 9.0.8 binary to run it');

type Format = 'qrels' | 'qrels_jg' | 'prefs' | 'qrels_prefs';

interface Case {
  judgments: string;
  run: string;
  args: string[];
  options: EvaluateOptions;
}

const QRELS_MEASURES = ['P.1,2,3', 'ndcg.1=3,2=9', 'success.1,2', 'yaap', 'Rndcg.0=1,1=2', 'relative_P.1,4', 'iprec_at_recall..33,.5,1',
  'Rprec_mult.0.5,1.5', 'utility.3,-2,1,0.5', '11pt_avg..1,.9', 'set_F.0.5', 'relstring.4', 'G.1=2,2=-1', 'map_cut.2,4'];

function randomCase(random: SeededRandom, format: Format): Case {
  const pick = <T>(values: readonly T[]): T => values[Math.floor(random.nextFloat() * values.length)]!;
  const chance = (p: number) => random.nextFloat() < p;
  const judgments: string[] = [];
  const run: string[] = [];
  for (const qid of ['q1', 'q2', 'q10', 'q3'].slice(0, 1 + Math.floor(random.nextFloat() * 4))) {
    const docs = 1 + Math.floor(random.nextFloat() * 20);
    const groups = format === 'qrels' ? 1 : 1 + Math.floor(random.nextFloat() * 3);
    for (let g = 0; g < groups; g++) {
      // One hidden level per document and group keeps the sub-groups of a group consistent, as trec_eval requires.
      const truth = Array.from({ length: docs }, () => pick([0, 0, 1, 1, 2, 3, format === 'qrels' || format === 'qrels_jg' ? -1 : 0.5]));
      const subGroups = format === 'prefs' && chance(0.5) ? 1 + Math.floor(random.nextFloat() * 3) : 1;
      for (let s = 0; s < subGroups; s++) {
        for (let d = 0; d < docs; d++) {
          if (!chance(0.6)) continue;
          judgments.push(format === 'prefs' ? `${qid} g${g} s${s} d${d} ${truth[d]}` : `${qid} ${format === 'qrels' ? 0 : `g${g}`} d${d} ${truth[d]}`);
        }
      }
    }
    if (chance(0.85)) for (let d = 0; d < docs + 5; d++) if (chance(0.6)) run.push(`${qid} Q0 d${d} 1 ${pick([1, 2, 2, 3, 4.5, 5, 6])} tag`);
  }
  const options: EvaluateOptions = { complete: chance(0.3) };
  const args = ['-q', '-R', format, ...(options.complete ? ['-c'] : [])];
  if (chance(0.3)) {
    options.maxDocs = 1 + Math.floor(random.nextFloat() * 8);
    args.push(`-M${options.maxDocs}`);
  }
  let measures: string[];
  if (format === 'prefs' || format === 'qrels_prefs') {
    measures = ['all_prefs'];
  } else if (format === 'qrels_jg') {
    measures = ['qrels_jg', pick(['P_avgjg.1,2,3', 'Rprec_mult_avgjg.0.5,2'])];
  } else {
    measures = ['all_trec', pick(QRELS_MEASURES)];
    if (chance(0.3)) options.relevanceLevel = pick([0, 2, 3]);
    if (chance(0.2)) options.judgedDocsOnly = true;
    if (chance(0.3)) options.numDocsInCollection = 50 + Math.floor(random.nextFloat() * 100);
    if (options.relevanceLevel !== undefined) args.push(`-l${options.relevanceLevel}`);
    if (options.judgedDocsOnly) args.push('-J');
    if (options.numDocsInCollection !== undefined) args.push('-N', String(options.numDocsInCollection));
  }
  options.measures = measures;
  for (const measure of measures) args.push('-m', measure);
  return { judgments: judgments.map((line) => `${line}\n`).join(''), run: run.map((line) => `${line}\n`).join(''), args, options };
}

async function ours(format: Format, c: Case): Promise<string> {
  const judgments = bytesOf(c.judgments);
  const { run, runId } = await readTrecRun(bytesOf(c.run), { file: 'run' });
  const options: EvaluateOptions = { ...c.options, runId };
  let qrels = new Map<string, Map<string, number>>();
  if (format === 'qrels') qrels = await readTrecQrels(judgments, { file: 'qrels' });
  if (format === 'qrels_jg') {
    options.judgmentGroups = await readTrecQrelsJg(judgments, { file: 'qrels' });
    qrels = mergeJudgmentGroups(options.judgmentGroups);
  }
  if (format === 'prefs') options.prefs = await readTrecPrefs(judgments, { file: 'prefs' });
  if (format === 'qrels_prefs') options.prefs = await readTrecQrelsPrefs(judgments, { file: 'prefs' });
  return formatTrecEval(evaluate(qrels, run, options), { perQuery: true });
}

describe.skipIf(!binary).each(['qrels', 'qrels_jg', 'prefs', 'qrels_prefs'] as const)('trec_eval 9.0.8 binary vs evaluate, -R %s', (format) => {
  it('prints the same output on 150 random cases', async () => {
    const dir = tempDir('trec-eval-oracle-');
    const random = new SeededRandom(format.length * 7919);
    let compared = 0;
    for (let i = 0; i < 150; i++) {
      const c = randomCase(random, format);
      if (c.judgments === '' || c.run === '') continue;
      writeFileSync(join(dir, 'judgments'), c.judgments);
      writeFileSync(join(dir, 'run'), c.run);
      let expected: string;
      try {
        expected = execFileSync(binary!, [...c.args, join(dir, 'judgments'), join(dir, 'run')], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
      } catch {
        continue; // trec_eval found no query with both results and judgments
      }
      expect(await ours(format, c), `case ${i}: trec_eval ${c.args.join(' ')}\n${c.judgments}\n${c.run}`).toBe(expected);
      compared++;
    }
    expect(compared).toBeGreaterThan(100);
  });
});
