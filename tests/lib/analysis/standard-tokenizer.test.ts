// Expected tokens below were recorded from Lucene 8.7's StandardTokenizer (Debian liblucene8-java, the
// build that produced the shared reference tokens), not derived from this implementation.
import { describe, expect, it } from 'vitest';
import {
  MAX_TOKEN_LENGTH,
  standardTokenize,
  type TokenType,
} from '../../../src/lib/analysis/standard-tokenizer.ts';
import { ATTRIBUTES, CLASS_COUNT, ROW_MAP, TRANSITIONS } from '../../../src/lib/analysis/tables/standard-tokenizer-dfa.ts';

type Expected = [text: string, start: number, end: number, type: TokenType];

function tokens(text: string): Expected[] {
  return standardTokenize(text).map((t) => [t.text, t.start, t.end, t.type]);
}

describe('standardTokenize (Lucene 8.7 StandardTokenizer)', () => {
  it('keeps numbers with dots and commas together, splits at hyphens', () => {
    expect(tokens('3.5 and 1,000 items; 1.000,5 and 2020-01-05, version 3.5.1.')).toEqual([
      ['3.5', 0, 3, '<NUM>'],
      ['and', 4, 7, '<ALPHANUM>'],
      ['1,000', 8, 13, '<NUM>'],
      ['items', 14, 19, '<ALPHANUM>'],
      ['1.000,5', 21, 28, '<NUM>'],
      ['and', 29, 32, '<ALPHANUM>'],
      ['2020', 33, 37, '<NUM>'],
      ['01', 38, 40, '<NUM>'],
      ['05', 41, 43, '<NUM>'],
      ['version', 45, 52, '<ALPHANUM>'],
      ['3.5.1', 53, 58, '<NUM>'],
    ]);
  });

  it('keeps inner apostrophes, drops trailing ones', () => {
    expect(tokens("don't O'Neil's students' it’s")).toEqual([
      ["don't", 0, 5, '<ALPHANUM>'],
      ["O'Neil's", 6, 14, '<ALPHANUM>'],
      ['students', 15, 23, '<ALPHANUM>'],
      ['it’s', 25, 29, '<ALPHANUM>'],
    ]);
  });

  it('keeps dots between letters (abbreviations) but not a final dot', () => {
    expect(tokens('e.g. U.S.A. i.e.,')).toEqual([
      ['e.g', 0, 3, '<ALPHANUM>'],
      ['U.S.A', 5, 10, '<ALPHANUM>'],
      ['i.e', 12, 15, '<ALPHANUM>'],
    ]);
  });

  it('splits URLs and e-mail addresses like other text (no URL/EMAIL types)', () => {
    expect(tokens('see http://example.com/a_b?x=1 or mail user@example.com')).toEqual([
      ['see', 0, 3, '<ALPHANUM>'],
      ['http', 4, 8, '<ALPHANUM>'],
      ['example.com', 11, 22, '<ALPHANUM>'],
      ['a_b', 23, 26, '<ALPHANUM>'],
      ['x', 27, 28, '<ALPHANUM>'],
      ['1', 29, 30, '<NUM>'],
      ['or', 31, 33, '<ALPHANUM>'],
      ['mail', 34, 38, '<ALPHANUM>'],
      ['user', 39, 43, '<ALPHANUM>'],
      ['example.com', 44, 55, '<ALPHANUM>'],
    ]);
  });

  it('splits at hyphens and symbols, joins with underscores', () => {
    expect(tokens('wi-fi IL-6 TNF-α foo_bar _x_ C++ C# $100 50% 1st')).toEqual([
      ['wi', 0, 2, '<ALPHANUM>'],
      ['fi', 3, 5, '<ALPHANUM>'],
      ['IL', 6, 8, '<ALPHANUM>'],
      ['6', 9, 10, '<NUM>'],
      ['TNF', 11, 14, '<ALPHANUM>'],
      ['α', 15, 16, '<ALPHANUM>'],
      ['foo_bar', 17, 24, '<ALPHANUM>'],
      ['_x_', 25, 28, '<ALPHANUM>'],
      ['C', 29, 30, '<ALPHANUM>'],
      ['C', 33, 34, '<ALPHANUM>'],
      ['100', 37, 40, '<NUM>'],
      ['50', 41, 43, '<NUM>'],
      ['1st', 45, 48, '<ALPHANUM>'],
    ]);
  });

  it('emits one token per ideograph and hiragana, runs of katakana, hangul and Thai', () => {
    expect(tokens('中文ひらがなカタカナ한국어ภาษาไทย')).toEqual([
      ['中', 0, 1, '<IDEOGRAPHIC>'],
      ['文', 1, 2, '<IDEOGRAPHIC>'],
      ['ひ', 2, 3, '<HIRAGANA>'],
      ['ら', 3, 4, '<HIRAGANA>'],
      ['が', 4, 5, '<HIRAGANA>'],
      ['な', 5, 6, '<HIRAGANA>'],
      ['カタカナ', 6, 10, '<KATAKANA>'],
      ['한국어', 10, 13, '<HANGUL>'],
      ['ภาษาไทย', 13, 20, '<SOUTHEAST_ASIAN>'],
    ]);
  });

  it('emits emoji sequences and pictographic symbols as EMOJI tokens', () => {
    expect(tokens('I ❤️ 👍🏽 🇺🇸 👨‍👩‍👧 ©®™ ↔ #️⃣ 😀😀')).toEqual([
      ['I', 0, 1, '<ALPHANUM>'],
      ['❤️', 2, 4, '<EMOJI>'],
      ['👍🏽', 5, 9, '<EMOJI>'],
      ['🇺🇸', 10, 14, '<EMOJI>'],
      ['👨‍👩‍👧', 15, 23, '<EMOJI>'],
      ['©', 24, 25, '<EMOJI>'],
      ['®', 25, 26, '<EMOJI>'],
      ['™', 26, 27, '<EMOJI>'],
      ['↔', 28, 29, '<EMOJI>'],
      ['#️⃣', 30, 33, '<EMOJI>'],
      ['😀', 34, 36, '<EMOJI>'],
      ['😀', 36, 38, '<EMOJI>'],
    ]);
  });

  it('treats full-width letters and digits and accented letters as word characters', () => {
    expect(tokens('ＡＢＣ１２３ café naïve')).toEqual([
      ['ＡＢＣ１２３', 0, 6, '<ALPHANUM>'],
      ['café', 7, 11, '<ALPHANUM>'],
      ['naïve', 12, 17, '<ALPHANUM>'],
    ]);
  });

  it('cuts tokens longer than maxTokenLength (255) into pieces', () => {
    expect(MAX_TOKEN_LENGTH).toBe(255);
    const spans = standardTokenize('a'.repeat(600)).map((t) => [t.start, t.end]);
    expect(spans).toEqual([
      [0, 255],
      [255, 510],
      [510, 600],
    ]);
  });

  it('looks at most 255 units ahead: a window ending inside a surrogate pair ends one unit earlier', () => {
    expect(tokens('x'.repeat(254) + '😀abc').map(([, s, e, type]) => [s, e, type])).toEqual([
      [0, 254, '<ALPHANUM>'],
      [254, 256, '<EMOJI>'],
      [256, 259, '<ALPHANUM>'],
    ]);
    // Lucene cuts a long number where the window ends and skips the separator after it.
    expect(tokens('1,'.repeat(200)).map(([, s, e, type]) => [s, e, type])).toEqual([
      [0, 255, '<NUM>'],
      [256, 399, '<NUM>'],
    ]);
  });

  it('reproduces the scanner quirk on a text ending with an unpaired high surrogate', () => {
    // JFlex's refill reports end of input when a short final read ends in a high surrogate, so the last
    // buffer's tokens are lost: Lucene returns no token at all for this text.
    expect(tokens('ab \ud800')).toEqual([]);
    expect(tokens('a'.repeat(300) + '\ud800').map(([, s, e]) => [s, e])).toEqual([[0, 255]]);
  });

  it('has a match for every character class from the start state, so scanning never fails', () => {
    // The tables the scanner runs: JFlex's attribute bit 1 marks an accepting state, -1 no transition.
    const ACCEPTING = 1;
    const stuck: number[] = [];
    for (let cls = 0; cls < CLASS_COUNT; cls++) {
      const next = TRANSITIONS[(ROW_MAP[0] ?? 0) + cls] ?? -1;
      if (next < 0 || !((ATTRIBUTES[next] ?? 0) & ACCEPTING)) stuck.push(cls);
    }
    expect(stuck).toEqual([]);
  });

  it('returns nothing for empty or separator-only text', () => {
    expect(standardTokenize('')).toEqual([]);
    expect(standardTokenize(' \n\t.,;!?-—')).toEqual([]);
  });
});
