/** Whatever the bytes, a parser either produces records or throws a ParseError: nothing else escapes. */
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseCorpus } from '../../../src/lib/data/corpus.ts';
import { ParseError } from '../../../src/lib/data/errors.ts';
import type { ByteSource } from '../../../src/lib/data/lines.ts';
import { createQrelsLog, parseQrels } from '../../../src/lib/data/qrels.ts';
import { parseQueries } from '../../../src/lib/data/queries.ts';
import { createParseLog } from '../../../src/lib/data/record-stream.ts';
import { chunked, encode } from './sources.ts';

type Parse = (source: ByteSource) => AsyncIterable<unknown>;

const parsers: [string, Parse][] = [
  ['corpus/throw', (s) => parseCorpus(s)],
  ['corpus/skip', (s) => parseCorpus(s, { onError: 'skip', log: createParseLog(), maxSkipped: 5 })],
  ['queries/throw', (s) => parseQueries(s)],
  ['queries/skip', (s) => parseQueries(s, { onError: 'skip', log: createParseLog() })],
  ['qrels/throw', (s) => parseQrels(s)],
  ['qrels/skip', (s) => parseQrels(s, { onError: 'skip', log: createQrelsLog() })],
];

async function onlyParseErrors(parse: Parse, bytes: Uint8Array, sizes: number[]): Promise<void> {
  try {
    for await (const _record of parse(chunked(bytes, sizes))) {
      // Records are fine; only what is thrown matters here.
    }
  } catch (error) {
    if (!(error instanceof ParseError)) throw error;
    expect(error.message.length).toBeGreaterThan(0);
  }
}

const sizes = fc.array(fc.integer({ min: 1, max: 40 }), { maxLength: 4 });

/** Lines that look like BEIR records, with every field possibly of the wrong type, or broken. */
const jsonishLine = fc.oneof(
  fc.record(
    { _id: fc.oneof(fc.string(), fc.integer(), fc.constant(null), fc.jsonValue()), title: fc.jsonValue(), text: fc.oneof(fc.string(), fc.jsonValue()), metadata: fc.jsonValue() },
    { requiredKeys: [] },
  ).map((record) => JSON.stringify(record)),
  fc.json(),
  fc.tuple(fc.json(), fc.nat(), fc.string({ maxLength: 3 })).map(([text, at, junk]) => text.slice(0, at % (text.length + 1)) + junk),
  fc.tuple(fc.string(), fc.string(), fc.oneof(fc.integer().map(String), fc.string())).map(([q, d, g]) => `${q}\t${d}\t${g}`),
  fc.string({ unit: 'binary' }),
);
const jsonishFile = fc
  .tuple(fc.array(jsonishLine, { maxLength: 8 }), fc.constantFrom('\n', '\r\n'), fc.boolean())
  .map(([lines, end, bom]) => encode((bom ? '\uFEFF' : '') + lines.join(end)));

describe('fuzz: only ParseError escapes', () => {
  it.each(parsers)('%s on arbitrary bytes', async (_, parse) => {
    await fc.assert(fc.asyncProperty(fc.uint8Array({ maxLength: 200 }), sizes, (bytes, cuts) => onlyParseErrors(parse, bytes, cuts)), { numRuns: 300 });
  });

  it.each(parsers)('%s on bytes that start like gzip', async (_, parse) => {
    const withMagic = fc.uint8Array({ maxLength: 120 }).map((rest) => new Uint8Array([0x1f, 0x8b, 0x08, ...rest]));
    await fc.assert(fc.asyncProperty(withMagic, sizes, (bytes, cuts) => onlyParseErrors(parse, bytes, cuts)), { numRuns: 200 });
  });

  it.each(parsers)('%s on JSON-ish and TSV-ish lines, plain and gzipped', async (_, parse) => {
    await fc.assert(
      fc.asyncProperty(jsonishFile, sizes, fc.boolean(), async (bytes, cuts, gzip) => {
        await onlyParseErrors(parse, gzip ? new Uint8Array(gzipSync(bytes)) : bytes, cuts);
      }),
      { numRuns: 300 },
    );
  });
});
