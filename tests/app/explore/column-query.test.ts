import { describe, expect, it } from 'vitest';
import { englishAnalyzer } from '../../../src/lib/analysis/english-analyzer.ts';
import { bagOfTerms } from '../../../src/lib/bm25/bm25-query.ts';
import { defaultRetriever } from '../../../src/lib/retrievers/config.ts';
import { bm25AnalyzerOf, columnQuery } from '../../../src/app/explore/column-query.ts';

const english = englishAnalyzer();

describe('columnQuery: what a column ranks for the query box', () => {
  it('ranks plain text as text (analyzed in the worker), with the typed bag for the panel', () => {
    const q = columnQuery({ id: 'q1', text: 'Why does bread go hard?', typed: false }, english, undefined)!;
    expect(q.input).toEqual({ id: 'q1', text: 'Why does bread go hard?' });
    expect(q.typedBag).toEqual(bagOfTerms(english.analyze('Why does bread go hard?')));
    expect(q.edited).toBeUndefined();
    expect(q.parsed).toBeUndefined();
  });

  it('typed syntax: BM25 ranks the parsed bag, the text loses weights and + markers', () => {
    const q = columnQuery({ text: 'bread^2.5 hard +crust^0.5', typed: true }, english, undefined)!;
    expect(q.input.text).toBe('bread hard crust');
    expect(q.input.weighted).toEqual([
      { term: 'bread', weight: 2.5 },
      { term: 'hard', weight: 1 },
      { term: 'crust', weight: 0.5 },
    ]);
    expect(q.parsed?.errors).toEqual([]);
    expect(q.typedBag).toEqual(q.input.weighted);
  });

  it('typed text without syntax stays text; a stored query as written is never parsed', () => {
    expect(columnQuery({ text: 'bread go hard', typed: true }, english, undefined)!.input).toEqual({ text: 'bread go hard' });
    const stored = columnQuery({ id: 'q9', text: 'x^2 y', typed: false }, english, undefined)!;
    expect(stored.input).toEqual({ id: 'q9', text: 'x^2 y' });
    expect(stored.typedBag).toEqual(bagOfTerms(english.analyze('x^2 y')));
  });

  it('an edit in the terms panel replaces the bag, for stored queries too', () => {
    const q = columnQuery({ id: 'q1', text: 'bread go hard', typed: false }, english, '+bread^3 +crust')!;
    expect(q.input).toEqual({ id: 'q1', text: 'bread go hard', weighted: [{ term: 'bread', weight: 3 }, { term: 'crust', weight: 1 }] });
    expect(q.edited).toEqual(q.input.weighted);
    expect(q.typedBag).toEqual(bagOfTerms(english.analyze('bread go hard')));
    // Every term dropped: an empty bag (nothing matches), not the typed query.
    expect(columnQuery({ text: 'bread', typed: true }, english, '')!.input.weighted).toEqual([]);
  });

  it('columns without BM25 read the stripped text; edits do not apply to them', () => {
    expect(columnQuery({ text: 'bread^2 +crust', typed: true }, undefined, '+x')).toEqual({ input: { text: 'bread crust' } });
  });

  it('waits for a loading analyzer only when the syntax or an edit needs it; a failed one ranks plain text', () => {
    expect(columnQuery({ text: 'bread go hard', typed: true }, 'loading', undefined)).toEqual({ input: { text: 'bread go hard' } });
    expect(columnQuery({ text: 'bread^2', typed: true }, 'loading', undefined)).toBeNull();
    expect(columnQuery({ id: 'q1', text: 'bread', typed: false }, 'loading', '+bread^2')).toBeNull();
    const failed = columnQuery({ text: 'bread^2', typed: true }, new Error('no vocabulary'), '+x')!;
    expect(failed).toEqual({ input: { text: 'bread' }, analyzerProblem: 'no vocabulary' });
  });

  it('reads the weighted query with the BM25 part of a column, a Re-rank column\'s first stage included', () => {
    expect(bm25AnalyzerOf(defaultRetriever('bm25'))).toBe('english');
    expect(bm25AnalyzerOf(defaultRetriever('ledr', { language: 'pl' }))).toBe('polish');
    expect(bm25AnalyzerOf(defaultRetriever('rm3'))).toBe('english');
    expect(bm25AnalyzerOf(defaultRetriever('dense'))).toBeUndefined();
    expect(bm25AnalyzerOf(defaultRetriever('rerank'))).toBe('english');
    const denseFirst = { ...defaultRetriever('rerank'), firstStage: defaultRetriever('dense') } as Parameters<typeof bm25AnalyzerOf>[0];
    expect(bm25AnalyzerOf(denseFirst)).toBeUndefined();
  });
});
