/**
 * The parsers must not depend on where the byte stream is cut: the same bytes in any chunking (1-byte
 * chunks included, cutting multi-byte UTF-8 characters and CRLF pairs) give the same records, logs and
 * errors, for plain and gzipped input.
 */
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseCorpus } from '../../../src/lib/data/corpus.ts';
import { createQrelsLog, parseQrels } from '../../../src/lib/data/qrels.ts';
import { parseQueries } from '../../../src/lib/data/queries.ts';
import { createParseLog } from '../../../src/lib/data/record-stream.ts';
import type { ByteSource } from '../../../src/lib/data/lines.ts';
import { shared } from '../../shared-dir.ts';
import { chunked, encode } from './sources.ts';

/** The first lines of SciFact's corpus (with its non-ASCII characters) plus hand-made awkward lines, CRLF. */
function corpusSample(): Uint8Array {
  const scifact = readFileSync(shared('beir', 'scifact', 'corpus.jsonl'), 'utf8').split('\n').slice(0, 12);
  const awkward = [
    '{"_id":"u1","title":"naïve café","text":"日本語 🚀 Ελληνικά \\u00e9"}',
    '',
    '   ',
    '{"_id":"u1","title":"duplicate","text":"dropped"}',
    '{"_id": 7, "text": "numeric id, skipped"}',
    '{"_id":"u2","text":"no title, emoji at the end 🚀"}',
  ];
  return encode(`\uFEFF${[...scifact, ...awkward].join('\r\n')}\r\n`);
}

const queriesSample = encode('\uFEFF{"_id":"1","text":"ß ü 日本"}\r\n\r\n{"_id":"2","text":"🚀"}\r\n{"_id":"1","text":"again"}\r\n{"oops"\r\n');
const qrelsSample = encode('query-id\tcorpus-id\tscore\r\n1\tδ1\t1\r\n\r\n1\t日2\t0\r\n2\td\tx\r\n2\td\t2\r\n1\tδ1\t2');

/** Everything a parse produced: records, log, and the error if it threw. */
async function outcome(parse: (source: ByteSource) => { records: AsyncIterable<unknown>; log: unknown }, source: ByteSource) {
  const { records, log } = parse(source);
  const out: unknown[] = [];
  let error: unknown;
  try {
    for await (const record of records) out.push(record);
  } catch (e) {
    error = e instanceof Error ? { name: e.name, message: e.message } : e;
  }
  return { out, log: JSON.parse(JSON.stringify(log)) as unknown, error };
}

const parsers = {
  corpus: (source: ByteSource) => {
    const log = createParseLog();
    return { records: parseCorpus(source, { onError: 'skip', log }), log };
  },
  queries: (source: ByteSource) => {
    const log = createParseLog();
    return { records: parseQueries(source, { onError: 'skip', log }), log };
  },
  qrels: (source: ByteSource) => {
    const log = createQrelsLog();
    return { records: parseQrels(source, { onError: 'skip', log }), log };
  },
  strictCorpus: (source: ByteSource) => ({ records: parseCorpus(source), log: null }),
};

const cases = [
  ['corpus', corpusSample()],
  ['queries', queriesSample],
  ['qrels', qrelsSample],
  ['strictCorpus', corpusSample()],
] as const;

const chunkSizes = fc.array(fc.integer({ min: 1, max: 64 }), { minLength: 1, maxLength: 12 });

describe('chunk boundaries', () => {
  it.each(cases)('%s: 1-byte chunks give the same outcome as one chunk', async (name, bytes) => {
    const whole = await outcome(parsers[name], chunked(bytes));
    expect(whole.out.length).toBeGreaterThan(0);
    expect(await outcome(parsers[name], chunked(bytes, [1]))).toEqual(whole);
  });

  it.each(cases)('%s: any chunking of the plain bytes gives the same outcome', async (name, bytes) => {
    const whole = await outcome(parsers[name], chunked(bytes));
    await fc.assert(
      fc.asyncProperty(chunkSizes, async (sizes) => {
        expect(await outcome(parsers[name], chunked(bytes, sizes))).toEqual(whole);
      }),
      { numRuns: 60 },
    );
  });

  it.each(cases)('%s: any chunking of the gzipped bytes gives the same outcome as the plain bytes', async (name, bytes) => {
    const whole = await outcome(parsers[name], chunked(bytes));
    const gz = new Uint8Array(gzipSync(bytes));
    await fc.assert(
      fc.asyncProperty(chunkSizes, async (sizes) => {
        expect(await outcome(parsers[name], chunked(gz, sizes))).toEqual(whole);
      }),
      { numRuns: 30 },
    );
  });

  it('the samples exercise what they claim: skipped lines, duplicates, CRLF, multi-byte text', async () => {
    const corpus = await outcome(parsers.corpus, chunked(corpusSample()));
    expect(corpus.log).toMatchObject({ records: 14, duplicates: [{ id: 'u1', line: 16, firstLine: 13 }], skipped: [{ line: 17, kind: 'invalid-field' }] });
    const strict = await outcome(parsers.strictCorpus, chunked(corpusSample()));
    expect(strict.error).toEqual({ name: 'ParseError', message: 'corpus.jsonl:17: "_id" must be a string, found the number 7 (write it in quotes)' });
    const qrels = await outcome(parsers.qrels, chunked(qrelsSample));
    expect(qrels.out).toEqual([
      { queryId: '1', docId: 'δ1', grade: 1 },
      { queryId: '1', docId: '日2', grade: 0 },
      { queryId: '2', docId: 'd', grade: 2 },
    ]);
    expect(qrels.log).toMatchObject({ skipped: [{ line: 5, kind: 'invalid-number' }], duplicates: [{ queryId: '1', docId: 'δ1', line: 7, firstLine: 2 }] });
  });
});
