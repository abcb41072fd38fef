import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatTrecRun, readTrecQrels, readTrecRun } from '../../../src/lib/data/trec.ts';
import type { Run } from '../../../src/lib/types.ts';
import { ParseError } from '../../../src/lib/data/errors.ts';
import { parseError } from './parse-error.ts';
import { bytesOf, qrelsOf, runOf } from '../eval/fixtures.ts';

const readQrels = (text: string, chunkSize?: number) => readTrecQrels(bytesOf(text, chunkSize), { file: 'q.txt' });
const readRun = (text: string, chunkSize?: number) => readTrecRun(bytesOf(text, chunkSize), { file: 'r.txt' });

describe('readTrecQrels', () => {
  it('reads qid iter docid grade with any C whitespace, skipping comments and blank lines', async () => {
    const text = '# judged by NIST\n1 0 d1 1\n1\t0\td2\t0\r\n\n  # indented comment\n# two comments in a row\n2  Q0  d1   -1\n2 0 d3 2';
    expect(await readQrels(text)).toEqual(qrelsOf({ 1: { d1: 1, d2: 0 }, 2: { d1: -1, d3: 2 } }));
  });

  it('gives the same result whatever the chunk boundaries', async () => {
    const text = '1 0 d1 1\n1 0 d2 0\n2 0 d1 3\n';
    for (const size of [1, 2, 3, 7]) expect(await readQrels(text, size)).toEqual(await readQrels(text));
  });

  it.each([
    ['1 0 d1\n', 'invalid-columns', /expected 4 fields/],
    ['1 0 d1 1 extra\n', 'invalid-columns', /found 5/],
    ['1 0 d1 1.5\n', 'invalid-number', /grade "1.5"/],
    ['1 0 d1 yes\n', 'invalid-number', /not an integer/],
  ])('refuses %j with %s', async (text, kind, reason) => {
    const error = await parseError(readQrels(`1 0 d0 0\n${text}`));
    expect([error.file, error.line, error.kind]).toEqual(['q.txt', 2, kind]);
    expect(error.reason).toMatch(reason);
  });

  it('refuses a document judged twice for a query, naming both lines', async () => {
    const error = await parseError(readQrels('1 0 d1 1\n2 0 d1 1\n1 0 d1 0\n'));
    expect([error.line, error.kind]).toEqual([3, 'duplicate-id']);
    expect(error.reason).toMatch(/first on line 1/);
  });
});

describe('readTrecRun', () => {
  it('reads qid Q0 docid rank score tag, ignores the rank column and extra fields, sorts as trec_eval', async () => {
    const text = '# my run\nq1 Q0 a 1 1.5 tagA\nq1 Q0 b 2 2.5 tagA junk at end\nq2\tQ0\tc\t9\t-3e-2\ttagB\nq1 Q0 c 3 1.5 tagA\n';
    const { run, tags, runId } = await readRun(text);
    expect(run).toEqual(runOf({ q1: [['b', 2.5], ['c', 1.5], ['a', 1.5]], q2: [['c', -0.03]] }));
    expect(tags).toEqual(['tagA', 'tagB']);
    expect(runId).toBe('tagA');
  });

  it('accepts the number forms atof reads: exponents, leading dot, inf', async () => {
    const { run } = await readRun('q Q0 a 1 .5 t\nq Q0 b 2 1E3 t\nq Q0 c 3 -inf t\nq Q0 d 4 +Infinity t\n');
    expect(run.get('q')!.map((hit) => hit.score)).toEqual([Infinity, 1000, 0.5, -Infinity]);
  });

  it.each([
    ['q Q0 a 1 1.0\n', 'invalid-columns', /expected 6 fields/],
    ['q Q0 a 1 high t\n', 'invalid-number', /score "high"/],
    ['q Q0 a 1 nan t\n', 'invalid-number', /score "nan"/],
    ['q Q0 z 2 1.0 t\n', 'duplicate-id', /retrieved twice for query q \(first on line 1\)/],
  ])('refuses %j with %s', async (text, kind, reason) => {
    const error = await parseError(readRun(`q Q0 z 1 2.0 t\n${text}`));
    expect([error.file, error.line, error.kind]).toEqual(['r.txt', 2, kind]);
    expect(error.reason).toMatch(reason);
  });

  it('never throws anything but ParseError, whatever the bytes', async () => {
    const junk = fc.oneof(
      fc.uint8Array({ maxLength: 200 }),
      fc
        .array(fc.oneof(fc.constantFrom(' ', '\t', '\n', '#', 'Q0', '1', '-2', '0.5', 'x', '\r', '\u00a0', 'é'), fc.string()), { maxLength: 40 })
        .map((parts) => new TextEncoder().encode(parts.join(''))),
    );
    await fc.assert(
      fc.asyncProperty(junk, async (bytes) => {
        for (const read of [readTrecQrels, readTrecRun]) {
          try {
            await read((async function* () { yield bytes; })(), { file: 'junk' });
          } catch (error) {
            expect(error).toBeInstanceOf(ParseError);
          }
        }
      }),
    );
  });
});

describe('formatTrecRun', () => {
  it('writes Pyserini-style lines, ranks following trec_eval order', () => {
    const run = runOf({ 7: [['a', 1], ['c', 3.25], ['b', 1]] });
    expect(formatTrecRun(run, 'bm25')).toBe('7 Q0 c 1 3.25 bm25\n7 Q0 b 2 1 bm25\n7 Q0 a 3 1 bm25\n');
    expect(formatTrecRun(run, 'bm25', { decimals: 6 })).toBe('7 Q0 c 1 3.250000 bm25\n7 Q0 b 2 1.000000 bm25\n7 Q0 a 3 1.000000 bm25\n');
  });

  it('round-trips every score exactly through readTrecRun', async () => {
    const hits = fc.uniqueArray(fc.record({ docId: fc.stringMatching(/^[A-Za-z0-9_-]{1,8}$/), score: fc.double({ noNaN: true }) }), {
      selector: (hit) => hit.docId,
      minLength: 1,
    });
    await fc.assert(
      fc.asyncProperty(fc.dictionary(fc.stringMatching(/^[0-9a-z]{1,4}$/), hits, { minKeys: 1 }), async (record) => {
        const run: Run = new Map(Object.entries(record));
        const { run: back } = await readRun(formatTrecRun(run, 'tag'));
        for (const [qid, list] of run) {
          const expected = new Map(list.map((hit) => [hit.docId, hit.score]));
          const read = new Map(back.get(qid)!.map((hit) => [hit.docId, hit.score]));
          expect(read).toEqual(expected);
        }
      }),
    );
  });

  it('refuses ids or tags containing whitespace', () => {
    expect(() => formatTrecRun(runOf({ q: [['a b', 1]] }), 't')).toThrow(RangeError);
    expect(() => formatTrecRun(runOf({ q: [['a', 1]] }), 'my run')).toThrow(RangeError);
  });
});
