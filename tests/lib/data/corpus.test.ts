import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { parseCorpus, parseCorpusBatches, type CorpusParseOptions } from '../../../src/lib/data/corpus.ts';
import type { ParseError } from '../../../src/lib/data/errors.ts';
import { createParseLog, type ParseProgress } from '../../../src/lib/data/record-stream.ts';
import { chunked, collect, encode, expectParseError, webStream } from './sources.ts';

const docs = (text: string | Uint8Array, options: CorpusParseOptions = {}) =>
  collect(parseCorpus(chunked(typeof text === 'string' ? encode(text) : text), options));

const line = (record: unknown) => `${JSON.stringify(record)}\n`;

describe('parseCorpus', () => {
  it('reads _id, title, text and non-empty metadata; ignores other fields', async () => {
    const text =
      line({ _id: 'd1', title: 'T', text: 'body', metadata: {} }) +
      line({ _id: 'd2', text: 'no title', metadata: { url: 'u' }, extra: 1 }) +
      line({ _id: 'd3', title: null, text: '', metadata: null });
    expect(await docs(text)).toEqual([
      { id: 'd1', title: 'T', text: 'body' },
      { id: 'd2', title: '', text: 'no title', metadata: { url: 'u' } },
      { id: 'd3', title: '', text: '' },
    ]);
  });

  it('reads the same documents from a web ReadableStream and from gzip', async () => {
    const bytes = encode(line({ _id: 'a', title: 'é', text: '日本' }) + line({ _id: 'b', title: '', text: 'x' }));
    const expected = await docs(bytes);
    expect(await collect(parseCorpus(webStream(bytes, 5)))).toEqual(expected);
    expect(await docs(new Uint8Array(gzipSync(bytes)))).toEqual(expected);
  });

  it('ignores blank and whitespace-only lines, CRLF ends and a leading BOM', async () => {
    const text = `\uFEFF${line({ _id: '1', text: 'a' })}\r\n   \r\n\t\n${line({ _id: '2', text: 'b' }).replace('\n', '\r\n')}\n`;
    expect((await docs(text)).map((d) => d.id)).toEqual(['1', '2']);
  });

  it.each([
    ['{"title":"t","text":"x"}', 'missing-field', '"_id" is missing'],
    ['{"_id":17,"text":"x"}', 'invalid-field', '"_id" must be a string, found the number 17 (write it in quotes)'],
    ['{"_id":null,"text":"x"}', 'invalid-field', '"_id" must be a string, found null'],
    ['{"_id":["a"],"text":"x"}', 'invalid-field', '"_id" must be a string, found an array'],
    ['{"_id":"","text":"x"}', 'invalid-field', '"_id" is empty'],
    ['{"_id":"a"}', 'missing-field', '"text" is missing'],
    ['{"_id":"a","text":5}', 'invalid-field', '"text" must be a string, found a number'],
    ['{"_id":"a","title":false,"text":"x"}', 'invalid-field', '"title" must be a string, found a boolean'],
    ['{"_id":"a","text":"x","metadata":"m"}', 'invalid-field', '"metadata" must be an object, found a string'],
    ['{"_id":"a","text":"x","metadata":[1]}', 'invalid-field', '"metadata" must be an object, found an array'],
    ['["_id","a"]', 'invalid-json', 'expected a JSON object {…}, found an array'],
    ['"just a string"', 'invalid-json', 'expected a JSON object {…}, found a string'],
    ['{"_id":"a","text":"x",}', 'invalid-json', 'invalid JSON (expected a property name in double quotes, found "}" at column 23)'],
    ['{"_id": "a", "text": "unterminated}', 'invalid-json', 'invalid JSON (unterminated string at column 22)'],
  ] as const)('line 2 %s → %s: %s', async (bad, kind, reason) => {
    const text = line({ _id: 'ok', text: 'fine' }) + bad + '\n' + line({ _id: 'ok2', text: 'fine' });
    const error = await expectParseError(() => docs(text), { file: 'corpus.jsonl', line: 2, kind, reason });
    expect(error.message).toBe(`corpus.jsonl:2: ${reason}`);
  });

  it('counts lines as an editor does: blank lines, CRLF and the BOM do not shift the number', async () => {
    const text = `\uFEFF${JSON.stringify({ _id: 'a', text: 'x' })}\r\n\r\n{"_id":"b"}\r\n`;
    await expectParseError(() => docs(text, { file: 'c.jsonl' }), { file: 'c.jsonl', line: 3, kind: 'missing-field' });
  });

  it('reports invalid UTF-8 with its line', async () => {
    const bytes = new Uint8Array([...encode(line({ _id: 'a', text: 'x' }) + '{"_id":"b","text":"caf'), 0xe9, ...encode('"}\n')]);
    await expectParseError(() => docs(bytes), { line: 2, kind: 'invalid-utf8' });
  });

  it('keeps the first of duplicate ids and logs the later ones with both line numbers', async () => {
    const log = createParseLog();
    const text = line({ _id: 'a', text: 'first' }) + line({ _id: 'b', text: 'x' }) + '\n' + line({ _id: 'a', text: 'second' }) + line({ _id: 'a', text: 'third' });
    expect(await docs(text, { log, file: 'c.jsonl' })).toEqual([
      { id: 'a', title: '', text: 'first' },
      { id: 'b', title: '', text: 'x' },
    ]);
    expect(log.duplicates).toEqual([
      { file: 'c.jsonl', id: 'a', line: 4, firstLine: 1 },
      { file: 'c.jsonl', id: 'a', line: 5, firstLine: 1 },
    ]);
    expect(log).toMatchObject({ file: 'c.jsonl', lines: 5, records: 2, skipped: [] });
  });

  it("with onError 'skip' drops bad lines, keeps their ParseErrors and goes on", async () => {
    const log = createParseLog();
    const text = line({ _id: 'a', text: 'x' }) + '{"_id": 1, "text": "x"}\n{oops\n' + line({ _id: 'b', text: 'y' });
    expect((await docs(text, { onError: 'skip', log })).map((d) => d.id)).toEqual(['a', 'b']);
    expect(log.skipped.map((e: ParseError) => [e.line, e.kind])).toEqual([
      [2, 'invalid-field'],
      [3, 'invalid-json'],
    ]);
    expect(log.records).toBe(2);
  });

  it("with onError 'skip' skips invalid UTF-8 lines too and reads on", async () => {
    const log = createParseLog();
    const bytes = new Uint8Array([...encode('{"_id":"'), 0xff, ...encode('","text":"x"}\n' + line({ _id: 'b', text: 'y' }))]);
    expect((await docs(bytes, { onError: 'skip', log })).map((d) => d.id)).toEqual(['b']);
    expect(log.skipped.map((e) => [e.line, e.kind])).toEqual([[1, 'invalid-utf8']]);
  });

  it("gives up with too-many-errors when 'skip' meets more bad lines than maxSkipped", async () => {
    const log = createParseLog();
    await expectParseError(() => docs('x\n'.repeat(10), { onError: 'skip', log, maxSkipped: 3 }), { line: 4, kind: 'too-many-errors' });
    expect(log.skipped).toHaveLength(4);
  });

  it.each([
    ['zero bytes', ''],
    ['only blank lines', '\n  \r\n\n'],
    ['only a BOM', '\uFEFF'],
  ])('rejects an empty file (%s) as empty-file', async (_, text) => {
    await expectParseError(() => docs(text), { file: 'corpus.jsonl', line: 0, kind: 'empty-file', reason: 'the file holds no documents' });
  });

  it('rejects a file whose every line was skipped as empty-file, saying how many were skipped', async () => {
    await expectParseError(() => docs('x\ny\n', { onError: 'skip', log: createParseLog() }), {
      line: 0,
      kind: 'empty-file',
      reason: 'the file holds no documents (2 bad lines skipped)',
    });
  });

  it('reports truncated gzip as truncated-gzip, even under skip', async () => {
    const gz = gzipSync(encode(Array.from({ length: 300 }, (_, i) => line({ _id: `d${i}`, text: `text ${i}` })).join('')));
    const cut = new Uint8Array(gz.subarray(0, gz.length - 30));
    await expectParseError(() => docs(cut), { file: 'corpus.jsonl', line: 0, kind: 'truncated-gzip' });
    await expectParseError(() => docs(cut, { onError: 'skip', log: createParseLog() }), { line: 0, kind: 'truncated-gzip' });
  });

  it('reports progress with lines and raw bytes, ending with the totals', async () => {
    const text = encode(line({ _id: 'a', text: 'x' }) + '\n' + line({ _id: 'b', text: 'y' }));
    const seen: ParseProgress[] = [];
    await collect(parseCorpus(chunked(text, [10]), { file: 'c', onProgress: (p) => seen.push(p) }));
    expect(seen.at(-1)).toEqual({ file: 'c', lines: 3, bytes: text.length });
    for (let i = 1; i < seen.length; i++) {
      expect(seen[i]!.lines).toBeGreaterThanOrEqual(seen[i - 1]!.lines);
      expect(seen[i]!.bytes).toBeGreaterThanOrEqual(seen[i - 1]!.bytes);
    }
  });

  it('stops with the abort reason when cancelled', async () => {
    const controller = new AbortController();
    const text = encode(Array.from({ length: 50 }, (_, i) => line({ _id: `d${i}`, text: 'x' })).join(''));
    const parsed = parseCorpus(chunked(text, [64]), { signal: controller.signal });
    await parsed.next();
    controller.abort(new Error('user cancelled'));
    await expect(collect(parsed)).rejects.toThrow('user cancelled');
  });
});

describe('parseCorpusBatches (a chunk of lines at a time, for the importer)', () => {
  const text = line({ _id: 'a', text: 'x' }) + line({ _id: 'b', text: 'é' }) + '\n' + line({ _id: 'a', text: 'dup' }) + line({ _id: 'c', text: '日本' });

  it('gives the documents of parseCorpus, in order, one batch per chunk read', async () => {
    const expected = await docs(text);
    const batches = await collect(parseCorpusBatches(chunked(encode(text), [9])));
    expect(batches.flatMap((batch) => batch.docs)).toEqual(expected);
    expect(batches.length).toBeGreaterThan(1);
    // 'é' adds 1 byte, '日本' 4 (the duplicate's line holds none); the sum is the same however the file is cut.
    expect(batches.reduce((sum, batch) => sum + (batch.utf8Surplus ?? 0), 0)).toBe(5);
    expect(await collect(parseCorpusBatches(chunked(encode(text))))).toEqual([{ docs: expected, utf8Surplus: 5 }]);
  });

  it("hands over the documents before a bad line, then throws the line's error", async () => {
    const bad = line({ _id: 'a', text: 'x' }) + line({ _id: 'b', text: 'y' }) + '{"_id": 3}\n' + line({ _id: 'c', text: 'z' });
    const batches = parseCorpusBatches(chunked(encode(bad)), { file: 'c.jsonl' });
    expect((await batches.next()).value?.docs).toEqual([
      { id: 'a', title: '', text: 'x' },
      { id: 'b', title: '', text: 'y' },
    ]);
    await expect(batches.next()).rejects.toMatchObject({ file: 'c.jsonl', line: 3 });
  });
});
