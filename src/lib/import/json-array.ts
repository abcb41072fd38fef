import { ParseError } from '../data/errors.ts';

/**
 * Splitting a JSON array (`[ {…}, {…} ]`, Pyserini's JSON collection as one `.json` file) into its
 * elements as the file's lines arrive, so a large array is never parsed whole. Each element is handed on as
 * its own JSON text with the line it starts on and its position in the array, so an error can name both
 * ("docs.json:12: … (array element 4)"). Only the array's structure is checked here (brackets, strings,
 * commas); each element's own syntax is left to JSON.parse.
 */

export interface ArrayElement {
  /** The element's JSON text (one line or several joined by "\n"). */
  text: string;
  /** The 1-based line the element starts on. */
  line: number;
  /** The 1-based position in the array. */
  index: number;
}

type State = 'before' | 'expect-element' | 'in-element' | 'after-element' | 'done';

export class JsonArraySplitter {
  private state: State = 'before';
  private parts: string[] = [];
  private depth = 0;
  private inString = false;
  private escaped = false;
  private startLine = 0;
  private count = 0;
  private lastLine = 0;

  constructor(private readonly file: string) {}

  /** Feeds one line; returns the elements it completes. */
  push(text: string, line: number): ArrayElement[] {
    this.lastLine = line;
    const out: ArrayElement[] = [];
    let segmentStart = this.state === 'in-element' ? 0 : -1;
    for (let i = 0; i < text.length; i++) {
      const char = text[i]!;
      if (this.state === 'in-element') {
        if (this.inString) {
          if (this.escaped) this.escaped = false;
          else if (char === '\\') this.escaped = true;
          else if (char === '"') this.inString = false;
          continue;
        }
        if (char === '"') this.inString = true;
        else if (char === '{' || char === '[') this.depth += 1;
        else if (char === '}' || char === ']') {
          if (this.depth === 0) {
            // The element was a bare value (a number, a string) ended by the array's "]".
            this.finishElement(text.slice(segmentStart, i), out);
            this.state = 'done';
            continue;
          }
          this.depth -= 1;
          if (this.depth === 0) {
            this.finishElement(text.slice(segmentStart, i + 1), out);
            this.state = 'after-element';
          }
        } else if (char === ',' && this.depth === 0) {
          this.finishElement(text.slice(segmentStart, i), out);
          this.state = 'expect-element';
        }
        continue;
      }
      if (/\s/.test(char) || char === '\uFEFF') continue;
      switch (this.state) {
        case 'before':
          if (char !== '[') throw new ParseError(this.file, line, 'invalid-json', `expected a JSON array "[" or one object per line, found ${JSON.stringify(char)}`);
          this.state = 'expect-element';
          break;
        case 'expect-element':
          if (char === ']' && this.count === 0) {
            this.state = 'done';
            break;
          }
          if (char === ']' || char === ',') throw new ParseError(this.file, line, 'invalid-json', `unexpected ${JSON.stringify(char)} where array element ${this.count + 1} should start`);
          this.state = 'in-element';
          this.startLine = line;
          this.parts = [];
          segmentStart = i;
          this.depth = 0;
          this.inString = false;
          i -= 1; // read the element's first character in the element state
          break;
        case 'after-element':
          if (char === ',') this.state = 'expect-element';
          else if (char === ']') this.state = 'done';
          else throw new ParseError(this.file, line, 'invalid-json', `expected "," or "]" after array element ${this.count}, found ${JSON.stringify(char)}`);
          break;
        case 'done':
          throw new ParseError(this.file, line, 'invalid-json', `text after the end of the array (${JSON.stringify(char)})`);
      }
    }
    if (this.state === 'in-element') this.parts.push(text.slice(Math.max(0, segmentStart)));
    return out;
  }

  private finishElement(tail: string, out: ArrayElement[]): void {
    this.parts.push(tail);
    this.count += 1;
    out.push({ text: this.parts.join('\n'), line: this.startLine, index: this.count });
    this.parts = [];
  }

  /** Elements completed so far. */
  get elements(): number {
    return this.count;
  }

  /** Checks the array was closed (call at the end of the file). */
  finish(): void {
    if (this.state === 'before') return; // an empty file: the reader reports it
    if (this.state !== 'done') throw new ParseError(this.file, this.lastLine, 'invalid-json', 'the JSON array is not closed (missing "]" at the end of the file)');
  }
}

/** The first non-blank character of a text: `[` marks an array, `{` one object per line. */
export function startsWithArray(text: string): boolean {
  return /^[\s\uFEFF]*\[/.test(text);
}
