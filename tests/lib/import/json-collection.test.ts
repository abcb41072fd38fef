import { gzipSync, strToU8 } from 'fflate';
import { describe, expect, test } from 'vitest';
import { ParseError } from '../../../src/lib/data/errors.ts';
import { createParseLog } from '../../../src/lib/data/record-stream.ts';
import { bytesSource } from '../../../src/lib/import/import-file.ts';
import { parseJsonCollection } from '../../../src/lib/import/json-collection.ts';
import type { Doc } from '../../../src/lib/types.ts';

const PYSERINI = { id: 'id', text: 'contents', title: null };
const source = (text: string | Uint8Array, chunk = 7) => bytesSource(typeof text === 'string' ? strToU8(text) : text, chunk);

async function docs(text: string | Uint8Array, file = 'docs.json'): Promise<Doc[]> {
  const out: Doc[] = [];
  for await (const doc of parseJsonCollection(source(text), { file, fields: PYSERINI })) out.push(doc);
  return out;
}

async function failure(text: string | Uint8Array, file = 'docs.json'): Promise<ParseError> {
  try {
    await docs(text, file);
  } catch (error) {
    if (error instanceof ParseError) return error;
    throw error;
  }
  throw new Error('expected a ParseError');
}

describe('Pyserini JSON collection files', () => {
  test('one object per line', async () => {
    expect(await docs('{"id":"a","contents":"first"}\n\n{"id":"b","contents":"second"}\n')).toEqual([
      { id: 'a', title: '', text: 'first' },
      { id: 'b', title: '', text: 'second' },
    ]);
  });

  test('an array over many lines, read in small chunks, BOM and CRLF included', async () => {
    const text = '\uFEFF[\r\n  {\r\n    "id": "a",\r\n    "contents": "first, with [brackets] and {braces}"\r\n  },\r\n  {"id": "b", "contents": "escaped \\" quote ]"}\r\n]\r\n';
    expect(await docs(text)).toEqual([
      { id: 'a', title: '', text: 'first, with [brackets] and {braces}' },
      { id: 'b', title: '', text: 'escaped " quote ]' },
    ]);
  });

  test('an array on one line, gzipped', async () => {
    const text = JSON.stringify([{ id: 'x', contents: 'one' }, { id: 'y', contents: 'two' }, { id: 'z', contents: 'three' }]);
    expect((await docs(gzipSync(strToU8(text)))).map((doc) => doc.id)).toEqual(['x', 'y', 'z']);
  });

  test('an empty array is an empty file', async () => {
    const error = await failure('[ ]\n');
    expect(error.kind).toBe('empty-file');
    expect(error.message).toBe('docs.json: the file holds no documents');
  });

  test('a bad element names the line it starts on and its place in the array', async () => {
    const text = ['[', '{"id":"a","contents":"x"},', '{"id":"b",', ' "text":"wrong field"},', '{"id":"c","contents":"z"}', ']'].join('\n');
    const error = await failure(text);
    expect(error.message).toBe('docs.json:3: "contents" is missing (array element 2)');
    expect(error.kind).toBe('missing-field');
  });

  test('elements on one line share it; the position tells them apart', async () => {
    const error = await failure('[{"id":"a","contents":"x"}, {"id":5,"contents":"y"}]');
    expect(error.message).toBe('docs.json:1: "id" must be a string, found the number 5 (write it in quotes) (array element 2)');
  });

  test('invalid JSON inside an element', async () => {
    const error = await failure('[\n{"id":"a","contents":"x"},\n{"id":"b","contents": nope}\n]');
    expect(error.line).toBe(3);
    expect(error.kind).toBe('invalid-json');
    expect(error.reason).toMatch(/^invalid JSON \(.*\) \(array element 2\)$/);
  });

  test('a missing "]" and text after the array break the file', async () => {
    expect((await failure('[\n{"id":"a","contents":"x"},\n{"id":"b","contents":"y"}\n')).message).toBe('docs.json:3: the JSON array is not closed (missing "]" at the end of the file)');
    expect((await failure('[{"id":"a","contents":"x"}]\n{"id":"b"}')).message).toBe('docs.json:2: text after the end of the array ("{")');
    expect((await failure('[{"id":"a","contents":"x"},,{"id":"b","contents":"y"}]')).message).toBe('docs.json:1: unexpected "," where array element 2 should start');
  });

  test('a bad line among lines names the file and the line; with skip, the rest is read and the line listed', async () => {
    const text = '{"id":"a","contents":"x"}\n{"id":"b","contents":"y"\n{"contents":"no id"}\n{"id":"d","contents":"w"}\n';
    const error = await failure(text, 'collection/part1.json');
    expect(error.message).toMatch(/^collection\/part1\.json:2: invalid JSON/);
    const log = createParseLog();
    const kept: string[] = [];
    for await (const doc of parseJsonCollection(source(text), { file: 'collection/part1.json', fields: PYSERINI, onError: 'skip', log })) kept.push(doc.id);
    expect(kept).toEqual(['a', 'd']);
    expect(log.skipped.map((skipped) => skipped.message)).toEqual([expect.stringMatching(/^collection\/part1\.json:2: invalid JSON/), 'collection/part1.json:3: "id" is missing']);
  });

  test('invalid UTF-8 in a line is that line\'s problem', async () => {
    const bytes = new Uint8Array([...strToU8('{"id":"a","contents":"x"}\n{"id":"b","contents":"caf'), 0xe9, ...strToU8('"}\n')]);
    const error = await failure(bytes);
    expect(error.kind).toBe('invalid-utf8');
    expect(error.line).toBe(2);
  });

  test('duplicate ids: the first is kept and the later one listed', async () => {
    const log = createParseLog();
    const kept: string[] = [];
    for await (const doc of parseJsonCollection(source('[{"id":"a","contents":"1"},\n{"id":"a","contents":"2"}]'), { file: 'd.json', fields: PYSERINI, log })) kept.push(doc.text);
    expect(kept).toEqual(['1']);
    expect(log.duplicates).toEqual([{ file: 'd.json', id: 'a', line: 2, firstLine: 1 }]);
  });
});
