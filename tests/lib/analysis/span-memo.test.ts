import { describe, expect, it } from 'vitest';
import { englishAnalyzer, englishTerm } from '../../../src/lib/analysis/english-analyzer.ts';
import { NO_TERM, SpanMemo } from '../../../src/lib/analysis/span-memo.ts';
import { scanStandardTokens } from '../../../src/lib/analysis/standard-tokenizer.ts';
import { loadDataset } from '../../../src/cli/dataset.ts';
import { shared } from '../../shared-dir.ts';

describe('SpanMemo', () => {
  it('gives every SciFact token the term of the filter chain, and one number per distinct term', async () => {
    const collection = await loadDataset(shared('beir', 'scifact'), { splits: ['test'] });
    const memo = new SpanMemo(englishTerm);
    const numberOf = new Map<string, number>();
    let tokens = 0;
    const mismatches: string[] = [];
    for (const doc of collection.docs) {
      const text = `${doc.title} ${doc.text}`;
      scanStandardTokens(text, (start, end) => {
        tokens += 1;
        const expected = englishTerm(text.slice(start, end));
        const number = memo.termNumber(text, start, end);
        if (expected !== null && !numberOf.has(expected)) numberOf.set(expected, number);
        const ok = expected === null ? number === NO_TERM : memo.term(number) === expected && number === numberOf.get(expected);
        if (!ok && mismatches.length < 10) mismatches.push(`${doc.id}: ${text.slice(start, end)}`);
      });
    }
    expect(mismatches).toEqual([]);
    expect(tokens).toBeGreaterThan(1_000_000);
    // Numbers are dense, in order of first appearance.
    expect([...numberOf.values()].sort((a, b) => a - b)).toEqual([...numberOf.keys()].map((_, i) => i));
  });

  it('forgets spellings beyond its limit but keeps term numbers', () => {
    const memo = new SpanMemo((text) => (text === 'the' ? null : text.toLowerCase()), 4);
    const first = memo.termOf('Cell');
    const number = memo.termNumber('Cell', 0, 4);
    for (const word of ['a', 'b', 'c', 'd', 'e', 'f', 'the']) memo.termOf(word);
    expect(memo.size).toBeLessThanOrEqual(4);
    expect(memo.termNumber('xx Cell', 3, 7)).toBe(number);
    expect(memo.termNumber('CELL', 0, 4)).toBe(number);
    expect(first).toBe('cell');
    expect(memo.termOf('the')).toBeNull();
  });

  it('keeps thousands of spellings apart (long probe chains, same lengths)', () => {
    const memo = new SpanMemo((text) => text);
    const words = Array.from({ length: 5000 }, (_, i) => `w${i.toString(36)}`);
    for (const word of words) memo.termOf(word);
    for (const word of words) expect(memo.termOf(word)).toBe(word);
  });
});

describe('pipeline analyzer term numbers', () => {
  it('termNumbers names the terms analyze gives', () => {
    const analyzer = englishAnalyzer();
    const text = "The cell's membranes are dividing; cells divided.";
    expect([...analyzer.termNumbers!(text)].map((n) => analyzer.term!(n))).toEqual(analyzer.analyze(text));
  });
});
