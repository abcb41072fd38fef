import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { createQrelsLog, parseQrels, readQrels, type QrelsParseOptions } from '../../../src/lib/data/qrels.ts';
import { chunked, collect, encode, expectParseError } from './sources.ts';

const judgments = (text: string, options: QrelsParseOptions = {}) => collect(parseQrels(chunked(encode(text)), options));
const qrels = (text: string | Uint8Array, options: QrelsParseOptions = {}) =>
  readQrels(chunked(typeof text === 'string' ? encode(text) : text), { file: 'test.tsv', ...options } as QrelsParseOptions);

const asObject = (map: Map<string, Map<string, number>>) => Object.fromEntries([...map].map(([q, docs]) => [q, Object.fromEntries(docs)]));

describe('parseQrels', () => {
  it('skips the BEIR header and records it', async () => {
    const log = createQrelsLog();
    expect(asObject(await qrels('query-id\tcorpus-id\tscore\r\n1\td1\t1\r\n1\td2\t0\r\n2\td1\t2\r\n', { log }))).toEqual({
      '1': { d1: 1, d2: 0 },
      '2': { d1: 2 },
    });
    expect(log.header).toBe('query-id\tcorpus-id\tscore');
  });

  it('loses no judgment when the file has no header', async () => {
    const log = createQrelsLog();
    expect(await judgments('1\td1\t1\n2\td2\t3\n', { log })).toEqual([
      { queryId: '1', docId: 'd1', grade: 1 },
      { queryId: '2', docId: 'd2', grade: 3 },
    ]);
    expect(log.header).toBeNull();
  });

  it('recognises another header wording and a header after blank lines', async () => {
    expect(await judgments('\n\nqid\tdocid\trel\nq\td\t1\n')).toEqual([{ queryId: 'q', docId: 'd', grade: 1 }]);
  });

  it('treats only the first non-blank line as a possible header', async () => {
    await expectParseError(() => judgments('q\td\t1\nquery-id\tcorpus-id\tscore\n'), { line: 2, kind: 'invalid-number' });
  });

  it('accepts negative and zero grades, signs and spaces around the score (as Python int() does)', async () => {
    expect((await judgments('q\ta\t-1\nq\tb\t+2\nq\tc\t 0 \nq\td\t-0\n')).map((j) => j.grade)).toEqual([-1, 2, 0, 0]);
  });

  it('reads gzipped qrels', async () => {
    expect(asObject(await qrels(new Uint8Array(gzipSync(encode('query-id\tcorpus-id\tscore\nq\td\t1\n')))))).toEqual({ q: { d: 1 } });
  });

  it.each([
    ['q\td\t1.5', 'invalid-number', 'score "1.5" is not an integer grade'],
    ['q\td\t1e3', 'invalid-number', 'score "1e3" is not an integer grade'],
    ['q\td\t99999999999999999999', 'invalid-number', 'score "99999999999999999999" is not an integer grade'],
    ['q\td\tyes', 'invalid-number', 'score "yes" is not an integer grade'],
    ['q\td\t', 'invalid-number', 'score is empty'],
    ['q\td', 'invalid-columns', 'expected 3 tab-separated columns (query-id, corpus-id, score), found 2'],
    ['q d 1', 'invalid-columns', 'expected 3 tab-separated columns (query-id, corpus-id, score), found 1 (the columns seem to be separated by spaces, not tabs)'],
    ['q\t0\td\t1', 'invalid-columns', 'expected 3 tab-separated columns (query-id, corpus-id, score), found 4 (a TREC qrels line "query 0 document grade"? BEIR qrels have no second column)'],
    ['\td\t1', 'invalid-field', 'query-id is empty'],
    ['q\t\t1', 'invalid-field', 'corpus-id is empty'],
  ] as const)('line 3 %j → %s', async (bad, kind, reason) => {
    const text = `query-id\tcorpus-id\tscore\nq0\td0\t1\n${bad}\nq9\td9\t1\n`;
    const error = await expectParseError(() => qrels(text), { file: 'test.tsv', line: 3, kind, reason });
    expect(error.message).toBe(`test.tsv:3: ${reason}`);
  });

  it("with onError 'skip' keeps the good judgments and lists the bad lines", async () => {
    const log = createQrelsLog();
    const map = await qrels('query-id\tcorpus-id\tscore\nq\ta\t1\nq\tb\t0.5\nq\tc\t2\n', { onError: 'skip', log });
    expect(asObject(map)).toEqual({ q: { a: 1, c: 2 } });
    expect(log.skipped.map((e) => [e.file, e.line, e.kind])).toEqual([['test.tsv', 3, 'invalid-number']]);
  });

  it('keeps the first judgment of a repeated pair and logs the repeat with both grades', async () => {
    const log = createQrelsLog();
    const map = await qrels('q\td\t2\nq\te\t1\nq\td\t0\n', { log });
    expect(asObject(map)).toEqual({ q: { d: 2, e: 1 } });
    expect(log.duplicates).toEqual([{ file: 'test.tsv', queryId: 'q', docId: 'd', line: 3, grade: 0, firstLine: 1, firstGrade: 2 }]);
  });

  it.each([
    ['an empty file', ''],
    ['a header only', 'query-id\tcorpus-id\tscore\r\n'],
  ])('rejects %s as empty-file', async (_, text) => {
    await expectParseError(() => qrels(text), { file: 'test.tsv', line: 0, kind: 'empty-file', reason: 'the file holds no judgments' });
  });
});
