import { describe, expect, it } from 'vitest';
import { readTrecPrefs, readTrecQrelsPrefs } from '../../../src/lib/data/trec-prefs.ts';
import { parseError } from './parse-error.ts';
import { bytesOf } from '../eval/fixtures.ts';

const readPrefs = (text: string, chunkSize?: number) => readTrecPrefs(bytesOf(text, chunkSize), { file: 'p.txt' });
const readQrelsPrefs = (text: string) => readTrecQrelsPrefs(bytesOf(text), { file: 'q.txt' });

describe('readTrecPrefs', () => {
  it('reads qid jg jsg docid rel_level with any C whitespace, levels as C floats, comments and blank lines skipped', async () => {
    const prefs = await readPrefs('# user study\n1 u1 s1 d1 3.0\n1\tu1\ts1\td2\t0.1\r\n\n2 u2 s1 d1 0\n');
    expect([...prefs.keys()]).toEqual(['1', '2']);
    expect(prefs.get('1')).toEqual([
      { jg: 'u1', jsg: 's1', docId: 'd1', level: 3 },
      { jg: 'u1', jsg: 's1', docId: 'd2', level: Math.fround(0.1) },
    ]);
    expect(prefs.get('1')![1]!.level).not.toBe(0.1);
  });

  it('gives the same result whatever the chunk boundaries', async () => {
    const text = '1 a b d1 2\n1 a b d2 1\n2 a c d1 0\n';
    for (const size of [1, 2, 5]) expect(await readPrefs(text, size)).toEqual(await readPrefs(text));
  });

  it.each([
    ['1 u1 d1 2\n', 'invalid-columns', /expected 5 fields "qid jg jsg docid rel_level", found 4/],
    ['1 u1 s1 d1 high\n', 'invalid-number', /rel_level "high"/],
    ['1 u1 s1 d0 1\n', 'duplicate-id', /d0 is judged twice for query 1 in judgment group u1, sub-group s1 \(first on line 1\)/],
  ])('refuses %j with %s', async (text, kind, reason) => {
    const error = await parseError(readPrefs(`1 u1 s1 d0 0\n${text}`));
    expect([error.file, error.line, error.kind]).toEqual(['p.txt', 2, kind]);
    expect(error.reason).toMatch(reason);
  });

  it('accepts the same document in another sub-group or group', async () => {
    const prefs = await readPrefs('1 u1 s1 d0 1\n1 u1 s2 d0 1\n1 u2 s1 d0 0\n');
    expect(prefs.get('1')).toHaveLength(3);
  });
});

describe('readTrecQrelsPrefs', () => {
  it('reads a qrels file as preferences: the second column names the judgment group, one sub-group "0"', async () => {
    const prefs = await readQrelsPrefs('301 0 d1 1\n301 0 d2 0\n301 7 d1 2\n');
    expect(prefs.get('301')).toEqual([
      { jg: '0', jsg: '0', docId: 'd1', level: 1 },
      { jg: '0', jsg: '0', docId: 'd2', level: 0 },
      { jg: '7', jsg: '0', docId: 'd1', level: 2 },
    ]);
  });

  it('refuses a document judged twice in one group', async () => {
    const error = await parseError(readQrelsPrefs('301 0 d1 1\n301 0 d1 0\n'));
    expect([error.line, error.kind]).toEqual([2, 'duplicate-id']);
  });
});
