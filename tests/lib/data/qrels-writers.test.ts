import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readQrels } from '../../../src/lib/data/qrels.ts';
import { formatBeirQrels, formatTrecQrels, sortedQrels } from '../../../src/lib/data/qrels-writers.ts';
import { readTrecQrels } from '../../../src/lib/data/trec.ts';
import type { Qrels } from '../../../src/lib/types.ts';
import { bytesOf } from '../eval/fixtures.ts';

const readTrec = (text: string) => readTrecQrels(bytesOf(text), { file: 'qrels.txt' });
const readBeir = (text: string) => readQrels(bytesOf(text), { file: 'test.tsv' });

/** Entries in order, so that equal maps in a different order compare unequal. */
const ordered = (qrels: Qrels) => [...qrels].map(([qid, judgments]) => [qid, [...judgments]]);

// Built in a deliberate non-sorted order; numeric-looking ids would be reordered by an object literal.
const qrels: Qrels = new Map([
  ['q2', new Map([['d9', 2], ['d1', 0]])],
  ['10', new Map([['doc-x', -1]])],
  ['q1', new Map([['d3', 1]])],
]);

describe('formatTrecQrels', () => {
  it('writes qid 0 docid grade lines in map order', () => {
    expect(formatTrecQrels(qrels)).toBe('q2 0 d9 2\nq2 0 d1 0\n10 0 doc-x -1\nq1 0 d3 1\n');
  });

  it('round-trips: read → write → read gives equal maps in equal order, write → read → write equal bytes', async () => {
    const file = '# judged in the playground\nq2 Q0 d9 2\nq2\t0\td1\t0\n10 0 doc-x -1\n\nq1 0 d3 1\n';
    const read = await readTrec(file);
    const written = formatTrecQrels(read);
    expect(ordered(await readTrec(written))).toEqual(ordered(read));
    expect(formatTrecQrels(await readTrec(written))).toBe(written);
    expect(ordered(read)).toEqual(ordered(qrels));
  });

  it('refuses what the format cannot hold, naming the judgment', () => {
    const one = (qid: string, docId: string, grade = 1): Qrels => new Map([[qid, new Map([[docId, grade]])]]);
    expect(() => formatTrecQrels(one('q 1', 'd'))).toThrow(/query id "q 1".*white space/);
    expect(() => formatTrecQrels(one('q', 'd\t1'))).toThrow(/document id "d\\t1"/);
    expect(() => formatTrecQrels(one('q', ''))).toThrow(/empty/);
    expect(() => formatTrecQrels(one('#q', 'd'))).toThrow(/comment/);
    expect(() => formatTrecQrels(one('q', 'd', 1.5))).toThrow(/query q, document d: grade 1.5 is not an integer/);
  });

  it('leaves out a query without judgments', () => {
    expect(formatTrecQrels(new Map([['q', new Map()]]))).toBe('');
  });
});

describe('formatBeirQrels', () => {
  it('writes the BEIR header, then query-id, corpus-id, score lines in map order', () => {
    expect(formatBeirQrels(qrels)).toBe('query-id\tcorpus-id\tscore\nq2\td9\t2\nq2\td1\t0\n10\tdoc-x\t-1\nq1\td3\t1\n');
  });

  it('round-trips: read → write → read gives equal maps in equal order, write → read → write equal bytes', async () => {
    const file = 'query-id\tcorpus-id\tscore\r\nq2\td9\t2\r\nq2\td1\t0\r\n10\tdoc-x\t-1\r\nq1\td3\t1\r\n';
    const read = await readBeir(file);
    const written = formatBeirQrels(read);
    expect(ordered(await readBeir(written))).toEqual(ordered(read));
    expect(formatBeirQrels(await readBeir(written))).toBe(written);
    expect(ordered(read)).toEqual(ordered(qrels));
  });

  it('keeps ids with spaces, which BEIR allows, and refuses tabs and line breaks', async () => {
    const spaced: Qrels = new Map([['what is x', new Map([['doc 1', 1]])]]);
    expect(ordered(await readBeir(formatBeirQrels(spaced)))).toEqual(ordered(spaced));
    expect(() => formatBeirQrels(new Map([['q', new Map([['a\tb', 1]])]]))).toThrow(/tab or line break/);
    expect(() => formatBeirQrels(new Map([['q\n', new Map([['a', 1]])]]))).toThrow(/tab or line break/);
  });

  it('writes only the header for empty qrels, which the reader refuses as holding no judgments', async () => {
    expect(formatBeirQrels(new Map())).toBe('query-id\tcorpus-id\tscore\n');
    await expect(readBeir(formatBeirQrels(new Map()))).rejects.toThrow(/test.tsv: the file holds no judgments/);
  });
});

describe('sortedQrels', () => {
  it('orders query ids and document ids by strcmp', () => {
    expect(formatTrecQrels(sortedQrels(qrels))).toBe('10 0 doc-x -1\nq1 0 d3 1\nq2 0 d1 0\nq2 0 d9 2\n');
  });
});

describe('both formats on random qrels', () => {
  const id = fc.stringMatching(/^[A-Za-z0-9_.:\-]{1,8}$/).filter((s) => !s.startsWith('#'));
  const randomQrels = fc
    .uniqueArray(fc.tuple(id, fc.uniqueArray(fc.tuple(id, fc.integer({ min: -2, max: 3 })), { minLength: 1, maxLength: 5, selector: ([d]) => d })), {
      minLength: 1,
      maxLength: 6,
      selector: ([q]) => q,
    })
    .map((entries): Qrels => new Map(entries.map(([qid, docs]) => [qid, new Map(docs)])));

  it('read back what they wrote, in the same order, and write the same bytes again', async () => {
    await fc.assert(
      fc.asyncProperty(randomQrels, async (random) => {
        const trec = formatTrecQrels(random);
        const beir = formatBeirQrels(random);
        expect(ordered(await readTrec(trec))).toEqual(ordered(random));
        expect(ordered(await readBeir(beir))).toEqual(ordered(random));
        expect(formatTrecQrels(await readTrec(trec))).toBe(trec);
        expect(formatBeirQrels(await readBeir(beir))).toBe(beir);
      }),
      { numRuns: 200 },
    );
  });
});
