import type { Doc, Qrels, Query } from '../types.ts';
import type { ParseError, ParseErrorKind } from './errors.ts';
import type { DuplicateJudgment, QrelsLog } from './qrels.ts';
import type { DuplicateId, ParseLog } from './record-stream.ts';

/**
 * A validation report for a loaded BEIR collection: what the parsers dropped (bad lines, duplicates) and
 * what does not fit together (judgments of unknown documents or queries, queries nobody judged, judged
 * queries without a relevant document, empty documents). Plain data: it survives structured clone (a
 * worker → page message, IndexedDB), which a ParseError instance would not.
 */

/** A skipped line, as plain data. */
export interface LineIssue {
  file: string;
  line: number;
  kind: ParseErrorKind;
  reason: string;
}

export interface JudgedPair {
  queryId: string;
  docId: string;
  grade: number;
}

export interface GradeCount {
  grade: number;
  pairs: number;
}

export interface CorpusReport {
  file: string;
  docs: number;
  /** Ids of documents whose title and text are both empty or whitespace: they can never be retrieved. */
  emptyDocs: string[];
  skipped: LineIssue[];
  duplicates: DuplicateId[];
}

export interface QueriesReport {
  file: string;
  queries: number;
  /** Ids of queries whose text is empty or whitespace. */
  emptyQueries: string[];
  /** Queries with no judgment in any of the loaded splits (in BEIR each split judges its own queries). */
  unjudged: string[];
  skipped: LineIssue[];
  duplicates: DuplicateId[];
}

export interface SplitReport {
  split: string;
  file: string;
  header: string | null;
  /** Judged (query, document) pairs. */
  pairs: number;
  /** Queries with at least one judgment. */
  queries: number;
  /** Pairs with grade > 0. */
  relevantPairs: number;
  /** Pairs per grade, ascending grade. */
  grades: GradeCount[];
  /** Judged queries that exist in the queries file and have a relevant document: the ones that count. */
  evaluableQueries: number;
  /** Judgments naming a document id that is not in the corpus. */
  unknownDocs: JudgedPair[];
  /** Judged query ids that are not in the queries file. */
  unknownQueries: string[];
  /** Judged queries whose judgments are all grade ≤ 0 (recall and nDCG are undefined for them). */
  withoutRelevant: string[];
  skipped: LineIssue[];
  duplicates: DuplicateJudgment[];
}

export interface ValidationReport {
  corpus: CorpusReport;
  queries: QueriesReport;
  splits: SplitReport[];
}

export interface CollectionToValidate {
  docs: readonly Doc[];
  queries: ReadonlyMap<string, Query>;
  /** Split name → judgments. */
  qrels: ReadonlyMap<string, Qrels>;
  /** The parsers' logs, when the collection was parsed (for skipped lines, duplicates, file names). */
  logs?: {
    corpus?: ParseLog;
    queries?: ParseLog;
    qrels?: ReadonlyMap<string, QrelsLog>;
  };
}

function lineIssue(error: ParseError): LineIssue {
  return { file: error.file, line: error.line, kind: error.kind, reason: error.reason };
}

function isBlank(text: string): boolean {
  return text.trim().length === 0;
}

function validateSplit(split: string, qrels: Qrels, docIds: ReadonlySet<string>, queries: ReadonlyMap<string, Query>, log: QrelsLog | undefined): SplitReport {
  const grades = new Map<number, number>();
  const unknownDocs: JudgedPair[] = [];
  const unknownQueries: string[] = [];
  const withoutRelevant: string[] = [];
  let pairs = 0;
  let relevantPairs = 0;
  let evaluableQueries = 0;
  for (const [queryId, judged] of qrels) {
    let relevant = 0;
    for (const [docId, grade] of judged) {
      pairs += 1;
      grades.set(grade, (grades.get(grade) ?? 0) + 1);
      if (grade > 0) relevant += 1;
      if (!docIds.has(docId)) unknownDocs.push({ queryId, docId, grade });
    }
    relevantPairs += relevant;
    const known = queries.has(queryId);
    if (!known) unknownQueries.push(queryId);
    if (relevant === 0) withoutRelevant.push(queryId);
    if (known && relevant > 0) evaluableQueries += 1;
  }
  return {
    split,
    file: log?.file ?? `qrels/${split}.tsv`,
    header: log?.header ?? null,
    pairs,
    queries: qrels.size,
    relevantPairs,
    grades: [...grades].sort(([a], [b]) => a - b).map(([grade, count]) => ({ grade, pairs: count })),
    evaluableQueries,
    unknownDocs,
    unknownQueries,
    withoutRelevant,
    skipped: (log?.skipped ?? []).map(lineIssue),
    duplicates: [...(log?.duplicates ?? [])],
  };
}

/** Cross-checks docs, queries and every split's qrels. Costs one set of doc ids (the strings are shared). */
export function validateCollection(collection: CollectionToValidate): ValidationReport {
  const { docs, queries, qrels, logs = {} } = collection;
  const docIds = new Set<string>();
  const emptyDocs: string[] = [];
  for (const doc of docs) {
    docIds.add(doc.id);
    if (isBlank(doc.title) && isBlank(doc.text)) emptyDocs.push(doc.id);
  }
  const judged = new Set<string>();
  for (const split of qrels.values()) for (const queryId of split.keys()) judged.add(queryId);
  const emptyQueries: string[] = [];
  const unjudged: string[] = [];
  for (const query of queries.values()) {
    if (isBlank(query.text)) emptyQueries.push(query.id);
    if (!judged.has(query.id)) unjudged.push(query.id);
  }
  return {
    corpus: {
      file: logs.corpus?.file ?? 'corpus.jsonl',
      docs: docs.length,
      emptyDocs,
      skipped: (logs.corpus?.skipped ?? []).map(lineIssue),
      duplicates: [...(logs.corpus?.duplicates ?? [])],
    },
    queries: {
      file: logs.queries?.file ?? 'queries.jsonl',
      queries: queries.size,
      emptyQueries,
      unjudged,
      skipped: (logs.queries?.skipped ?? []).map(lineIssue),
      duplicates: [...(logs.queries?.duplicates ?? [])],
    },
    splits: [...qrels].map(([split, judgments]) => validateSplit(split, judgments, docIds, queries, logs.qrels?.get(split))),
  };
}

/** How many problems the report lists (0 = clean), for a badge. Unjudged queries are not counted. */
export function countIssues(report: ValidationReport): number {
  const { corpus, queries, splits } = report;
  let count = corpus.emptyDocs.length + corpus.skipped.length + corpus.duplicates.length;
  count += queries.emptyQueries.length + queries.skipped.length + queries.duplicates.length;
  for (const split of splits) {
    count += split.unknownDocs.length + split.unknownQueries.length + split.withoutRelevant.length;
    count += split.skipped.length + split.duplicates.length;
  }
  return count;
}

// ---- Text rendering ----

/** 5183 → "5,183", the same in every locale. */
function formatCount(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${formatCount(n)} ${n === 1 ? one : many}`;
}

function quoteIds(ids: readonly string[]): string[] {
  return ids.map((id) => JSON.stringify(id));
}

/** One indented line per example, up to `max`, then "… and N more". */
function examples(items: readonly string[], max: number): string[] {
  const shown = items.slice(0, max).map((item) => `    ${item}`);
  if (items.length > max) shown.push(`    … and ${formatCount(items.length - max)} more`);
  return shown;
}

function section(title: string, items: readonly string[], max: number): string[] {
  return items.length === 0 ? [] : [`  ${title}:`, ...examples(items, max)];
}

function skippedLines(skipped: readonly LineIssue[], max: number): string[] {
  const lines = skipped.map((issue) => `${issue.file}:${issue.line}: ${issue.reason}`);
  return section(`${plural(skipped.length, 'bad line')} skipped`, lines, max);
}

function duplicateIds(duplicates: readonly DuplicateId[], max: number): string[] {
  const lines = duplicates.map((d) =>
    d.firstFile === undefined
      ? `${JSON.stringify(d.id)} on line ${d.line} (first on line ${d.firstLine})`
      : `${JSON.stringify(d.id)} on line ${d.line} of ${d.file} (first on line ${d.firstLine} of ${d.firstFile})`,
  );
  return section(`${plural(duplicates.length, 'duplicate id')} (the first occurrence was kept)`, lines, max);
}

function splitLines(split: SplitReport, max: number): string[] {
  const grades = split.grades.map((g) => `${g.grade}: ${formatCount(g.pairs)}`).join(', ');
  const duplicates = split.duplicates.map((d) => {
    const conflict = d.grade === d.firstGrade ? '' : `, grade ${d.grade} vs ${d.firstGrade}`;
    return `${JSON.stringify(d.queryId)} / ${JSON.stringify(d.docId)} on line ${d.line} (first on line ${d.firstLine}${conflict})`;
  });
  return [
    `${split.file} (split "${split.split}"): ${plural(split.pairs, 'judgment')} of ${plural(split.queries, 'query', 'queries')}, ${formatCount(split.relevantPairs)} relevant; grades ${grades || 'none'}; ${plural(split.evaluableQueries, 'query', 'queries')} can be evaluated`,
    ...skippedLines(split.skipped, max),
    ...section(`${plural(split.duplicates.length, 'repeated judgment')} (the first was kept)`, duplicates, max),
    ...section(
      `${plural(split.unknownDocs.length, 'judgment')} of documents missing from the corpus`,
      split.unknownDocs.map((p) => `query ${JSON.stringify(p.queryId)} → ${JSON.stringify(p.docId)} (grade ${p.grade})`),
      max,
    ),
    ...section(`${plural(split.unknownQueries.length, 'judged query', 'judged queries')} missing from the queries file`, quoteIds(split.unknownQueries), max),
    ...section(`${plural(split.withoutRelevant.length, 'judged query', 'judged queries')} without a relevant document`, quoteIds(split.withoutRelevant), max),
  ];
}

/** The report as readable lines (indented details, at most `maxExamples` per list). */
export function reportLines(report: ValidationReport, options: { maxExamples?: number } = {}): string[] {
  const max = options.maxExamples ?? 10;
  const { corpus, queries, splits } = report;
  const unjudged = splits.length === 0 ? '' : `, ${formatCount(queries.unjudged.length)} without judgments in ${splits.map((s) => s.split).join(' / ')}`;
  return [
    `${corpus.file}: ${plural(corpus.docs, 'document')}`,
    ...skippedLines(corpus.skipped, max),
    ...duplicateIds(corpus.duplicates, max),
    ...section(`${plural(corpus.emptyDocs.length, 'empty document')} (no title, no text)`, quoteIds(corpus.emptyDocs), max),
    `${queries.file}: ${plural(queries.queries, 'query', 'queries')}${unjudged}`,
    ...skippedLines(queries.skipped, max),
    ...duplicateIds(queries.duplicates, max),
    ...section(`${plural(queries.emptyQueries.length, 'empty query', 'empty queries')}`, quoteIds(queries.emptyQueries), max),
    ...splits.flatMap((split) => splitLines(split, max)),
  ];
}
