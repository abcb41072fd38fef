import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findJsonSyntaxError } from '../../../src/lib/data/json-syntax.ts';

function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

describe('findJsonSyntaxError', () => {
  it.each([
    ['{"_id": }', 9, 'unexpected "}"'],
    ['{"_id":"1",}', 12, 'expected a property name in double quotes, found "}"'],
    ['{"_id":"1"', 11, 'the line ends inside an object (missing "}")'],
    ['{_id:1}', 2, 'expected a property name in double quotes, found "_"'],
    ['{"a" 1}', 6, 'expected ":" after the property name, found "1"'],
    ['{"a":"x\ty"}', 8, 'control character U+0009 inside a string (write it as an escape such as \\t or \\n)'],
    ['{"a":"x\\qy"}', 8, 'invalid escape "\\q"'],
    ['{"a":"\\u12g4"}', 7, 'invalid \\u escape (four hex digits expected)'],
    ['{"a":"abc', 6, 'unterminated string'],
    ['{"a":01}', 6, 'invalid number'],
    ['{"a":-}', 6, 'invalid number'],
    ['{"a":1.}', 6, 'invalid number'],
    ['{"a":tru}', 6, 'unexpected "t"'],
    ['{"a":1} x', 9, 'unexpected "x" after the end of the JSON value'],
    ['[1,]', 4, 'unexpected "]"'],
    ['[1 2]', 4, 'expected "," or "]", found "2"'],
    ['\uFEFF{}', 1, 'unexpected byte-order mark (U+FEFF)'],
    ['', 1, 'the line ends where a value was expected'],
  ])('%j → column %i: %s', (text, column, problem) => {
    expect(parses(text)).toBe(false);
    expect(findJsonSyntaxError(text)).toEqual({ column, problem });
  });

  it('finds nothing in valid JSON, deeply nested included', () => {
    expect(findJsonSyntaxError('{"a":[1,-2.5e+3,true,false,null,{"b":"\\u00e9\\n"}],"c":{}}')).toBeUndefined();
    expect(findJsonSyntaxError(`${'['.repeat(100_000)}${']'.repeat(100_000)}`)).toBeUndefined();
  });

  it('agrees with JSON.parse on valid JSON', () => {
    fc.assert(
      fc.property(fc.json({ stringUnit: 'binary' }), (text) => {
        expect(findJsonSyntaxError(text)).toBeUndefined();
      }),
    );
  });

  it('agrees with JSON.parse on damaged JSON (a character inserted, deleted or replaced)', () => {
    const damaged = fc
      .tuple(fc.json({ maxDepth: 3 }), fc.nat(), fc.constantFrom('insert', 'delete', 'replace'), fc.constantFrom(...'{}[],:"\\ 0-.eE+tfnu\t\u0001x'))
      .map(([text, at, edit, char]) => {
        const i = at % (text.length + 1);
        if (edit === 'insert') return text.slice(0, i) + char + text.slice(i);
        if (edit === 'delete') return text.slice(0, i) + text.slice(i + 1);
        return text.slice(0, i) + char + text.slice(i + 1);
      });
    fc.assert(
      fc.property(damaged, (text) => {
        expect(findJsonSyntaxError(text) === undefined).toBe(parses(text));
      }),
      { numRuns: 5000 },
    );
  });
});
