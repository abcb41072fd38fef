import type { Comparison } from './baseline-comparison.ts';
import { REPORT_MEASURES, type RunReport } from './run-report.ts';

/**
 * The dashboard's downloads as text: metrics per query and overall as CSV (RFC 4180) and JSON, and file
 * names that say which collection, split and column they hold. Values are written at full precision (the
 * screen rounds to trec_eval's 4 decimals); the `all` row is trec_eval's (-c: the mean over every judged
 * query, a query the run does not rank counting 0).
 */

export interface ExportedColumn {
  /** 1-based position of the column in the view. */
  position: number;
  label: string;
  /** The retriever configuration (plain JSON). */
  retriever: unknown;
  /** The tag of its TREC run. */
  tag: string;
  report: RunReport;
}

export interface ExportContext {
  collection: { id: string; name: string };
  split: string;
}

/** The label of the aggregate row, as trec_eval -q prints it. */
const ALL_QUERIES = 'all';

/** Lowercase letters, digits, `.` and `-` only (`BM25 (k1 0.9, b 0.4)` → `bm25-k1-0.9-b-0.4`). */
export function fileSlug(text: string): string {
  const slug = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9.]+/g, '-')
    .replace(/^[-.]+|[-.]+$/g, '');
  return slug === '' ? 'x' : slug;
}

/** e.g. `beir-scifact-test-1-bm25-k1-0.9-b-0.4.run`, `beir-scifact-test-metrics.csv`. */
export function exportFileName(context: ExportContext, what: string, extension: string): string {
  return `${[context.collection.id, context.split, what].map(fileSlug).join('-')}.${extension}`;
}

/** The name of a column's part of a file name: its position and label. */
export function columnFilePart(column: Pick<ExportedColumn, 'position' | 'label'>): string {
  return `${column.position}-${column.label}`;
}

function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

function csvRow(fields: readonly string[]): string {
  return `${fields.map(csvField).join(',')}\r\n`;
}

/**
 * `column,query,nDCG@10,R@100,MAP@100,MRR@10,P@10`: each column's queries in trec_eval's order, then its
 * `all` row. Columns are named `<position> <label>`.
 */
export function metricsCsv(columns: readonly ExportedColumn[]): string {
  let text = csvRow(['column', 'query', ...REPORT_MEASURES.map((m) => m.label)]);
  for (const column of columns) {
    const name = `${column.position} ${column.label}`;
    const { report } = column;
    report.qids.forEach((qid, i) => {
      text += csvRow([name, qid, ...REPORT_MEASURES.map((m) => String(report.perQuery[m.key][i]!))]);
    });
    text += csvRow([name, ALL_QUERIES, ...REPORT_MEASURES.map((m) => String(report.aggregate[m.key]))]);
  }
  return text;
}

export interface SignificanceExport {
  baselinePosition: number;
  /** Each non-baseline column's comparison with the baseline. */
  comparisons: ReadonlyArray<{ position: number; comparison: Comparison }>;
}

/** Everything the dashboard shows about effectiveness, as one JSON document. */
export function metricsJson(context: ExportContext, columns: readonly ExportedColumn[], significance?: SignificanceExport): string {
  const measures = REPORT_MEASURES.map((m) => ({
    key: m.key,
    label: m.label,
    trecEval: m.trecEval,
    ...(m.maxDocs === undefined ? {} : { maxDocs: m.maxDocs }),
  }));
  const document = {
    collection: context.collection,
    split: context.split,
    evaluation: 'trec_eval 9.0.8 semantics with -c: every judged query counts, unranked ones as 0',
    measures,
    columns: columns.map((column) => ({
      position: column.position,
      label: column.label,
      tag: column.tag,
      retriever: column.retriever,
      queries: column.report.qids.length,
      rankedQueries: column.report.rankedQueries,
      aggregate: column.report.aggregate,
      perQuery: Object.fromEntries(
        column.report.qids.map((qid, i) => [qid, Object.fromEntries(REPORT_MEASURES.map((m) => [m.key, column.report.perQuery[m.key][i]!]))]),
      ),
    })),
    ...(significance === undefined
      ? {}
      : {
          significance: {
            baseline: significance.baselinePosition,
            tests: ['paired Student t-test (two-sided)', 'Fisher randomization test (two-sided)'],
            comparisons: significance.comparisons.map(({ position, comparison }) => ({
              column: position,
              alpha: comparison.alpha,
              correction: comparison.correction,
              threshold: comparison.threshold,
              permutations: comparison.permutations,
              seed: comparison.seed,
              measures: comparison.measures.map((m) => ({
                measure: m.measure,
                delta: m.delta,
                tTestP: nullIfNaN(m.tTest.pValue),
                tTestSignificant: m.tTest.significant,
                fisherP: nullIfNaN(m.fisher.pValue),
                fisherSignificant: m.fisher.significant,
              })),
            })),
          },
        }),
  };
  return `${JSON.stringify(document, null, 2)}\n`;
}

/** JSON has no NaN: an undefined p-value (identical systems) is written as null. */
function nullIfNaN(value: number): number | null {
  return Number.isNaN(value) ? null : value;
}
