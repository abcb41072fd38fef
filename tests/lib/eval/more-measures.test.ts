/**
 * The dashboard's "more measures" equal trec_eval 9.0.8 -c's all rows (shared/trec_eval/9.0.8/out.test.aqc),
 * the preference ones its -R qrels_prefs rows (out.test.qrels_prefs, whose run ranks every judged query).
 */
import { createReadStream } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readTrecQrels, readTrecRun } from '../../../src/lib/data/trec.ts';
import { evaluateMoreMeasure, MORE_MEASURE_GROUPS, moreMeasureCommand } from '../../../src/lib/eval/more-measures.ts';
import { formatValue } from '../../../src/lib/eval/trec-eval-output.ts';
import { shared } from '../../shared-dir.ts';
import { nameOf, outputLines } from './fixtures.ts';

/** Every measure the groups offer. */
const MORE_MEASURES = MORE_MEASURE_GROUPS.flatMap((group) => group.measures);

describe('more measures', () => {
  it('offers every qrels measure of all_trec beyond the counts of queries and the text ones', () => {
    expect(MORE_MEASURES).toEqual(expect.arrayContaining(['bpref', 'gm_map', 'infAP', 'iprec_at_recall', 'Rndcg', 'set_F', 'utility', 'R_cap', 'Hole']));
    for (const excluded of ['runid', 'num_q', 'relstring', 'map_avgjg', 'P_avgjg']) expect(MORE_MEASURES).not.toContain(excluded);
  });

  it("groups them: trec_eval's (yaap included), its preference measures over the qrels, BEIR's and Pyserini's", () => {
    const [trecEval, prefs, others] = MORE_MEASURE_GROUPS.map((group) => group.measures);
    expect(trecEval).toContain('yaap');
    expect(trecEval).not.toContain('R_cap');
    expect(prefs).toHaveLength(14);
    expect(others).toEqual(['R_cap', 'Hole', 'judged']);
    expect(moreMeasureCommand('prefs_pair')).toBe('trec_eval -c -R qrels_prefs -m prefs_pair');
    expect(moreMeasureCommand('bpref')).toBe('trec_eval -c -m bpref');
  });

  it('gives the preference measures of trec_eval -R qrels_prefs (out.test.qrels_prefs)', async () => {
    const qrels = await readTrecQrels(createReadStream(shared('trec_eval', 'qrels.test')), { file: 'qrels.test' });
    const { run } = await readTrecRun(createReadStream(shared('trec_eval', 'results.test')), { file: 'results.test' });
    const expected = new Map(
      outputLines(shared('trec_eval', '9.0.8', 'out.test.qrels_prefs'))
        .filter((line) => line.split('\t')[1] === 'all')
        .map((line) => [nameOf(line), line.split('\t')[2]!.trim()]),
    );
    const prefs = MORE_MEASURE_GROUPS[1]!.measures;
    for (const measure of prefs) {
      const [value] = evaluateMoreMeasure(qrels, run, measure);
      expect(formatValue(value!, value!.value), measure).toBe(expected.get(measure));
    }
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
      if (measure === 'yaap' || measure.startsWith('prefs_')) continue; // yaap: trec_eval's, but in no nickname, so in none of its test outputs (average-precision.test.ts); prefs: below
      for (const value of evaluateMoreMeasure(qrels, run, measure)) {
        expect(formatValue(value, value.value), value.name).toBe(expected.get(value.name));
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(80);
  });
});
