import { describe, expect, it } from 'vitest';
import { MeasureError, atol, measureNames, parseMeasure, resolveMeasures } from '../../../src/lib/eval/measure-spec.ts';

describe('parseMeasure', () => {
  it('reads cutoffs with atol, sorted increasingly (P.5,7,3 prints P_3 P_5 P_7; 23.4 is 23)', () => {
    expect(measureNames(parseMeasure('P.5,7,3'))).toEqual(['P_3', 'P_5', 'P_7']);
    expect(measureNames(parseMeasure('ndcg_cut.10,20,23.4'))).toEqual(['ndcg_cut_10', 'ndcg_cut_20', 'ndcg_cut_23']);
    expect(measureNames(parseMeasure('recall.20,2000'))).toEqual(['recall_20', 'recall_2000']);
  });

  it("uses trec_eval's default cutoffs", () => {
    expect(measureNames(parseMeasure('P'))).toEqual(['P_5', 'P_10', 'P_15', 'P_20', 'P_30', 'P_100', 'P_200', 'P_500', 'P_1000']);
    expect(measureNames(parseMeasure('success'))).toEqual(['success_1', 'success_5', 'success_10']);
  });

  it('keeps the ndcg gain parameters and prints them in the name', () => {
    const spec = parseMeasure('ndcg.1=3,2=9,4=4.5');
    expect(spec).toEqual({
      family: 'ndcg',
      params: '1=3,2=9,4=4.5',
      gains: [
        { level: 1, gain: 3 },
        { level: 2, gain: 9 },
        { level: 4, gain: 4.5 },
      ],
    });
    expect(measureNames(spec)).toEqual(['ndcg_1=3,2=9,4=4.5']);
    expect(measureNames(parseMeasure('ndcg'))).toEqual(['ndcg']);
  });

  it("accepts BEIR's R_cap@k and Hole@k spellings", () => {
    expect(measureNames(parseMeasure('R_cap@10'))).toEqual(['R_cap_10']);
    expect(measureNames(parseMeasure('Hole.1,10'))).toEqual(['Hole_1', 'Hole_10']);
  });

  it.each(['rbp', 'unj_P', 'prefs_simp.5', 'yaap.1', 'P.0', 'P.5,5', 'P.', 'P.abc', 'map.5', 'ndcg.1=', 'ndcg.x=2', 'ndcg.1=3,'])('refuses %s', (text) => {
    expect(() => parseMeasure(text)).toThrow(MeasureError);
  });

  it('reads fractions with atof, sorted, printed %3.2f; numbers kept in order and appended verbatim', () => {
    expect(measureNames(parseMeasure('iprec_at_recall..10,.20,.25,.75,.50'))).toEqual([
      'iprec_at_recall_0.10', 'iprec_at_recall_0.20', 'iprec_at_recall_0.25', 'iprec_at_recall_0.50', 'iprec_at_recall_0.75',
    ]);
    expect(measureNames(parseMeasure('Rprec_mult.5.0,0.2,0.35'))).toEqual(['Rprec_mult_0.20', 'Rprec_mult_0.35', 'Rprec_mult_5.00']);
    expect(parseMeasure('11pt_avg..25,.5,.75')).toEqual({ family: '11pt_avg', numbers: [0.25, 0.5, 0.75], params: '.25,.5,.75' });
    expect(measureNames(parseMeasure('utility.2,-1,0,0'))).toEqual(['utility_2,-1,0,0']);
    expect(measureNames(parseMeasure('relstring'))).toEqual(['relstring']);
    expect(measureNames(parseMeasure('G.1=2'))).toEqual(['G_1=2']);
    expect(() => parseMeasure('iprec_at_recall.0.5,.5')).toThrow(MeasureError);
  });

  it('reads integers like C atol', () => {
    expect([atol('23.4'), atol(' 7x'), atol('-3'), atol('abc'), atol('')]).toEqual([23, 7, -3, 0, 0]);
  });
});

describe('resolveMeasures', () => {
  it("prints families in trec_eval's order whatever the -m order, the first parameterized occurrence winning", () => {
    const { measures } = resolveMeasures(['ndcg_cut.10', 'P.5', 'map', 'P.10', 'P', 'num_q']);
    expect(measures.flatMap(measureNames)).toEqual(['num_q', 'map', 'P_5', 'ndcg_cut_10']);
  });

  it('expands nicknames to the supported measures and lists the others', () => {
    const official = resolveMeasures(['official']);
    expect(official.measures.map((m) => m.family)).toEqual([
      'runid', 'num_q', 'num_ret', 'num_rel', 'num_rel_ret', 'map', 'gm_map', 'Rprec', 'bpref', 'recip_rank', 'iprec_at_recall', 'P',
    ]);
    expect(official.skipped).toEqual([]);
    expect(resolveMeasures(['all_trec']).skipped).toEqual([]);
    expect(resolveMeasures(['qrels_jg']).skipped).toEqual([]);
    const { measures, skipped } = resolveMeasures(['prefs']);
    expect(measures.map((m) => m.family)).toEqual(['runid', 'num_q', 'prefs_num_prefs_poss', 'prefs_num_prefs_ful', 'prefs_num_prefs_ful_ret', 'prefs_simp', 'prefs_pair', 'prefs_avgjg']);
    expect(skipped).toEqual([]);
    expect(resolveMeasures(['all_prefs']).measures).toHaveLength(16);
  });

  it('lets explicit parameters override a nickname default', () => {
    const { measures } = resolveMeasures(['all_trec', 'P.5,7,3']);
    expect(measures.find((m) => m.family === 'P')).toEqual({ family: 'P', cutoffs: [3, 5, 7] });
  });
});
