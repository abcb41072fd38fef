import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { collectionLanguage, LANGUAGES, LanguageSample, type Language } from '../../../src/lib/analysis/language.ts';
import { shared } from '../../shared-dir.ts';

function corpusTexts(...path: string[]): string[] {
  return readFileSync(shared(...path), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const doc = JSON.parse(line) as { title?: string; text: string };
      return `${doc.title ?? ''}\n${doc.text}`;
    });
}

/** The language a sample of these texts tells, fed as an import feeds documents. */
function detectLanguage(texts: Iterable<string>): Language {
  const sample = new LanguageSample();
  for (const text of texts) sample.add(text);
  return sample.language;
}

describe('LanguageSample', () => {
  it('tells the Polish manpages from English SciFact (the shared collections)', () => {
    expect(detectLanguage(corpusTexts('reference', 'polish', 'manpages-pl', 'corpus.jsonl'))).toBe('pl');
    expect(detectLanguage(corpusTexts('beir', 'scifact', 'corpus.jsonl'))).toBe('en');
  });

  it('decides on function words, Polish only when they outnumber the English ones', () => {
    expect(detectLanguage(['Wypisuje zawartość katalogu, który jest podany w argumencie oraz nie sortuje.'])).toBe('pl');
    expect(detectLanguage(['The list of the files that are in the directory is sorted by name.'])).toBe('en');
    // A Polish sentence quoting English: Polish function words still dominate.
    expect(detectLanguage(['Polecenie "print the file" jest w bashu i nie ma go w sh, ale jest w zsh.'])).toBe('pl');
    expect(detectLanguage([''])).toBe('en');
  });

  it('without any function word, falls back to the share of Polish letters', () => {
    expect(detectLanguage(['Żółć gęślą jaźń'])).toBe('pl');
    expect(detectLanguage(['Kubernetes Docker Linux'])).toBe('en');
  });

  it('looks at a bounded sample only', () => {
    const sample = new LanguageSample();
    for (let i = 0; i < 10_000 && !sample.full; i++) sample.add('nie jest to prawda oraz się zdarza '.repeat(10));
    expect(sample.full).toBe(true);
    sample.add('the of and the of and '.repeat(100_000));
    expect(sample.language).toBe('pl');
  });
});

describe('language table', () => {
  it('maps each language to an analyzer; stored rows without a language are English', () => {
    expect(LANGUAGES.pl.analyzer).toBe('polish');
    expect(LANGUAGES.en.analyzer).toBe('english');
    expect(collectionLanguage({})).toBe('en');
    expect(collectionLanguage(undefined)).toBe('en');
    expect(collectionLanguage({ language: 'pl' })).toBe('pl');
  });
});
