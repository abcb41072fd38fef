import { describe, expect, it } from 'vitest';
import { parseQueries, readQueries, type QueriesParseOptions } from '../../../src/lib/data/queries.ts';
import { createParseLog } from '../../../src/lib/data/record-stream.ts';
import { chunked, collect, encode, expectParseError } from './sources.ts';

const queries = (text: string, options: QueriesParseOptions = {}) => collect(parseQueries(chunked(encode(text)), options));
const line = (record: unknown) => `${JSON.stringify(record)}\n`;

describe('parseQueries', () => {
  it('reads _id, text and non-empty metadata (a title field is not part of a query)', async () => {
    const text = line({ _id: '0', text: 'q zero', metadata: {} }) + line({ _id: '1', text: 'q one', metadata: { narrative: 'n' }, title: 'ignored' });
    expect(await queries(text)).toEqual([
      { id: '0', text: 'q zero' },
      { id: '1', text: 'q one', metadata: { narrative: 'n' } },
    ]);
  });

  it.each([
    ['{"text":"x"}', 'missing-field', '"_id" is missing'],
    ['{"_id":3,"text":"x"}', 'invalid-field', '"_id" must be a string, found the number 3 (write it in quotes)'],
    ['{"_id":"3"}', 'missing-field', '"text" is missing'],
    ['{"_id":"3","text":"x" "metadata":{}}', 'invalid-json', 'invalid JSON (expected "," or "}", found """ at column 23)'],
  ] as const)('line 3 %s → %s', async (bad, kind, reason) => {
    const text = line({ _id: 'a', text: 'x' }) + '\n' + bad + '\n';
    await expectParseError(() => queries(text), { file: 'queries.jsonl', line: 3, kind, reason });
  });

  it('keeps the first of duplicate ids and logs the rest', async () => {
    const log = createParseLog();
    const map = await readQueries(chunked(encode(line({ _id: 'q', text: 'one' }) + line({ _id: 'q', text: 'two' }))), { log });
    expect([...map.values()]).toEqual([{ id: 'q', text: 'one' }]);
    expect(log.duplicates).toEqual([{ file: 'queries.jsonl', id: 'q', line: 2, firstLine: 1 }]);
  });

  it('rejects an empty queries file', async () => {
    await expectParseError(() => queries('\n'), { line: 0, kind: 'empty-file', reason: 'the file holds no queries' });
  });
});
