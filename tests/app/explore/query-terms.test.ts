import { describe, expect, it } from 'vitest';
import { englishAnalyzer } from '../../../src/lib/analysis/english-analyzer.ts';
import { parseWeightedQuery } from '../../../src/lib/bm25/query-syntax.ts';
import { addTerms, canonicalQuery, dropTerm, readWeight, sameBag, setWeight, stepWeight, weightText } from '../../../src/app/explore/query-terms.ts';

const english = englishAnalyzer();
const BAG = [
  { term: 'bread', weight: 1 },
  { term: 'hard', weight: 2 },
  { term: 'dai', weight: 1 },
];

describe('query terms panel: weights', () => {
  it('reads a typed weight as a float ≥ 0, or says why not', () => {
    expect(readWeight(' 2.5 ')).toEqual({ weight: 2.5 });
    expect(readWeight('0.1')).toEqual({ weight: Math.fround(0.1) });
    expect(readWeight('0')).toEqual({ weight: 0 });
    expect(readWeight('')).toHaveProperty('problem');
    expect(readWeight('abc')).toHaveProperty('problem');
    expect(readWeight('-1')).toHaveProperty('problem');
    expect(readWeight('1e39')).toHaveProperty('problem');
  });

  it('steps by 0.1 (Shift: 1) on the step grid, never below 0', () => {
    expect(stepWeight(1, 1)).toBe(Math.fround(1.1));
    expect(stepWeight(1, -1)).toBe(Math.fround(0.9));
    expect(stepWeight(Math.fround(1.23), 1)).toBe(Math.fround(1.3));
    expect(stepWeight(Math.fround(1.23), -1)).toBe(Math.fround(1.2));
    expect(stepWeight(Math.fround(0.1), -1)).toBe(0);
    expect(stepWeight(0, -1)).toBe(0);
    expect(stepWeight(2.5, 1, true)).toBe(3);
    expect(stepWeight(2, 1, true)).toBe(3);
    // Ten small steps from 1 land on 2 exactly, not on an accumulated rounding error.
    let w = 1;
    for (let i = 0; i < 10; i++) w = stepWeight(w, 1);
    expect(w).toBe(2);
  });

  it('shows the shortest decimal of a float weight', () => {
    expect(weightText(Math.fround(0.1))).toBe('0.1');
    expect(weightText(Math.fround(2.5))).toBe('2.5');
    expect(weightText(3)).toBe('3');
    expect(weightText(Math.fround(1.2345678))).toBe(String(Number(Math.fround(1.2345678).toPrecision(8))));
  });
});

describe('query terms panel: edits', () => {
  it('sets one weight and leaves the others (and rejects a weight no clause can have)', () => {
    expect(setWeight(BAG, 'hard', 0.5)).toEqual([BAG[0], { term: 'hard', weight: 0.5 }, BAG[2]]);
    expect(() => setWeight(BAG, 'hard', -1)).toThrow(RangeError);
    expect(BAG[1]!.weight).toBe(2);
  });

  it('drops a term', () => {
    expect(dropTerm(BAG, 'bread').map((t) => t.term)).toEqual(['hard', 'dai']);
    expect(dropTerm(BAG, 'absent')).toEqual(BAG);
  });

  it('adds words as the analyzer reads them, after the query terms; a present term keeps its weight', () => {
    const added = addTerms(BAG, 'Stale loaves, hard', english);
    expect(added.added).toEqual(['stale', 'loav']);
    expect(added.present).toEqual(['hard']);
    expect(added.bag).toEqual([...BAG, { term: 'stale', weight: 1 }, { term: 'loav', weight: 1 }]);
    expect(addTerms(BAG, 'starch', english, 0.5).bag.at(-1)).toEqual({ term: 'starch', weight: 0.5 });
  });

  it('refuses blank text and words the analyzer drops, with a reason', () => {
    expect(addTerms(BAG, '  ', english).problem).toMatch(/type a word/);
    const stop = addTerms(BAG, 'the', english);
    expect(stop.problem).toMatch(/drops "the"/);
    expect(stop.bag).toEqual(BAG);
  });

  it('writes canonical syntax that parses back to the same bag', () => {
    const edited = addTerms(setWeight(dropTerm(BAG, 'dai'), 'bread', 2.5), 'crust', english).bag;
    const text = canonicalQuery(edited);
    expect(text).toBe('+bread^2.5 +hard^2 +crust');
    expect(sameBag(parseWeightedQuery(text, english).terms, edited)).toBe(true);
    expect(sameBag(edited, BAG)).toBe(false);
    expect(sameBag([...BAG], BAG)).toBe(true);
  });
});
