import { describe, expect, it } from 'vitest';
import { englishAnalyzer } from '../../../src/lib/analysis/english-analyzer.ts';
import { bagOfTerms, type QueryTermWeight } from '../../../src/lib/bm25/bm25-query.ts';
import { formatBoost, formatWeightedQuery, parseLuceneFloat, parseWeightedQuery, stripQuerySyntax } from '../../../src/lib/bm25/query-syntax.ts';

const english = englishAnalyzer();
const parse = (text: string) => parseWeightedQuery(text, english);

describe('parseWeightedQuery', () => {
  it('gives plain text exactly the bag of its analyzed terms (counts as weights, first-occurrence order)', () => {
    const text = 'Cells in the cell: CD4 + T cell responses, +1 nucleosomes.';
    expect(parse(text).terms).toEqual(bagOfTerms(english.analyze(text)));
    expect(parse(text).terms).toEqual([
      { term: 'cell', weight: 3 },
      { term: 'cd4', weight: 1 },
      { term: 't', weight: 1 },
      { term: 'respons', weight: 1 },
      { term: '1', weight: 1 },
      { term: 'nucleosom', weight: 1 },
    ]);
  });

  it('reads word^boost, gives every term of a boosted word the boost, and adds the weights of repeats', () => {
    // covid-19^2 analyzes to two terms, each 2; cells^1.5 + cell → 2.5; +cell^0.5 → 3.
    const parsed = parse('covid-19^2 cells^1.5 cell +cell^0.5');
    expect(parsed.terms).toEqual([
      { term: 'covid', weight: 2 },
      { term: '19', weight: 2 },
      { term: 'cell', weight: 3 },
    ]);
    expect(parsed.errors).toEqual([]);
  });

  it('takes +term verbatim (no analysis), weight 1 by default, and notes when the analyzer would differ', () => {
    const parsed = parse('vaccine +Cells^0.25 +studi');
    expect(parsed.terms).toEqual([
      { term: 'vaccin', weight: 1 },
      { term: 'Cells', weight: 0.25 },
      { term: 'studi', weight: 1 },
    ]);
    expect(parsed.notes).toEqual([
      { line: 1, column: 9, offset: 8, text: '+Cells^0.25', message: '"Cells" is taken verbatim as an index term (the analyzer would make "cell")' },
    ]);
  });

  it('stores weights as Java floats (Float.parseFloat) and sums repeats in double before rounding to float', () => {
    // 0.1f = 0.100000001490116…; 0.1f + 0.1f + 0.1f in double = 0.300000004470348…, rounded to float
    // 0.3000000044703484 (the float nearest), not 3 · 0.1 in double.
    const parsed = parse('a1^0.1 a1^0.1 a1^0.1');
    expect(parsed.terms).toEqual([{ term: 'a1', weight: Math.fround(3 * Math.fround(0.1)) }]);
    expect(parsed.terms[0]!.weight).toBe(0.30000001192092896);
  });

  it('reports a boosted stop word as dropped, plain stop words too, and keeps weight 0 terms', () => {
    const parsed = parse('the^2 cell^0 of');
    expect(parsed.terms).toEqual([{ term: 'cell', weight: 0 }]);
    expect(parsed.dropped).toEqual([
      { line: 1, column: 1, offset: 0, text: 'the^2', boosted: true },
      { line: 1, column: 14, offset: 13, text: 'of', boosted: false },
    ]);
  });

  it('reads malformed syntax as plain text and reports it with line and column, never throwing', () => {
    const text = 'gene^\n  x^-1 ^2\n+^3 +a^b cell^99999999999999999999999999999999999999999';
    const parsed = parse(text);
    // Every token is malformed, so all of it is plain text: the bag of the whole text.
    expect(parsed.terms).toEqual(bagOfTerms(english.analyze(text)));
    expect(parsed.errors.map(({ line, column, text }) => [line, column, text])).toEqual([
      [1, 1, 'gene^'],
      [2, 3, 'x^-1'],
      [2, 8, '^2'],
      [3, 1, '+^3'],
      [3, 5, '+a^b'],
      [3, 10, 'cell^99999999999999999999999999999999999999999'],
    ]);
    expect(parsed.errors[1]!.message).toBe('"^-1" is not a boost: write digits with an optional fraction, such as ^2 or ^0.5; read as plain text');
    expect(parsed.errors[5]!.message).toMatch(/largest float/);
    for (const text of ['', '^', '+', '\\', '^^^', '+\\', 'a^^', '\u0000^1', 'x'.repeat(1000) + '^1']) expect(() => parse(text)).not.toThrow();
  });

  it('keeps a term whose summed weights overflow the float range out, with an error', () => {
    const big = '340000000000000000000000000000000000000';
    const parsed = parse(`+x^${big} +x^${big} +y`);
    expect(parsed.terms).toEqual([{ term: 'y', weight: 1 }]);
    expect(parsed.errors).toHaveLength(1);
    expect(parsed.errors[0]!.text).toBe('x');
  });
});

describe('parseLuceneFloat (Java Float.parseFloat: the decimal correctly rounded to float)', () => {
  it('equals fround for ordinary decimals', () => {
    for (const text of ['0', '1', '2.5', '0.1', '0.3', '3.14159', '100000', '0.0001']) expect(parseLuceneFloat(text)).toBe(Math.fround(Number(text)));
  });

  it('rounds correctly where decimal → double → float rounds twice wrongly', () => {
    // 1 + 2^-24 is the midpoint between the floats 1 and 1 + 2^-23. This decimal lies just above it, but as
    // a double it IS the midpoint, and fround breaks the tie to even (1). Correct rounding gives 1 + 2^-23.
    const justAbove = '1.00000005960464477539062500000001';
    expect(Number(justAbove)).toBe(1 + 2 ** -24);
    expect(Math.fround(Number(justAbove))).toBe(1);
    expect(parseLuceneFloat(justAbove)).toBe(1 + 2 ** -23);
    // Just below, and exactly on it (a true tie: to even).
    expect(parseLuceneFloat('1.00000005960464477539062499999999')).toBe(1);
    expect(parseLuceneFloat('1.000000059604644775390625')).toBe(1);
  });

  it('rejects what is not Lucene NUMBER syntax', () => {
    for (const text of ['', '-1', '1e3', '.5', '5.', ' 1']) expect(parseLuceneFloat(text)).toBeNaN();
  });
});

describe('formatWeightedQuery (canonical syntax for URLs)', () => {
  it('writes +term^w tokens with the shortest weight that reads back to the same float', () => {
    expect(formatWeightedQuery([
      { term: 'cell', weight: 3 },
      { term: 'vaccin', weight: 1 },
      { term: 'a^b c\\', weight: Math.fround(0.1) },
      { term: '+', weight: 0 },
    ])).toBe('+cell^3 +vaccin +a\\^b\\ c\\\\^0.1 ++^0');
    expect(formatBoost(1e-7)).toBe('0.0000001');
    expect(formatBoost(1e20)).toBe('100000000000000000000');
    expect(formatBoost(Math.fround(2 / 3))).toBe('0.6666667');
    expect(() => formatBoost(-1)).toThrow(RangeError);
    expect(() => formatWeightedQuery([{ term: '', weight: 1 }])).toThrow(RangeError);
  });

  it('round-trips random bags exactly through parseWeightedQuery', () => {
    let seed = 12345;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const alphabet = ['a', 'b', 'Z', '^', '\\', ' ', '\n', '+', '-', 'é', '1', '.', '\t'];
    for (let round = 0; round < 300; round++) {
      const bag = new Map<string, number>();
      const size = 1 + Math.floor(random() * 6);
      while (bag.size < size) {
        let term = '';
        const length = 1 + Math.floor(random() * 5);
        for (let i = 0; i < length; i++) term += alphabet[Math.floor(random() * alphabet.length)]!;
        const kind = random();
        const weight = kind < 0.2 ? 1 : kind < 0.3 ? 0 : Math.fround(random() * 10 ** Math.floor(random() * 12 - 6));
        bag.set(term, weight);
      }
      const terms: QueryTermWeight[] = [...bag].map(([term, weight]) => ({ term, weight }));
      const text = formatWeightedQuery(terms);
      const parsed = parse(text);
      expect(parsed.terms, text).toEqual(terms);
      expect(parsed.errors, text).toEqual([]);
    }
  });
});

describe('stripQuerySyntax (the text dense models read)', () => {
  it('removes weights and + markers, keeps plain and malformed tokens and the whitespace', () => {
    expect(stripQuerySyntax('microRNA^2.5 in  cancer\n+tumor^0.5 +cell')).toEqual({ text: 'microRNA in  cancer\ntumor cell', weighted: true });
    expect(stripQuerySyntax('a^ x^-1 +a\\^b^2 two\\ words^3')).toEqual({ text: 'a^ x^-1 a^b two words', weighted: true });
  });

  it('returns text without syntax unchanged and says so', () => {
    for (const text of ['Why does bread go hard?', 'C++ and c#', ' 1+1 = 2 ', '']) expect(stripQuerySyntax(text)).toEqual({ text, weighted: false });
  });

  it('strips to words whose analysis is the parsed bag when every weight is 1', () => {
    const text = 'bread^1 +hard stale';
    const plain = stripQuerySyntax(text);
    expect(bagOfTerms(english.analyze(plain.text))).toEqual(parse(text).terms);
  });
});
