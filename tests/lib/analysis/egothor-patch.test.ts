// Expected values follow Lucene's org.egothor.stemmer.Diff.apply on a StringBuilder (Lucene 8.7), including
// where it stops at its first out-of-range instruction and keeps the changes made so far.
import { describe, expect, it } from 'vitest';
import { applyPatch } from '../../../src/lib/analysis/egothor-patch.ts';

describe('applyPatch (Egothor Diff.apply)', () => {
  it('works from the end of the word: delete, replace, insert, skip', () => {
    expect(applyPatch('teacher', 'Db')).toBe('teach');
    expect(applyPatch('pocztą', 'Ra')).toBe('poczta');
    expect(applyPatch('katalogów', 'Db')).toBe('katalog');
    expect(applyPatch('abcd', 'RxIy')).toBe('abcyx');
    expect(applyPatch('abcd', '-bRx')).toBe('axcd');
    expect(applyPatch('abc', '')).toBe('abc');
  });

  it('ignores a trailing odd character, as the loop runs over length / 2 pairs', () => {
    expect(applyPatch('abcd', 'Dax')).toBe('abc');
  });

  it('keeps what was done when an instruction falls outside the word', () => {
    // Replace at position −1 fails after the delete took place.
    expect(applyPatch('ab', 'DbRx')).toBe('');
    // Skipping past the start leaves the word; a later delete at a negative start fails.
    expect(applyPatch('abc', '-eDa')).toBe('abc');
    // Insert at offset 0 (before the first character) is allowed.
    expect(applyPatch('ab', '-bIx')).toBe('xab');
    // Delete of more characters than remain before the position fails and changes nothing.
    expect(applyPatch('abc', 'De')).toBe('abc');
  });

  it('leaves an empty word empty', () => {
    expect(applyPatch('', 'Db')).toBe('');
  });
});
