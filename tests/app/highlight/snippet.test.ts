import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { englishAnalyzer } from '../../../src/lib/analysis/english-analyzer.ts';
import { markTerms, snippetOf } from '../../../src/app/highlight/snippet.ts';

const english = englishAnalyzer();
const termsOf = (query: string) => new Set(english.analyze(query));

describe('markTerms', () => {
  it('marks the spans of analyzed terms: stems and possessives match, stop words do not', () => {
    const text = "The Wasabi's heat: wasabis and the allyl compound.";
    const segments = markTerms(text, english.analyzeWithOffsets(text), termsOf('wasabi and allyl'));
    expect(segments).toEqual([
      { text: 'The ', mark: false },
      { text: "Wasabi's", mark: true },
      { text: ' heat: ', mark: false },
      { text: 'wasabis', mark: true },
      { text: ' and the ', mark: false },
      { text: 'allyl', mark: true },
      { text: ' compound.', mark: false },
    ]);
  });

  it('gives back exactly the text, with marked segments exactly the tokens of query terms (fast-check)', () => {
    const word = fc.constantFrom('bread', 'Bread', 'loaves', 'loaf', 'the', 'stale', "baker's", 'K-90', '17,468', 'a', 'ÉCLAIR', 'naïve');
    fc.assert(
      fc.property(fc.array(fc.tuple(word, fc.constantFrom(' ', ', ', '. ', ' — ', '\n')), { maxLength: 30 }), fc.array(word, { maxLength: 4 }), (pieces, query) => {
        const text = pieces.map(([w, sep]) => w + sep).join('');
        const terms = termsOf(query.join(' '));
        const tokens = english.analyzeWithOffsets(text);
        const segments = markTerms(text, tokens, terms);
        expect(segments.map((s) => s.text).join('')).toBe(text);
        for (let i = 1; i < segments.length; i++) expect(segments[i]!.mark).not.toBe(segments[i - 1]!.mark);
        const marked = segments.filter((s) => s.mark).map((s) => s.text).join('|');
        const expected = tokens.filter((t) => terms.has(t.term)).map((t) => text.slice(t.start, t.end));
        // Adjacent marked tokens merge into one segment; their text in order is the same.
        expect(marked.split('|').join('')).toBe(expected.join(''));
      }),
    );
  });
});

describe('snippetOf', () => {
  const filler = 'Nothing to see in this sentence at all. '.repeat(12);
  const text = `${filler}Starch retrogradation makes a loaf stale and firm. ${filler}`;

  it('cuts around the matched terms, at word boundaries, with ellipsis flags', () => {
    const snippet = snippetOf(text, english.analyzeWithOffsets(text), termsOf('stale loaf'), 120);
    const shown = snippet.segments.map((s) => s.text).join('');
    expect(shown).toContain('makes a loaf stale');
    expect(shown.length).toBeLessThanOrEqual(120);
    expect(snippet.cutStart && snippet.cutEnd).toBe(true);
    expect(text.includes(shown)).toBe(true);
    expect(/^\S/.test(shown) && /\S$/.test(shown)).toBe(true);
    expect(snippet.segments.filter((s) => s.mark).map((s) => s.text)).toEqual(['loaf', 'stale']);
  });

  it('starts at the beginning when nothing matches, and keeps short texts whole', () => {
    const none = snippetOf(text, english.analyzeWithOffsets(text), termsOf('supernova'), 100);
    expect(none.cutStart).toBe(false);
    expect(text.startsWith(none.segments.map((s) => s.text).join(''))).toBe(true);
    expect(snippetOf('A short one.', english.analyzeWithOffsets('A short one.'), termsOf('short'))).toEqual({
      segments: [
        { text: 'A ', mark: false },
        { text: 'short', mark: true },
        { text: ' one.', mark: false },
      ],
      cutStart: false,
      cutEnd: false,
    });
  });
});
