import { ParseError } from '../data/errors.ts';
import { readLines, type ByteSource } from '../data/lines.ts';
import type { Doc } from '../types.ts';

/**
 * A plain `.txt` or `.md` file as one document: the file name without its extension is the id, the text
 * is the file's text (lines kept, surrounding blank lines dropped). In Markdown a first line `# Heading`
 * (ATX level 1, before any other text) is the title and is left out of the text. Lines are read by the data
 * layer, so gzip, a BOM, CRLF and invalid UTF-8 (named by file and line) are handled as everywhere else.
 */

export type TextDocumentKind = 'text' | 'markdown';

export const TEXT_EXTENSIONS: Readonly<Record<string, TextDocumentKind>> = { txt: 'text', text: 'text', md: 'markdown', markdown: 'markdown' };

/** `notes/Ideas.v2.md` → `Ideas.v2`; `a/b.txt.gz` → `b`. */
export function documentIdFromPath(path: string): string {
  const name = path.slice(path.lastIndexOf('/') + 1).replace(/\.(gz|gzip)$/i, '');
  const dot = name.lastIndexOf('.');
  return dot <= 0 ? name : name.slice(0, dot);
}

const HEADING = /^#[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/;

export interface TextDocumentOptions {
  /** The path used as the document's name in messages and for its id. */
  file: string;
  kind: TextDocumentKind;
  signal?: AbortSignal;
  /** Called with the count of raw bytes consumed so far. */
  onBytes?: (bytes: number) => void;
}

/** Reads one file as one document (see the module comment). */
export async function readTextDocument(source: ByteSource, options: TextDocumentOptions): Promise<Doc> {
  const { file, kind } = options;
  const id = documentIdFromPath(file);
  if (id.trim().length === 0) throw new ParseError(file, 0, 'invalid-field', 'the file name gives an empty document id');
  const lines: string[] = [];
  let title = '';
  let seenText = false;
  for await (const line of readLines(source, { file, ...(options.signal === undefined ? {} : { signal: options.signal }), ...(options.onBytes === undefined ? {} : { onBytes: options.onBytes }) })) {
    if (!seenText && line.text.trim().length === 0) continue;
    if (!seenText && kind === 'markdown') {
      const heading = HEADING.exec(line.text);
      seenText = true;
      if (heading !== null) {
        title = heading[1]!.trim();
        continue;
      }
    }
    seenText = true;
    lines.push(line.text);
  }
  while (lines.length > 0 && lines[0]!.trim().length === 0) lines.shift();
  while (lines.length > 0 && lines.at(-1)!.trim().length === 0) lines.pop();
  return { id, title, text: lines.join('\n') };
}
