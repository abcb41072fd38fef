import { describe, expect, test } from 'vitest';
import { formatQrelsFile, qrelsFormatOf, readQrelsFile } from '../../../src/lib/data/qrels-file.ts';
import type { Qrels } from '../../../src/lib/types.ts';

const bytes = (text: string) => new TextEncoder().encode(text);

/** Judgments in the order a person made them (not sorted): the files keep that order. */
const MADE: Qrels = new Map([
  ['q2', new Map([['doc-9', 3], ['doc-1', 0]])],
  ['q1', new Map([['doc-4', 1], ['doc-10', 2], ['doc-2', 0]])],
]);

describe('format detection', () => {
  test('four white-space fields are TREC, three tab-separated BEIR', () => {
    expect(qrelsFormatOf('q1 0 d1 1')).toBe('trec');
    expect(qrelsFormatOf('q1\t0\td1\t1')).toBe('trec');
    expect(qrelsFormatOf('q1\td1\t1')).toBe('beir');
    expect(qrelsFormatOf('query-id\tcorpus-id\tscore')).toBe('beir');
    expect(qrelsFormatOf('q1 d1 1')).toBeUndefined();
  });
});

describe('round trip', () => {
  for (const format of ['trec', 'beir'] as const) {
    test(`${format}: write → read gives the same judgments in the same order; write → read → write the same bytes`, async () => {
      const text = formatQrelsFile(MADE, format);
      const read = await readQrelsFile(bytes(text), `mine.${format}`);
      expect(read.format).toBe(format);
      expect(read.judgments).toBe(5);
      expect([...read.qrels].map(([q, docs]) => [q, [...docs]])).toEqual([...MADE].map(([q, docs]) => [q, [...docs]]));
      expect(formatQrelsFile(read.qrels, format)).toBe(text);
    });
  }

  test('the exact lines of each format', () => {
    expect(formatQrelsFile(MADE, 'trec').split('\n').slice(0, 2)).toEqual(['q2 0 doc-9 3', 'q2 0 doc-1 0']);
    expect(formatQrelsFile(MADE, 'beir').split('\n').slice(0, 2)).toEqual(['query-id\tcorpus-id\tscore', 'q2\tdoc-9\t3']);
  });
});

describe('bad files are refused naming file and line', () => {
  test('empty, unknown shape, bad grade, duplicate in TREC', async () => {
    await expect(readQrelsFile(bytes('\n# nothing\n'), 'empty.txt')).rejects.toThrow('empty.txt: the file holds no judgments');
    await expect(readQrelsFile(bytes('query-id\tcorpus-id\tscore\n'), 'header.tsv')).rejects.toThrow('holds no judgments');
    await expect(readQrelsFile(bytes('q1 d1 1\n'), 'three.txt')).rejects.toThrow('three.txt:1: neither TREC qrels');
    await expect(readQrelsFile(bytes('q1 0 d1 1\nq1 0 d2 high\n'), 'grades.qrels')).rejects.toThrow('grades.qrels:2: relevance grade "high" is not an integer');
    await expect(readQrelsFile(bytes('q1 0 d1 1\nq1 0 d1 2\n'), 'twice.qrels')).rejects.toThrow('twice.qrels:2: document d1 is judged twice');
  });

  test('a BEIR file with a pair judged twice keeps the first and counts the duplicate', async () => {
    const read = await readQrelsFile(bytes('q1\td1\t1\nq1\td1\t2\n'), 'dup.tsv');
    expect(read.qrels.get('q1')!.get('d1')).toBe(1);
    expect(read.duplicates).toBe(1);
  });
});
