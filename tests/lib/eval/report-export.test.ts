import { describe, expect, it } from 'vitest';
import { compareWithBaseline } from '../../../src/lib/eval/baseline-comparison.ts';
import { columnFilePart, exportFileName, fileSlug, metricsCsv, metricsJson, type ExportedColumn } from '../../../src/lib/eval/report-export.ts';
import { evaluateRunReport } from '../../../src/lib/eval/run-report.ts';
import { qrelsOf, runOf } from './fixtures.ts';

const qrels = qrelsOf({ q1: { d1: 1, d2: 0 }, q2: { d3: 2 } });
const bm25 = evaluateRunReport(qrels, runOf({ q1: [['d2', 3], ['d1', 2]], q2: [['d3', 1]] }));
// Lacks q2: it must still get a row (0 everywhere), as trec_eval -c averages it in.
const dense = evaluateRunReport(qrels, runOf({ q1: [['d1', 0.9]] }));
const columns: ExportedColumn[] = [
  { position: 1, label: 'BM25 (k1 0.9, b 0.4)', retriever: { kind: 'bm25', bm25: { k1: 0.9, b: 0.4, analyzer: 'english' } }, tag: 'bm25', report: bm25 },
  { position: 2, label: 'Dense: "glove"', retriever: { kind: 'dense' }, tag: 'dense', report: dense },
];
const context = { collection: { id: 'beir/scifact', name: 'SciFact' }, split: 'test' };

/** RFC 4180 fields of one line (quoted fields may hold commas and doubled quotes). */
function csvFields(line: string): string[] {
  const fields: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      fields.push(field);
      field = '';
    } else field += c;
  }
  fields.push(field);
  return fields;
}

describe('file names', () => {
  it('say collection, split and column, in lowercase letters, digits, dots and dashes', () => {
    expect(exportFileName(context, columnFilePart(columns[0]!), 'run')).toBe('beir-scifact-test-1-bm25-k1-0.9-b-0.4.run');
    expect(exportFileName(context, 'metrics', 'csv')).toBe('beir-scifact-test-metrics.csv');
    expect(exportFileName({ collection: { id: 'local/ab12', name: 'x' }, split: 'dev' }, columnFilePart({ position: 3, label: 'Run: my run (v2)' }), 'run')).toBe(
      'local-ab12-dev-3-run-my-run-v2.run',
    );
    expect(fileSlug('Convex (α 0.5, min-max)')).toBe('convex-0.5-min-max');
    expect(fileSlug('Café ∕ ünïcode')).toBe('cafe-unicode');
    expect(fileSlug('***')).toBe('x');
  });
});

describe('metricsCsv', () => {
  it('has a header, each column’s queries in trec_eval order, then its all row — full precision, quoted where needed', () => {
    const lines = metricsCsv(columns).split('\r\n');
    expect(lines.at(-1)).toBe('');
    const rows = lines.slice(0, -1).map(csvFields);
    expect(rows[0]).toEqual(['column', 'query', 'nDCG@10', 'R@100', 'MAP@100', 'MRR@10', 'P@10']);
    expect(rows.map((r) => [r[0], r[1]])).toEqual([
      ['column', 'query'],
      ['1 BM25 (k1 0.9, b 0.4)', 'q1'],
      ['1 BM25 (k1 0.9, b 0.4)', 'q2'],
      ['1 BM25 (k1 0.9, b 0.4)', 'all'],
      ['2 Dense: "glove"', 'q1'],
      ['2 Dense: "glove"', 'q2'],
      ['2 Dense: "glove"', 'all'],
    ]);
    // q1 of BM25: relevant document at rank 2 → MRR@10 0.5, P@10 0.1; nDCG@10 = (1/log2 3) / 1.
    expect(rows[1]!.slice(2).map(Number)).toEqual([1 / Math.log2(3), 1, 0.5, 0.5, 0.1]);
    expect(rows[6]!.slice(2).map(Number)).toEqual([0.5, 0.5, 0.5, 0.5, 0.05]);
    // Dense lacks q2: zeros.
    expect(rows[5]!.slice(2).map(Number)).toEqual([0, 0, 0, 0, 0]);
    expect(rows[3]![2]).toBe(String(bm25.aggregate.ndcg_cut_10));
  });
});

describe('metricsJson', () => {
  it('holds the measures, per-query and aggregate values of each column, and the significance tests (NaN as null)', () => {
    const comparison = compareWithBaseline(bm25, dense, { comparisons: 1 });
    const parsed = JSON.parse(metricsJson(context, columns, { baselinePosition: 1, comparisons: [{ position: 2, comparison }] })) as {
      collection: unknown;
      split: string;
      measures: Array<{ key: string; trecEval: string; maxDocs?: number }>;
      columns: Array<{ position: number; tag: string; queries: number; rankedQueries: number; aggregate: Record<string, number>; perQuery: Record<string, Record<string, number>> }>;
      significance: { baseline: number; comparisons: Array<{ column: number; threshold: number; measures: Array<{ measure: string; tTestP: number | null; fisherP: number }> }> };
    };
    expect(parsed.collection).toEqual(context.collection);
    expect(parsed.split).toBe('test');
    expect(parsed.measures.map((m) => m.trecEval)).toEqual(['ndcg_cut.10', 'recall.100', 'map_cut.100', 'recip_rank', 'P.10']);
    expect(parsed.measures[3]!.maxDocs).toBe(10);
    expect(parsed.columns[1]).toMatchObject({ position: 2, tag: 'dense', queries: 2, rankedQueries: 1 });
    expect(parsed.columns[1]!.perQuery['q2']).toEqual({ ndcg_cut_10: 0, recall_100: 0, map_cut_100: 0, mrr_10: 0, P_10: 0 });
    expect(parsed.columns[0]!.aggregate).toEqual(bm25.aggregate);
    expect(parsed.significance.baseline).toBe(1);
    const tests = parsed.significance.comparisons[0]!;
    expect(tests.column).toBe(2);
    expect(tests.threshold).toBe(0.05);
    const ndcg = tests.measures.find((m) => m.measure === 'ndcg_cut_10')!;
    expect(ndcg.fisherP).toBe(comparison.measures[0]!.fisher.pValue);
    // nDCG@10 per query: BM25 (1/log2 3, 1), dense (1, 0): unequal differences, a finite t-test p.
    expect(ndcg.tTestP).toBe(comparison.measures[0]!.tTest.pValue);
    expect(Number.isFinite(ndcg.tTestP)).toBe(true);
    const identical = compareWithBaseline(bm25, bm25);
    const same = JSON.parse(metricsJson(context, columns.slice(0, 1), { baselinePosition: 1, comparisons: [{ position: 1, comparison: identical }] })) as typeof parsed;
    expect(same.significance.comparisons[0]!.measures[0]!.tTestP).toBeNull();
  });

  it('leaves significance out when there is none', () => {
    expect(JSON.parse(metricsJson(context, columns))).not.toHaveProperty('significance');
  });
});
