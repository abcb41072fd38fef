/**
 * Finds where a line stops being JSON (RFC 8259) and says why, in the same words in every engine: V8,
 * SpiderMonkey and JavaScriptCore word `JSON.parse` errors differently and V8 often gives no position.
 * Only called after `JSON.parse` has failed, so speed does not matter; it is iterative (an explicit stack)
 * so deeply nested input cannot overflow the call stack.
 */

export interface JsonSyntaxProblem {
  /** 1-based column (UTF-16 code units, as editors count). */
  column: number;
  problem: string;
}

const WHITESPACE = new Set([' ', '\t', '\n', '\r']);
const SIMPLE_ESCAPES = new Set(['"', '\\', '/', 'b', 'f', 'n', 'r', 't']);
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const HEX4 = /[0-9a-fA-F]{4}/y;

function describe(char: string | undefined): string {
  if (char === undefined) return 'the end of the line';
  if (char === '\uFEFF') return 'byte-order mark (U+FEFF)';
  const code = char.charCodeAt(0);
  if (code < 0x20 || code === 0x7f) return `control character U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
  return `"${char}"`;
}

class Scanner {
  i = 0;
  constructor(readonly text: string) {}

  get char(): string | undefined {
    return this.text[this.i];
  }

  skipWhitespace(): void {
    while (this.i < this.text.length && WHITESPACE.has(this.text[this.i]!)) this.i++;
  }

  fail(problem: string, at = this.i): JsonSyntaxProblem {
    return { column: at + 1, problem };
  }

  /** At an opening quote: consumes the string, or returns the problem. */
  string(): JsonSyntaxProblem | undefined {
    const start = this.i;
    this.i++;
    for (;;) {
      const c = this.char;
      if (c === undefined) return this.fail('unterminated string', start);
      if (c === '"') {
        this.i++;
        return undefined;
      }
      if (c.charCodeAt(0) < 0x20) return this.fail(`${describe(c)} inside a string (write it as an escape such as \\t or \\n)`);
      if (c === '\\') {
        const e = this.text[this.i + 1];
        if (e !== undefined && SIMPLE_ESCAPES.has(e)) this.i += 2;
        else if (e === 'u') {
          HEX4.lastIndex = this.i + 2;
          if (!HEX4.test(this.text)) return this.fail('invalid \\u escape (four hex digits expected)');
          this.i += 6;
        } else return this.fail(`invalid escape "\\${e ?? ''}"`);
      } else this.i++;
    }
  }

  /** Consumes one scalar value (string, number, literal), or returns the problem. */
  scalar(): JsonSyntaxProblem | undefined {
    const c = this.char;
    if (c === '"') return this.string();
    if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) {
      NUMBER.lastIndex = this.i;
      const match = NUMBER.exec(this.text);
      const end = match ? this.i + match[0].length : this.i;
      const next = this.text[end];
      if (!match || match[0] === '-' || (next !== undefined && /[0-9.eE+-]/.test(next))) return this.fail('invalid number');
      this.i = end;
      return undefined;
    }
    for (const literal of ['true', 'false', 'null']) {
      if (this.text.startsWith(literal, this.i)) {
        this.i += literal.length;
        return undefined;
      }
    }
    if (c === undefined) return this.fail('the line ends where a value was expected');
    return this.fail(`unexpected ${describe(c)}`);
  }

  /** After `{` or `,` inside an object: a property name and its colon. */
  key(): JsonSyntaxProblem | undefined {
    this.skipWhitespace();
    if (this.char !== '"') return this.fail(`expected a property name in double quotes, found ${describe(this.char)}`);
    const problem = this.string();
    if (problem) return problem;
    this.skipWhitespace();
    const colon = this.text[this.i];
    if (colon !== ':') return this.fail(`expected ":" after the property name, found ${describe(colon)}`);
    this.i++;
    return undefined;
  }
}

/** The first syntax error in `text`, or undefined when it is valid JSON. */
export function findJsonSyntaxError(text: string): JsonSyntaxProblem | undefined {
  const s = new Scanner(text);
  const open: ('{' | '[')[] = [];
  for (;;) {
    // A value is expected here.
    s.skipWhitespace();
    const c = s.char;
    let problem: JsonSyntaxProblem | undefined;
    let enteredContainer = false;
    if (c === '{' || c === '[') {
      s.i++;
      s.skipWhitespace();
      if (s.char === (c === '{' ? '}' : ']')) s.i++;
      else {
        open.push(c);
        enteredContainer = true;
        if (c === '{') problem = s.key();
      }
    } else problem = s.scalar();
    if (problem) return problem;
    if (enteredContainer) continue;

    // After a complete value: close containers, or move on to the next element.
    for (;;) {
      s.skipWhitespace();
      const top = open.at(-1);
      if (top === undefined) return s.char === undefined ? undefined : s.fail(`unexpected ${describe(s.char)} after the end of the JSON value`);
      const close = top === '{' ? '}' : ']';
      if (s.char === undefined) return s.fail(`the line ends inside an ${top === '{' ? 'object' : 'array'} (missing "${close}")`);
      if (s.char === close) {
        s.i++;
        open.pop();
        continue;
      }
      if (s.char !== ',') return s.fail(`expected "," or "${close}", found ${describe(s.char)}`);
      s.i++;
      if (top === '{') {
        const keyProblem = s.key();
        if (keyProblem) return keyProblem;
      }
      break;
    }
  }
}
