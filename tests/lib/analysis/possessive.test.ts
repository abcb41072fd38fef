import { describe, expect, it } from 'vitest';
import { stripPossessive } from '../../../src/lib/analysis/possessive.ts';

// Lucene 8.x EnglishPossessiveFilter: a trailing apostrophe (' U+0027, ’ U+2019, ＇ U+FF07) + s or S.
describe('stripPossessive (EnglishPossessiveFilter)', () => {
  it.each([
    ["John's", 'John'],
    ['JOHN’S', 'JOHN'],
    ['cell＇s', 'cell'],
    ["'s", ''],
    ["O'Neil's", "O'Neil"],
  ])('%s → %s', (token, expected) => {
    expect(stripPossessive(token)).toBe(expected);
  });

  it.each(["don't", "students'", 's', "John`s", 'John‘s', 'boss', "it'S'"])('leaves %s alone', (token) => {
    expect(stripPossessive(token)).toBe(token);
  });
});
