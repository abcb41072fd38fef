import { gzipSync, strToU8 } from 'fflate';
import { describe, expect, test } from 'vitest';
import { ParseError } from '../../../src/lib/data/errors.ts';
import { bytesSource } from '../../../src/lib/import/import-file.ts';
import { documentIdFromPath, readTextDocument, type TextDocumentKind } from '../../../src/lib/import/text-documents.ts';

const read = (file: string, content: string | Uint8Array, kind: TextDocumentKind = file.endsWith('.md') ? 'markdown' : 'text') =>
  readTextDocument(bytesSource(typeof content === 'string' ? strToU8(content) : content, 5), { file, kind });

describe('a text file as one document', () => {
  test('ids are file names without the extension', () => {
    expect(documentIdFromPath('notes/bread.txt')).toBe('bread');
    expect(documentIdFromPath('notes.zip/a/Ideas.v2.md')).toBe('Ideas.v2');
    expect(documentIdFromPath('x/b.txt.gz')).toBe('b');
    expect(documentIdFromPath('README')).toBe('README');
  });

  test('a .txt file: all its text, lines kept, surrounding blank lines dropped, no title', async () => {
    expect(await read('notes/bread.txt', '\n\nSourdough rises slowly.\n\nIt needs a starter.\n\n')).toEqual({ id: 'bread', title: '', text: 'Sourdough rises slowly.\n\nIt needs a starter.' });
  });

  test('a .txt file whose first line starts with "#" keeps it as text', async () => {
    expect(await read('a.txt', '# not a title\nbody')).toEqual({ id: 'a', title: '', text: '# not a title\nbody' });
  });

  test('Markdown: a first "# heading" is the title; BOM and CRLF are handled', async () => {
    expect(await read('tea.md', '\uFEFF\r\n# Green tea  #\r\n\r\nGreen tea is *steamed*.\r\n## Kinds\r\nSencha.\r\n')).toEqual({ id: 'tea', title: 'Green tea', text: 'Green tea is *steamed*.\n## Kinds\nSencha.' });
  });

  test('Markdown without a level-1 heading first has no title', async () => {
    expect(await read('rice.md', 'Rice is boiled.\n# Late heading\n')).toEqual({ id: 'rice', title: '', text: 'Rice is boiled.\n# Late heading' });
    expect(await read('r2.md', '## Second level\ntext')).toEqual({ id: 'r2', title: '', text: '## Second level\ntext' });
  });

  test('an empty file is an empty document (the validation report lists it)', async () => {
    expect(await read('empty.txt', '')).toEqual({ id: 'empty', title: '', text: '' });
  });

  test('gzip is read through', async () => {
    expect((await read('z.txt.gz', gzipSync(strToU8('compressed words\n')))).text).toBe('compressed words');
  });

  test('invalid UTF-8 names the file and the line', async () => {
    const bytes = new Uint8Array([...strToU8('first line\nsecond line\nCaf'), 0xe9, ...strToU8(' au lait\n')]);
    const error = await read('notes/latin1.txt', bytes).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(ParseError);
    expect((error as ParseError).message).toMatch(/^notes\/latin1\.txt:3: the line is not valid UTF-8 \(byte 0xE9 at byte 4\)/);
  });
});
