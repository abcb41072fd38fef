import { readFileSync } from 'node:fs';
import { gunzipSync, gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ParseError } from '../../../src/lib/data/errors.ts';
import { crc32, gunzip } from '../../../src/lib/data/gzip.ts';
import { shared } from '../../shared-dir.ts';
import { chunked, collect, encode, expectParseError } from './sources.ts';

async function inflate(gz: Uint8Array, sizes: number[] = []): Promise<Uint8Array> {
  const parts = await collect(gunzip(chunked(gz, sizes), 'x.gz'));
  return new Uint8Array(Buffer.concat(parts));
}

const sample = encode(Array.from({ length: 400 }, (_, i) => `{"_id":"${i}","text":"line ${i} ${'é'.repeat(i % 7)}"}\n`).join(''));
const sampleGz = new Uint8Array(gzipSync(sample));

describe('crc32', () => {
  it('matches the CRC-32 check value of "123456789" (0xCBF43926, the CRC catalogue / RFC 1952 CRC)', () => {
    expect(crc32(0, encode('123456789'))).toBe(0xcbf43926);
  });

  it('continues across pieces', () => {
    const bytes = encode('hello, world');
    expect(crc32(crc32(0, bytes.subarray(0, 5)), bytes.subarray(5))).toBe(crc32(0, bytes));
  });
});

describe('gunzip', () => {
  it('inflates what node:zlib compressed, in any chunking', async () => {
    expect(await inflate(sampleGz)).toEqual(sample);
    expect(await inflate(sampleGz, [1])).toEqual(sample);
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 1, max: 300 }), { minLength: 1, maxLength: 8 }), async (sizes) => {
        expect(await inflate(sampleGz, sizes)).toEqual(sample);
      }),
      { numRuns: 50 },
    );
  });

  it('inflates the shared SciFact corpus.jsonl.gz to the bytes of corpus.jsonl (node:zlib as the reference)', async () => {
    const gz = new Uint8Array(readFileSync(shared('beir', 'scifact', 'corpus.jsonl.gz')));
    const expected = gunzipSync(gz);
    // Buffer.equals: a deep toEqual over 8 MB of elements takes tens of seconds.
    expect(Buffer.from(await inflate(gz, [65536])).equals(expected)).toBe(true);
    expect(expected.equals(readFileSync(shared('beir', 'scifact', 'corpus.jsonl')))).toBe(true);
  });

  it('reads concatenated members (as `cat a.gz b.gz` makes), checking each trailer', async () => {
    const two = new Uint8Array([...gzipSync(encode('a\n')), ...gzipSync(encode('b\n'))]);
    expect(await inflate(two, [3])).toEqual(encode('a\nb\n'));
  });

  it('reports every truncation point as truncated-gzip, never as a short success (fflate alone misses some)', async () => {
    for (let cut = 0; cut < sampleGz.length; cut++) {
      await expectParseError(() => inflate(sampleGz.subarray(0, cut), [97]), { file: 'x.gz', line: 0, kind: 'truncated-gzip' });
    }
  });

  it('reports a cut just before the trailer as truncated-gzip', async () => {
    await expectParseError(() => inflate(sampleGz.subarray(0, sampleGz.length - 8)), { line: 0, kind: 'truncated-gzip' });
    await expectParseError(() => inflate(sampleGz.subarray(0, 5)), { line: 0, kind: 'truncated-gzip' });
  });

  it('reports a damaged checksum as invalid-gzip', async () => {
    const damaged = sampleGz.slice();
    damaged[damaged.length - 6]! ^= 0xff;
    await expectParseError(() => inflate(damaged), { line: 0, kind: 'invalid-gzip', reason: /checksum/ });
  });

  it('reports trailing garbage as invalid-gzip', async () => {
    for (const junk of [[1], [1, 2, 3], [1, 2, 3, 4, 5], [0, 0, 0, 0, 0, 0, 0, 0, 0, 0]]) {
      await expectParseError(() => inflate(new Uint8Array([...sampleGz, ...junk])), { line: 0, kind: 'invalid-gzip' });
    }
  });

  it('throws only ParseError for any flipped byte', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: sampleGz.length - 1 }), fc.integer({ min: 1, max: 255 }), async (at, mask) => {
        const damaged = sampleGz.slice();
        damaged[at]! ^= mask;
        try {
          const out = await inflate(damaged);
          // Only bytes gzip does not check (header flags/mtime/OS) may change without an error.
          expect(out).toEqual(sample);
        } catch (error) {
          expect(error).toBeInstanceOf(ParseError);
        }
      }),
      { numRuns: 300 },
    );
  });
});
