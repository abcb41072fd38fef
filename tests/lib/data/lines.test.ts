import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ParseError } from '../../../src/lib/data/errors.ts';
import { decodeLine, firstInvalidUtf8, readDecodedLineBatches, readLineBatches, readLines, type Line } from '../../../src/lib/data/lines.ts';
import { chunked, collect, encode, expectParseError, webStream } from './sources.ts';

const read = (bytes: Uint8Array, sizes: number[] = [], file = 'f.txt') => collect(readLines(chunked(bytes, sizes), { file }));
const texts = (lines: Line[]) => lines.map((l) => l.text);

describe('readLines', () => {
  it('numbers lines from 1 and yields the last line without a final newline', async () => {
    expect(await read(encode('a\nb\n\nc'))).toEqual([
      { number: 1, text: 'a' },
      { number: 2, text: 'b' },
      { number: 3, text: '' },
      { number: 4, text: 'c' },
    ]);
  });

  it('yields nothing for an empty file and one empty line for "\\n"', async () => {
    expect(await read(new Uint8Array(0))).toEqual([]);
    expect(await read(encode('\n'))).toEqual([{ number: 1, text: '' }]);
  });

  it('strips CR of CRLF line ends but keeps a CR inside a line', async () => {
    expect(texts(await read(encode('a\r\nb\rc\r\n')))).toEqual(['a', 'b\rc']);
  });

  it('strips the BOM at the start of the file only, even when it arrives one byte at a time', async () => {
    const bytes = encode('\uFEFFa\n\uFEFFb\n');
    expect(texts(await read(bytes))).toEqual(['a', '\uFEFFb']);
    expect(texts(await read(bytes, [1]))).toEqual(['a', '\uFEFFb']);
  });

  it('reports invalid UTF-8 with its line and first bad byte', async () => {
    const bytes = new Uint8Array([...encode('ok\ncaf'), 0xe9, ...encode('\nok\n')]);
    await expectParseError(() => read(bytes), { file: 'f.txt', line: 2, kind: 'invalid-utf8', reason: /byte 0xE9 at byte 4/ });
  });

  it('names UTF-16 input instead of calling it broken UTF-8', async () => {
    const utf16 = new Uint8Array([0xff, 0xfe, 0x61, 0x00, 0x0a, 0x00]);
    await expectParseError(() => read(utf16), { line: 1, kind: 'invalid-utf8', reason: /UTF-16/ });
  });

  it('reads a web ReadableStream like an async iterable', async () => {
    const bytes = encode('héllo\nwörld\n');
    expect(texts(await collect(readLines(webStream(bytes, 3), { file: 'w' })))).toEqual(['héllo', 'wörld']);
  });

  it('detects gzip by its magic bytes even when the first chunk holds a single byte', async () => {
    const gz = new Uint8Array(gzipSync(encode('x\ny\n')));
    expect(texts(await read(gz, [1]))).toEqual(['x', 'y']);
    expect(texts(await collect(readLines(chunked(gz, [1]), { file: 'g', gzip: true })))).toEqual(['x', 'y']);
  });

  it('reads gzip as (invalid) text when gzip is false', async () => {
    const gz = new Uint8Array(gzipSync(encode('x\n')));
    await expectParseError(() => collect(readLines(chunked(gz), { file: 'g', gzip: false })), { line: 1, kind: 'invalid-utf8' });
  });

  it('reports raw byte counts as they are consumed', async () => {
    const seen: number[] = [];
    await collect(readLines(chunked(encode('abc\ndef\n'), [3]), { file: 'f', onBytes: (n) => seen.push(n) }));
    expect(seen).toEqual([3, 6, 8]);
  });

  it('throws the abort reason (not a ParseError) once the signal fires', async () => {
    const controller = new AbortController();
    const lines = readLines(chunked(encode('a\nb\nc\n'), [2]), { file: 'f', signal: controller.signal });
    expect((await lines.next()).value).toEqual({ number: 1, text: 'a' });
    controller.abort();
    await expect(lines.next()).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('turns a failing source into an io ParseError', async () => {
    async function* failing(): AsyncGenerator<Uint8Array> {
      yield encode('a\n');
      throw new Error('disk on fire');
    }
    await expectParseError(() => collect(readLines(failing(), { file: 'f' })), { file: 'f', line: 0, kind: 'io', reason: /disk on fire/ });
  });

  it('gives the same lines for any chunking, including 1-byte chunks inside UTF-8 sequences and CRLF pairs', async () => {
    const sample = encode('{"_id":"1","text":"naïve café 日本 🚀"}\r\n\r\nβ\rγ\n\uFEFF\nlast 🚀');
    const whole = await read(sample);
    expect(await read(sample, [1])).toEqual(whole);
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 1, max: 9 }), { minLength: 1, maxLength: 20 }), async (sizes) => {
        expect(await read(sample, sizes)).toEqual(whole);
      }),
    );
  });
});

/** Each line of readLineBatches decoded one by one: its text, or its ParseError's message. */
async function lineByLine(bytes: Uint8Array, sizes: number[]): Promise<string[]> {
  const out: string[] = [];
  for await (const batch of readLineBatches(chunked(bytes, sizes), { file: 'f' })) {
    for (const raw of batch) {
      try {
        out.push(`${raw.number}:${decodeLine(raw, 'f').text}`);
      } catch (error) {
        out.push(`${raw.number}:error ${(error as Error).message}`);
      }
    }
  }
  return out;
}

/** The same from readDecodedLineBatches, which decodes a chunk's lines in one call. */
async function chunkAtOnce(bytes: Uint8Array, sizes: number[]): Promise<string[]> {
  const out: string[] = [];
  for await (const batch of readDecodedLineBatches(chunked(bytes, sizes), { file: 'f' })) {
    batch.lines.forEach((line, i) => out.push(`${batch.first + i}:${typeof line === 'string' ? line : `error ${line.message}`}`));
  }
  return out;
}

describe('readDecodedLineBatches (a chunk of lines decoded in one call)', () => {
  it('gives the lines and errors of decoding line by line, for any chunking', async () => {
    // A BOM, CRLF, CR inside a line, multi-byte characters, a blank line, invalid UTF-8 on line 5, no final newline.
    const sample = new Uint8Array([...encode('\uFEFF{"a":"naïve 日本 🚀"}\r\n\r\nβ\rγ\n\uFEFF\ncaf'), 0xe9, ...encode('\r\nok\r\r\nlast 🚀')]);
    const expected = await lineByLine(sample, []);
    expect(expected).toHaveLength(7);
    expect(expected[0]).toBe('1:{"a":"naïve 日本 🚀"}');
    expect(expected[4]).toMatch(/^5:error .*byte 0xE9 at byte 4/);
    expect(expected[5]).toBe('6:ok\r');
    expect(await chunkAtOnce(sample, [])).toEqual(expected);
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 1, max: 12 }), { minLength: 1, maxLength: 20 }), async (sizes) => {
        expect(await chunkAtOnce(sample, sizes)).toEqual(await lineByLine(sample, sizes));
      }),
    );
  });

  it("says what multi-byte characters add to the lines' UTF-8 size over their UTF-16 length, for any chunking", async () => {
    const sample = encode('\uFEFFnaïve\r\n日本\n\nplain\n🚀 and é\r\nlast ö');
    const lines = ['naïve', '日本', '', 'plain', '🚀 and é', 'last ö'];
    const expected = lines.reduce((sum, line) => sum + encode(line).length - line.length, 0);
    expect(expected).toBe(1 + 4 + 2 + 1 + 1);
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 1, max: 12 }), { minLength: 0, maxLength: 20 }), async (sizes) => {
        let surplus = 0;
        const texts: Array<string | ParseError> = [];
        for await (const batch of readDecodedLineBatches(chunked(sample, sizes), { file: 'f' })) {
          surplus += batch.utf8Surplus;
          texts.push(...batch.lines);
        }
        expect(texts).toEqual(lines);
        expect(surplus).toBe(expected);
      }),
    );
  });
});

describe('firstInvalidUtf8 (RFC 3629 well-formedness, the same bytes TextDecoder rejects)', () => {
  it('locates the first bad byte', () => {
    expect(firstInvalidUtf8(encode('aé日🚀'))).toBe(-1);
    expect(firstInvalidUtf8(new Uint8Array([0x61, 0xc0, 0x80]))).toBe(1); // overlong
    expect(firstInvalidUtf8(new Uint8Array([0xed, 0xa0, 0x80]))).toBe(0); // surrogate
    expect(firstInvalidUtf8(new Uint8Array([0xf4, 0x90, 0x80, 0x80]))).toBe(0); // > U+10FFFF
    expect(firstInvalidUtf8(new Uint8Array([0x61, 0xe6, 0x97]))).toBe(1); // cut short
  });

  it('agrees with the fatal TextDecoder on arbitrary bytes', () => {
    const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 12 }), (bytes) => {
        let valid = true;
        try {
          decoder.decode(bytes);
        } catch {
          valid = false;
        }
        expect(firstInvalidUtf8(bytes) === -1).toBe(valid);
      }),
      { numRuns: 5000 },
    );
  });

  it('decodeLine throws only ParseError', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 12 }), fc.integer({ min: 1, max: 3 }), (bytes, number) => {
        try {
          decodeLine({ number, bytes }, 'f');
        } catch (error) {
          expect(error).toBeInstanceOf(ParseError);
        }
      }),
    );
  });
});

describe('readLines on a web ReadableStream', () => {
  it('cancels the stream when the reader stops early, so a download does not go on unread', async () => {
    let cancelled = false;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.enqueue(encode('line\n'));
      },
      cancel() {
        cancelled = true;
      },
    });
    for await (const line of readLines(stream, { file: 'endless' })) {
      if (line.number === 3) break;
    }
    expect(cancelled).toBe(true);
  });
});
