import { createReadStream } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readTrecQrels, readTrecRun } from '../../../src/lib/data/trec.ts';
import { assertSameQueries, bestColumns, evaluateRunReport, REPORT_MEASURES, type RunReport } from '../../../src/lib/eval/run-report.ts';
import type { Qrels } from '../../../src/lib/types.ts';
import { readQrels } from '../../../src/lib/data/qrels.ts';
import { shared } from '../../shared-dir.ts';
import { nameOf, outputLines, qrelsOf, runOf } from './fixtures.ts';

/** BEIR's qrels TSV (header line, then `query-id corpus-id score`) through the data layer's parser. */
function readBeirQrels(path: string): Promise<Qrels> {
  return readQrels(createReadStream(path), { file: path });
}

describe('evaluateRunReport', () => {
  it('prints REFERENCE.md’s SciFact BM25 flat row (trec_eval 9.0.8 -c): nDCG@10 0.6789, R@100 0.9253, MAP@100 0.6398, P@10 0.0883', async () => {
    const qrels = await readBeirQrels(shared('beir', 'scifact', 'qrels', 'test.tsv'));
    const file = shared('reference', 'scifact-test.lucene-bm25-flat.top100.run');
    const { run } = await readTrecRun(createReadStream(file), { file });
    const report = evaluateRunReport(qrels, run);
    expect(report.qids).toHaveLength(300);
    const shown = Object.fromEntries(REPORT_MEASURES.filter((m) => m.key !== 'mrr_10').map((m) => [m.key, report.aggregate[m.key].toFixed(4)]));
    expect(shown).toEqual({ ndcg_cut_10: '0.6789', recall_100: '0.9253', map_cut_100: '0.6398', P_10: '0.0883' });
    // MRR@10 ≤ the uncut MRR of the same file (0.6504, scifact-reference.test.ts): a cut can only lose ranks.
    expect(report.aggregate.mrr_10).toBeLessThanOrEqual(0.6504 + 5e-5);
    expect(report.aggregate.mrr_10).toBeGreaterThan(0.6);
  });

  it('equals trec_eval 9.0.8 `-q -c` (out.test.aqc): per-query rows, the all row, and 0 for query 302 the run lacks', async () => {
    const dir = (name: string) => shared('trec_eval', name);
    const qrels = await readTrecQrels(createReadStream(dir('qrels.test')), { file: 'qrels.test' });
    const { run } = await readTrecRun(createReadStream(dir('results.trunc')), { file: 'results.trunc' });
    const report = evaluateRunReport(qrels, run);
    expect(report.qids).toEqual(['301', '302', '303']);
    expect(report.rankedQueries).toBe(2);
    const expected = new Map<string, string>();
    for (const line of outputLines(dir('out.test.aqc'))) {
      const [, qid, value] = line.split('\t') as [string, string, string];
      expected.set(`${nameOf(line)}|${qid.trim()}`, value);
    }
    for (const measure of REPORT_MEASURES.filter((m) => m.maxDocs === undefined)) {
      expect(report.aggregate[measure.key].toFixed(4), `${measure.trecEvalName} all`).toBe(expected.get(`${measure.trecEvalName}|all`));
      report.qids.forEach((qid, i) => {
        const value = report.perQuery[measure.key][i]!.toFixed(4);
        // trec_eval -c prints no row for a query absent from the run; it averages it in as 0.
        expect(value, `${measure.trecEvalName} ${qid}`).toBe(expected.get(`${measure.trecEvalName}|${qid}`) ?? '0.0000');
      });
    }
  });

  it('computes MRR@10 on the ranking cut to 10 (trec_eval -M 10), after trec_eval’s re-sort by score', () => {
    const qrels = qrelsOf({ a: { rel: 1 }, b: { rel: 1 }, c: { rel: 1 } });
    const filler = (n: number, top: number, prefix = 'd') => Array.from({ length: n }, (_, i): [string, number] => [`${prefix}${i}`, top - i]);
    const run = runOf({
      // first relevant document at rank 11: 0 at cut 10 (uncut it would be 1/11)
      a: [...filler(10, 100), ['rel', 50]],
      // rank 3
      b: [...filler(2, 100), ['rel', 98.5], ...filler(5, 90, 'e')],
      // listed first but scored lowest: trec_eval ranks it 4th
      c: [['rel', 1], ...filler(3, 100)],
    });
    const report = evaluateRunReport(qrels, run);
    expect(report.perQuery.mrr_10).toEqual([0, 1 / 3, 1 / 4]);
    expect(report.aggregate.mrr_10).toBeCloseTo((1 / 3 + 1 / 4) / 3, 12);
  });

  it('gives every report on the same judgments the same query list, whatever queries the runs hold', () => {
    const judgments = fc.dictionary(fc.constantFrom('q1', 'q2', 'q3', 'q10', 'q4'), fc.dictionary(fc.constantFrom('d1', 'd2', 'd3'), fc.integer({ min: 0, max: 2 })), { minKeys: 1 });
    const ranking = fc.uniqueArray(fc.constantFrom('d1', 'd2', 'd3', 'd4'), { maxLength: 4 });
    const runs = fc.dictionary(fc.constantFrom('q1', 'q2', 'q3', 'q10', 'q9'), ranking);
    fc.assert(
      fc.property(judgments, runs, runs, (judged, left, right) => {
        const qrels = qrelsOf(judged);
        const toRun = (r: Record<string, string[]>) => runOf(Object.fromEntries(Object.entries(r).map(([q, ids]) => [q, ids.map((id, i): [string, number] => [id, 10 - i])])));
        const a = evaluateRunReport(qrels, toRun(left));
        const b = evaluateRunReport(qrels, toRun(right));
        expect(a.qids).toEqual(b.qids);
        expect(new Set(a.qids)).toEqual(new Set(qrels.keys()));
        assertSameQueries(a, b);
        for (const m of REPORT_MEASURES) {
          expect(a.perQuery[m.key]).toHaveLength(a.qids.length);
          // A judged query a run lacks scores 0 (trec_eval -c).
          a.qids.forEach((qid, i) => {
            if (!left[qid]?.length) expect(a.perQuery[m.key][i]).toBe(0);
          });
          const mean = a.perQuery[m.key].reduce((s, x) => s + x, 0) / a.qids.length;
          expect(a.aggregate[m.key]).toBeCloseTo(mean, 12);
        }
      }),
    );
  });
});

function reportWith(values: Partial<Record<string, number>>): RunReport {
  const aggregate = { ndcg_cut_10: 0, recall_100: 0, map_cut_100: 0, mrr_10: 0, P_10: 0, ...values } as RunReport['aggregate'];
  const perQuery = Object.fromEntries(Object.entries(aggregate).map(([k, v]) => [k, [v]])) as RunReport['perQuery'];
  return { qids: ['q'], perQuery, aggregate, rankedQueries: 1 };
}

describe('bestColumns', () => {
  it('marks the highest value of each measure, and every column equal to it as shown (4 decimals)', () => {
    const best = bestColumns([
      reportWith({ ndcg_cut_10: 0.5, recall_100: 0.91234 }),
      reportWith({ ndcg_cut_10: 0.6, recall_100: 0.91236 }),
      undefined,
      reportWith({ ndcg_cut_10: 0.4, recall_100: 0.9123 }),
    ]);
    expect(best.ndcg_cut_10).toEqual([1]);
    // 0.91234 and 0.91236 both show as 0.9123 / 0.9124: only the second is best.
    expect(best.recall_100).toEqual([1]);
    // All zero: a tie of every present column.
    expect(best.P_10).toEqual([0, 1, 3]);
  });

  it('marks nothing with fewer than two evaluated columns', () => {
    expect(bestColumns([reportWith({ ndcg_cut_10: 0.5 }), undefined]).ndcg_cut_10).toEqual([]);
    expect(bestColumns([]).ndcg_cut_10).toEqual([]);
  });

  it('treats values that round to the same 4 decimals as a tie', () => {
    const best = bestColumns([reportWith({ map_cut_100: 0.63981 }), reportWith({ map_cut_100: 0.63979 })]);
    expect(best.map_cut_100).toEqual([0, 1]);
  });
});

describe('assertSameQueries', () => {
  it('refuses reports of different judgments', () => {
    const a = reportWith({});
    expect(() => assertSameQueries(a, { ...a, qids: ['other'] })).toThrow(RangeError);
    expect(() => assertSameQueries(a, { ...a })).not.toThrow();
  });
});
