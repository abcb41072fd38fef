// Expected terms were recorded from Lucene 8.7's StandardAnalyzer and SimpleAnalyzer (Debian liblucene8-java).
import { describe, expect, it } from 'vitest';
import { analyzerNames, analyzers, createAnalyzer, isAnalyzerName, prepareAnalyzer } from '../../../src/lib/analysis/analyzers.ts';

describe('analyzer registry', () => {
  it('lists english, polish, standard and simple with a label and description', async () => {
    expect(analyzerNames).toEqual(['english', 'polish', 'standard', 'simple']);
    for (const name of analyzerNames) {
      await prepareAnalyzer(name);
      expect(analyzers[name].name).toBe(name);
      expect(analyzers[name].label.length).toBeGreaterThan(0);
      expect(analyzers[name].description.length).toBeGreaterThan(0);
      expect(createAnalyzer(name).name).toBe(name);
    }
    expect(isAnalyzerName('english')).toBe(true);
    expect(isAnalyzerName('toString')).toBe(false);
  });

  it('standard: StandardTokenizer + lower case, no stop words (the 8.x default stop set is empty)', () => {
    expect(createAnalyzer('standard').analyzeWithOffsets('The Quick-Brown fox is 3.5 times')).toEqual([
      { term: 'the', start: 0, end: 3 },
      { term: 'quick', start: 4, end: 9 },
      { term: 'brown', start: 10, end: 15 },
      { term: 'fox', start: 16, end: 19 },
      { term: 'is', start: 20, end: 22 },
      { term: '3.5', start: 23, end: 26 },
      { term: 'times', start: 27, end: 32 },
    ]);
    expect(createAnalyzer('standard').analyze('The AND of')).toEqual(['the', 'and', 'of']);
  });

  it('simple: lower-cased letter runs; digits and punctuation split and vanish', () => {
    expect(createAnalyzer('simple').analyzeWithOffsets('The Quick-Brown fox is 3.5 times covid-19 naïve')).toEqual([
      { term: 'the', start: 0, end: 3 },
      { term: 'quick', start: 4, end: 9 },
      { term: 'brown', start: 10, end: 15 },
      { term: 'fox', start: 16, end: 19 },
      { term: 'is', start: 20, end: 22 },
      { term: 'times', start: 27, end: 32 },
      { term: 'covid', start: 33, end: 38 },
      { term: 'naïve', start: 42, end: 47 },
    ]);
  });

  it('simple: cuts letter runs after 255 units like CharTokenizer', () => {
    const spans = createAnalyzer('simple').analyzeWithOffsets('A'.repeat(600)).map((t) => [t.start, t.end]);
    expect(spans).toEqual([
      [0, 255],
      [255, 510],
      [510, 600],
    ]);
  });
});
