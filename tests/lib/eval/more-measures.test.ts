/** The dashboard's "more measures" equal trec_eval 9.0.8 -c's all rows (shared/trec_eval/9.0.8/out.test.aqc). */
import { createReadStream } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readTrecQrels, readTrecRun } from '../../../src/lib/data/trec.ts';
import { evaluateMoreMeasure, MORE_MEASURES } from '../../../src/lib/eval/more-measures.ts';
import { formatValue } from '../../../src/lib/eval/trec-eval-output.ts';
import { shared } from '../../shared-dir.ts';
import { nameOf, outputLines } from './fixtures.ts';

describe('more measures', () => {
  it('offers every qrels measure of all_trec beyond the counts of queries and the text ones', () => {
    expect(MORE_MEASURES).toEqual(expect.arrayContaining(['bpref', 'gm_map', 'infAP', 'iprec_at_recall', 'Rndcg', 'set_F', 'utility', 'R_cap', 'Hole']));
    for (const excluded of ['runid', 'num_q', 'relstring', 'map_avgjg', 'P_avgjg', 'prefs_simp']) expect(MORE_MEASURES).not.toContain(excluded);
  });

  it('gives the all rows of trec_eval -c for every one of them (out.test.aqc)', async () => {
    const qrels = await readTrecQrels(createReadStream(shared('trec_eval', 'qrels.test')), { file: 'qrels.test' });
    const { run } = await readTrecRun(createReadStream(shared('trec_eval', 'results.trunc')), { file: 'results.trunc' });
    const expected = new Map(
      outputLines(shared('trec_eval', '9.0.8', 'out.test.aqc'))
        .filter((line) => line.split('\t')[1] === 'all')
        .map((line) => [nameOf(line), line.split('\t')[2]!.trim()]),
    );
    let compared = 0;
    for (const measure of MORE_MEASURES) {
      if (measure === 'R_cap' || measure === 'Hole' || measure === 'judged') continue; // BEIR's and Pyserini's, not trec_eval's
      if (measure === 'yaap') continue; // trec_eval's, but in no nickname, so in none of its test outputs (average-precision.test.ts)
      for (const value of evaluateMoreMeasure(qrels, run, measure)) {
        expect(formatValue(value, value.value), value.name).toBe(expected.get(value.name));
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(80);
  });
});
