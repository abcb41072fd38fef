import { describe, expect, it } from 'vitest';
import type { Doc, Qrels, Query } from '../../../src/lib/types.ts';
import { ParseError } from '../../../src/lib/data/errors.ts';
import { createQrelsLog } from '../../../src/lib/data/qrels.ts';
import { createParseLog } from '../../../src/lib/data/record-stream.ts';
import { countIssues, reportLines, validateCollection } from '../../../src/lib/data/validate.ts';

const doc = (id: string, title = 't', text = 'x'): Doc => ({ id, title, text });
const queryMap = (...queries: Query[]) => new Map(queries.map((q) => [q.id, q]));
const judged = (entries: Record<string, Record<string, number>>): Qrels =>
  new Map(Object.entries(entries).map(([q, docs]) => [q, new Map(Object.entries(docs))]));

describe('validateCollection', () => {
  const docs = [doc('d1'), doc('d2', '', ' \n'), doc('d3', 'only a title', '')];
  const queries = queryMap({ id: 'q1', text: 'one' }, { id: 'q2', text: '  ' }, { id: 'q3', text: 'three' }, { id: 'q4', text: 'four' });
  const qrels = new Map([
    ['test', judged({ q1: { d1: 2, d9: 1 }, q2: { d1: 0, d3: -1 }, q7: { d1: 1 } })],
    ['dev', judged({ q3: { d3: 1 } })],
  ]);

  it('counts each split and finds unknown documents and queries, and queries without relevant documents', () => {
    const report = validateCollection({ docs, queries, qrels });
    expect(report.splits[0]).toEqual({
      split: 'test',
      file: 'qrels/test.tsv',
      header: null,
      pairs: 5,
      queries: 3,
      relevantPairs: 3,
      grades: [
        { grade: -1, pairs: 1 },
        { grade: 0, pairs: 1 },
        { grade: 1, pairs: 2 },
        { grade: 2, pairs: 1 },
      ],
      evaluableQueries: 1,
      unknownDocs: [{ queryId: 'q1', docId: 'd9', grade: 1 }],
      unknownQueries: ['q7'],
      withoutRelevant: ['q2'],
      skipped: [],
      duplicates: [],
    });
    expect(report.splits[1]).toMatchObject({ split: 'dev', pairs: 1, queries: 1, evaluableQueries: 1, unknownDocs: [], unknownQueries: [], withoutRelevant: [] });
  });

  it('finds empty documents (no title and no text), empty queries, and queries judged in no split', () => {
    const report = validateCollection({ docs, queries, qrels });
    expect(report.corpus).toEqual({ file: 'corpus.jsonl', docs: 3, emptyDocs: ['d2'], skipped: [], duplicates: [] });
    expect(report.queries).toEqual({ file: 'queries.jsonl', queries: 4, emptyQueries: ['q2'], unjudged: ['q4'], skipped: [], duplicates: [] });
    // d2, q2 (empty), d9, q7, q2 (no relevant document); q4 being unjudged is normal in BEIR.
    expect(countIssues(report)).toBe(5);
  });

  it('carries the parse logs: file names, skipped lines as plain data, duplicates, qrels header', () => {
    const corpusLog = createParseLog();
    corpusLog.file = 'data/corpus.jsonl.gz';
    corpusLog.skipped.push(new ParseError('data/corpus.jsonl.gz', 4, 'missing-field', '"_id" is missing'));
    corpusLog.duplicates.push({ file: 'data/corpus.jsonl.gz', id: 'd1', line: 9, firstLine: 1 });
    const testLog = createQrelsLog();
    testLog.file = 'data/qrels/test.tsv';
    testLog.header = 'query-id\tcorpus-id\tscore';
    testLog.duplicates.push({ file: 'data/qrels/test.tsv', queryId: 'q1', docId: 'd1', line: 5, grade: 1, firstLine: 2, firstGrade: 2 });
    const report = validateCollection({ docs, queries, qrels, logs: { corpus: corpusLog, qrels: new Map([['test', testLog]]) } });
    expect(report.corpus.file).toBe('data/corpus.jsonl.gz');
    expect(report.corpus.skipped).toEqual([{ file: 'data/corpus.jsonl.gz', line: 4, kind: 'missing-field', reason: '"_id" is missing' }]);
    expect(report.corpus.skipped[0]).not.toBeInstanceOf(Error);
    expect(report.corpus.duplicates).toHaveLength(1);
    expect(report.splits[0]).toMatchObject({ file: 'data/qrels/test.tsv', header: 'query-id\tcorpus-id\tscore' });
    // Plain data: a structured clone (worker message, IndexedDB) keeps every field.
    expect(structuredClone(report)).toEqual(report);
  });

  it('renders readable lines with examples capped', () => {
    const corpusLog = createParseLog();
    corpusLog.file = 'corpus.jsonl';
    corpusLog.duplicates.push({ file: 'corpus.jsonl', id: 'd1', line: 9, firstLine: 1 });
    const many = judged({ q1: Object.fromEntries(Array.from({ length: 4 }, (_, i) => [`x${i}`, 1])) });
    const report = validateCollection({ docs, queries, qrels: new Map([['test', many]]), logs: { corpus: corpusLog } });
    expect(reportLines(report, { maxExamples: 2 })).toEqual([
      'corpus.jsonl: 3 documents',
      '  1 duplicate id (the first occurrence was kept):',
      '    "d1" on line 9 (first on line 1)',
      '  1 empty document (no title, no text):',
      '    "d2"',
      'queries.jsonl: 4 queries, 3 without judgments in test',
      '  1 empty query:',
      '    "q2"',
      'qrels/test.tsv (split "test"): 4 judgments of 1 query, 4 relevant; grades 1: 4; 1 query can be evaluated',
      '  4 judgments of documents missing from the corpus:',
      '    query "q1" → "x0" (grade 1)',
      '    query "q1" → "x1" (grade 1)',
      '    … and 2 more',
    ]);
  });

  it('prints counts with thousands separators regardless of locale', () => {
    const big = Array.from({ length: 1234 }, (_, i) => doc(`d${i}`));
    expect(reportLines(validateCollection({ docs: big, queries: new Map(), qrels: new Map() }))[0]).toBe('corpus.jsonl: 1,234 documents');
  });
});
